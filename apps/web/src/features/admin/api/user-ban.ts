import type { BanAnswer, BanBody } from '@cr/contract/lifecycle';
import { api } from '../../../lib/api-client';
import { useInvalidatingMutation } from '../../../lib/invalidations';

/** A user as the admin routes take them: the user id, or the Catalyst ID. */
export type UserTarget = number | string;

/** Issue 47: `POST admin/users/{id}/ban` with a reason (and whether to withdraw this round's open work). */
export function useBanUser() {
  return useInvalidatingMutation('banUser', {
    mutationFn: ({ target, ban }: { target: UserTarget; ban: BanBody }) =>
      api<BanAnswer>(`admin/users/${encodeURIComponent(target)}/ban`, { method: 'POST', body: ban }),
  });
}

/** Issue 47: `POST admin/users/{id}/unban`. */
export function useUnbanUser() {
  return useInvalidatingMutation('unbanUser', {
    mutationFn: (target: UserTarget) => api<BanAnswer>(`admin/users/${encodeURIComponent(target)}/unban`, { method: 'POST' }),
  });
}
