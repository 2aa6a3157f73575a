import { api } from '../../../lib/api-client';
import { useInvalidatingMutation } from '../../../lib/invalidations';

export type DataFormat = 'json' | 'markdown';

/** Issue 47: `GET users/me/export`, saved as a file (JSON, or its readable Markdown rendering). */
export function downloadMyData(format: DataFormat) {
  return api<void>('users/me/export', { query: { format }, download: true });
}

/** Issue 47: `POST users/me/close`, confirmed with the password; the session ends with it. */
export function useCloseAccount() {
  return useInvalidatingMutation('closeAccount', {
    mutationFn: (password: string) => api<boolean>('users/me/close', { method: 'POST', body: { password } }),
  });
}
