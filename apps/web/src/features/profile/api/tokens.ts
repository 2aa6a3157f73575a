import { queryOptions } from '@tanstack/react-query';
import type { ApiTokenPublic, CreatedApiToken, NewApiToken } from '@cr/contract/tokens';
import { api } from '../../../lib/api-client';
import { useInvalidatingMutation } from '../../../lib/invalidations';
import { familyKeys } from '../../../lib/query-keys';

/** Issue 29 item 3: the caller's personal API tokens. */
export const apiTokensQuery = queryOptions({
  queryKey: familyKeys.apiTokens,
  queryFn: () => api<ApiTokenPublic[]>('users/me/tokens/'),
});

export function useCreateApiToken() {
  return useInvalidatingMutation('createApiToken', {
    mutationFn: (token: NewApiToken) => api<CreatedApiToken>('users/me/tokens/', { method: 'POST', body: { new_api_token: token } }),
  });
}

export function useRevokeApiToken() {
  return useInvalidatingMutation('revokeApiToken', {
    mutationFn: (id: number) => api<ApiTokenPublic>(`users/me/tokens/${id}/`, { method: 'DELETE' }),
  });
}
