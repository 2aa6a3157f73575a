import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { isReviewListKey, reviewsKeys } from './keys';

/** `DELETE proposal-reviews/{id}/` (E-014); the viewer then has no review of the proposal. */
export function useDeleteReview(proposalId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (rowId: number) => api<{ row_id: number }>(`proposal-reviews/${rowId}/`, { method: 'DELETE' }),
    onSuccess: async () => {
      client.setQueryData(reviewsKeys.own(proposalId), null);
      await client.invalidateQueries({ predicate: (query) => isReviewListKey(query.queryKey) });
    },
  });
}
