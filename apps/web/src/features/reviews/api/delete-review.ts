import { api } from '../../../lib/api-client';
import { useInvalidatingMutation } from '../../../lib/invalidations';
import { isOwnReviewKey, reviewsKeys } from './keys';

/**
 * `DELETE proposal-reviews/{id}/` (E-014); the viewer then has no review of the proposal. `onDone` runs before the
 * cache changes (the form's draft goes first, issue 12 item 3). The deleted review's own page is not fetched again:
 * it would only answer 404 while its page moves on.
 */
export function useDeleteReview(proposalId: number, { onDone }: { onDone?: () => void } = {}) {
  return useInvalidatingMutation('deleteReview', {
    mutationFn: (rowId: number) => api<{ row_id: number }>(`proposal-reviews/${rowId}/`, { method: 'DELETE' }),
    onSuccess: (_answer, _rowId, _result, { client }) => {
      onDone?.();
      client.setQueryData(reviewsKeys.own(proposalId), null);
    },
    keep: (queryKey, rowId) => isOwnReviewKey(queryKey) || reviewsKeys.detail(rowId).every((part, index) => queryKey[index] === part),
  });
}
