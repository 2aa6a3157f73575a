import type { ReviewFields, ReviewPublic } from '@cr/contract/reviews';
import { useSession } from '../../../lib/session';
import { sendOrQueue } from '../offline-outbox';
import { useInvalidatingMutation } from '../../../lib/invalidations';
import { isOwnReviewKey, reviewsKeys } from './keys';

export interface SaveReviewInput {
  /** The saved review's id: an update when set (E-010), else a new review (E-011). */
  rowId: number | null;
  values: ReviewFields;
}

/**
 * Saves the viewer's review of a proposal: `PUT proposal-reviews/{id}/` with proposal_review_update when it exists,
 * `POST proposal-reviews/` otherwise (spec §7). `onDone` runs once the server has the review and before the cache
 * does, for what must be gone before anything renders from the new cache (the form's draft, issue 12 item 3).
 */
export function useSaveReview(
  proposalId: number,
  { onDone, proposalTitle = `#${proposalId}` }: { onDone?: () => void; proposalTitle?: string } = {},
) {
  return useInvalidatingMutation('saveReview', {
    // Offline, the write waits in the outbox (issue 29): QueuedOffline is thrown and the draft stays.
    mutationFn: ({ rowId, values }: SaveReviewInput) =>
      sendOrQueue<ReviewPublic>({
        proposalId,
        proposalTitle,
        userId: useSession.getState().userInfo?.catalyst_id.id ?? '',
        ...(rowId === null
          ? {
              kind: 'create' as const,
              method: 'POST' as const,
              path: 'proposal-reviews/',
              body: { new_proposal_review: { ...values, proposal_id: proposalId } },
            }
          : {
              kind: 'update' as const,
              method: 'PUT' as const,
              path: `proposal-reviews/${rowId}/`,
              body: { proposal_review_update: { ...values, row_id: rowId } },
            }),
      }),
    onSuccess: (review, _input, _result, { client }) => {
      onDone?.();
      client.setQueryData(reviewsKeys.own(proposalId), review);
    },
    // The rest of what a review changes (lists, has_reviewed, the profile's stats, the Overview): lib/invalidations.
    keep: isOwnReviewKey,
  });
}
