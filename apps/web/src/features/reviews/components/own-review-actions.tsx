import { Button, Group } from '@mantine/core';
import type { ReviewPublic } from '@cr/contract/reviews';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { draftKey } from '../values';
import { useConfirmDelete } from './use-confirm-delete';

/** What the proposal page reads to open the viewer's review in edit mode. */
export interface EditReviewState {
  editReview: true;
}

/**
 * Edit and Delete for the author of a review, on the review's own page (issue 12 item 11): Edit opens the form on the
 * proposal, in edit mode and with the proposal beside it; Delete asks first, as on the proposal (E-013, E-014).
 */
export function OwnReviewActions({ review, userId, onDeleted }: { review: ReviewPublic; userId: string; onDeleted: () => void }) {
  const { t } = useTranslation();
  const { confirmDelete, isDeleting } = useConfirmDelete({
    proposalId: review.proposal_id,
    draftStorageKey: draftKey(userId, review.proposal_id),
    onDeleted,
  });
  const state: EditReviewState = { editReview: true };
  return (
    <Group gap="xs" data-testid="own-review-actions">
      <Button component={Link} to={paths.proposal(review.proposal_id)} state={state} disabled={isDeleting}>
        {t('reviews.edit')}
      </Button>
      <Button variant="subtle" color="red" onClick={() => confirmDelete(review.row_id)} loading={isDeleting}>
        {t('reviews.delete')}
      </Button>
    </Group>
  );
}
