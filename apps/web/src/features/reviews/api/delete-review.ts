import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { isReviewListKey, reviewsKeys } from './keys';

/**
 * `DELETE proposal-reviews/{id}/` (E-014); the viewer then has no review of the proposal. `onDone` runs before the
 * cache changes (the form's draft goes first, issue 12 item 3). The deleted review's own page is not fetched again:
 * it would only answer 404 while its page moves on.
 */
export function useDeleteReview(proposalId: number, { onDone }: { onDone?: () => void } = {}) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (rowId: number) => api<{ row_id: number }>(`proposal-reviews/${rowId}/`, { method: 'DELETE' }),
    onSuccess: async (_, rowId) => {
      onDone?.();
      client.setQueryData(reviewsKeys.own(proposalId), null);
      const deleted = reviewsKeys.detail(rowId);
      await client.invalidateQueries({
        predicate: ({ queryKey }) => isReviewListKey(queryKey) && !(queryKey[1] === deleted[1] && queryKey[2] === deleted[2]),
      });
    },
  });
}
