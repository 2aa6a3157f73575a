import { RATING_MAX } from '@cr/contract/plain';
import { Group, Stack, Text } from '@mantine/core';
import type { ReviewFields } from '@cr/contract/reviews';
import { useTranslation } from 'react-i18next';
import { StarRating } from '../../../components/star-rating';
import { formatRating } from '../../../lib/format';
import { CRITERIA } from '../values';

/** The three ratings of a review as stars with their number, each followed by its note (spec §2.12). */
export function ReviewRatings({ review, withNotes = true }: { review: ReviewFields; withNotes?: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      {CRITERIA.map((criterion) => {
        const value = review[criterion.rating];
        const label = t(`reviews.criteria.${criterion.key}`);
        return (
          <Stack key={criterion.key} gap={4} data-testid={`rating-${criterion.key}`}>
            {/* The stars and their value never wrap; when the label and they do not fit on one line, they go below it. */}
            <Group gap="xs" justify="space-between" wrap="wrap">
              <Text size="sm" fw={600}>
                {label}
              </Text>
              <Group gap={6} wrap="nowrap" style={{ flexShrink: 0, whiteSpace: 'nowrap' }}>
                <StarRating value={value} readOnly size="sm" aria-hidden />
                <Text size="sm" data-testid="rating-value">
                  {t('reviews.ratingValue', { value: formatRating(value), max: RATING_MAX })}
                </Text>
              </Group>
            </Group>
            {withNotes && (
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {review[criterion.note]}
              </Text>
            )}
          </Stack>
        );
      })}
    </Stack>
  );
}
