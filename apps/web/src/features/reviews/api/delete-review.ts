import { useSession } from '../../../lib/session';
import { sendOrQueue } from '../offline-outbox';
import { useInvalidatingMutation } from '../../../lib/invalidations';
import { isOwnReviewKey, reviewsKeys } from './keys';

/**
 * `DELETE proposal-reviews/{id}/` (E-014); the viewer then has no review of the proposal. `onDone` runs before the
 * cache changes (the form's draft goes first, issue 12 item 3). The deleted review's own page is not fetched again:
 * it would only answer 404 while its page moves on.
 */
export function useDeleteReview(proposalId: number, { onDone }: { onDone?: () => void } = {}) {
  return useInvalidatingMutation('deleteReview', {
    // Offline, the delete waits in the outbox (issue 29): QueuedOffline is thrown.
    mutationFn: (rowId: number) =>
      sendOrQueue<{ row_id: number }>({
        kind: 'delete',
        method: 'DELETE',
        path: `proposal-reviews/${rowId}/`,
        proposalId,
        proposalTitle: `#${proposalId}`,
        userId: useSession.getState().userInfo?.catalyst_id.id ?? '',
      }),
    onSuccess: (_answer, _rowId, _result, { client }) => {
      onDone?.();
      client.setQueryData(reviewsKeys.own(proposalId), null);
    },
    keep: (queryKey, rowId) => isOwnReviewKey(queryKey) || reviewsKeys.detail(rowId).every((part, index) => queryKey[index] === part),
  });
}
