import { levelLabel } from '@cr/contract/plain';
import { Anchor, Badge, Group, Paper, Stack, Text } from '@mantine/core';
import type { ReviewPublic } from '@cr/contract/reviews';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { formatRating } from '../../../lib/format';
import { RankingBadge } from './ranking-badge';
import { ReviewRatings } from './review-ratings';

/** One review in a proposal's reviews list (spec §2.12): the anonymous reviewer and level, ranking, ratings and notes. */
export function ReviewCard({ review }: { review: ReviewPublic }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Paper component="article" aria-labelledby={titleId} withBorder radius="md" p="md" data-testid="review-card">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Group gap="xs">
            <Text fw={600} id={titleId}>
              {t('reviews.assessor', { id: review.assessor })}
            </Text>
            <Badge variant="outline" color="gray" tt="none">
              {levelLabel(review.assessor_level)}
            </Badge>
          </Group>
          <RankingBadge ranking={review.ranking} moderated={review.moderated} size="md" testId="review-ranking" />
        </Group>
        <Text size="sm" c="dimmed">
          {t('reviews.overall', { value: formatRating(review.overall_score) })}
        </Text>
        <ReviewRatings review={review} />
        <Anchor component={Link} to={paths.review(review.row_id)} size="sm" w="fit-content">
          {t('reviews.openReview', { id: review.row_id })}
        </Anchor>
      </Stack>
    </Paper>
  );
}
