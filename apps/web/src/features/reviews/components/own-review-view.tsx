import { Button, Group, Stack } from '@mantine/core';
import type { ReviewPublic } from '@cr/contract/reviews';
import { useTranslation } from 'react-i18next';
import { ReviewRatings } from './review-ratings';

/** The own-review form in view mode (spec §2.12): the saved ratings and notes, with Edit and Delete. */
export function OwnReviewView({
  review,
  onEdit,
  onDelete,
  isDeleting,
}: {
  review: ReviewPublic;
  onEdit: () => void;
  onDelete: () => void;
  isDeleting: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="md" data-testid="own-review-view">
      {/* The actions come first: the toasts of spec §8 appear bottom right, over the end of the side column. */}
      <Group justify="space-between" gap="xs">
        <Button onClick={onEdit} disabled={isDeleting}>
          {t('reviews.edit')}
        </Button>
        <Button variant="subtle" color="red" onClick={onDelete} loading={isDeleting}>
          {t('reviews.delete')}
        </Button>
      </Group>
      <ReviewRatings review={review} />
    </Stack>
  );
}
