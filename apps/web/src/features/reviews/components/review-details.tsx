import { RATING_MAX } from '@cr/contract/plain';
import { Alert, Anchor, Button, Card, Group, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconArrowRight, IconInfoCircle } from '@tabler/icons-react';
import type { ReviewPublic } from '@cr/contract/reviews';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { StarRating } from '../../../components/star-rating';
import { paths } from '../../../config/paths';
import { formatRating } from '../../../lib/format';
import { CRITERIA, type Criterion } from '../values';
import { RankingBadge } from './ranking-badge';
import { AssessorLabel } from '../../../components/plain';

/** The head of a single review (spec §2.15): proposal (linked, E-044), category (E-045), reviewer and level (E-046). */
export function ReviewHeader({ review, showRanking }: { review: ReviewPublic; showRanking: boolean }) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Stack gap={4}>
          <Text size="sm" c="dimmed">
            {t('reviews.reviewOf', { id: review.row_id })}
          </Text>
          <Title order={1} size="h2">
            <Anchor component={Link} to={paths.proposal(review.proposal_id)} inherit>
              {review.proposal.title}
            </Anchor>
          </Title>
        </Stack>
        {/* E-050: hidden while this viewer moderates this review. */}
        {showRanking && <RankingBadge ranking={review.ranking} moderated={review.moderated} size="lg" />}
      </Group>
      <Group gap="xl" wrap="wrap">
        <Stack gap={2}>
          <Text size="xs" c="dimmed" tt="uppercase">
            {t('reviews.category')}
          </Text>
          <Text size="sm" data-testid="review-category">
            {review.proposal.category ?? t('reviews.noCategory')}
          </Text>
        </Stack>
        <Stack gap={2}>
          <Text size="xs" c="dimmed" tt="uppercase">
            {t('reviews.reviewer')}
          </Text>
          <Group gap={6} data-testid="review-assessor">
            <Text size="sm">{t('reviews.communityReviewer')}</Text>
            <AssessorLabel assessor={review.assessor} level={review.assessor_level} />
          </Group>
        </Stack>
      </Group>
      {!review.allocated && (
        <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} aria-hidden />} data-testid="not-allocated">
          {t('reviews.notAllocated')}
        </Alert>
      )}
    </Stack>
  );
}

/** Names the card for tests as before the merge (rating-card-impact, …). */
const CARD_NAMES = { impact_alignment: 'impact', feasibility: 'feasibility', auditability: 'auditability' } as const;

function RatingCard({ criterion, review }: { criterion: Criterion; review: ReviewPublic }) {
  const { t } = useTranslation();
  const title = t(`reviews.criteria.${criterion.key}`);
  const rating = review[criterion.rating];
  const note = review[criterion.note];
  return (
    <Card withBorder padding="md" component="section" aria-label={title} data-testid={`rating-card-${CARD_NAMES[criterion.key]}`}>
      <Stack gap="xs">
        <Title order={2} size="h4">
          {title}
        </Title>
        <Group justify="space-between" wrap="nowrap">
          <StarRating
            value={rating}
            readOnly
            role="img"
            aria-label={t('reviews.starsOf', { value: Math.round(rating), max: RATING_MAX })}
          />
          <Text fw={600}>{t('reviews.ratingValue', { value: formatRating(rating), max: RATING_MAX })}</Text>
        </Group>
        <Progress value={(rating / RATING_MAX) * 100} aria-label={t('reviews.progressOf', { name: title })} />
        {/* Plain text: the note's line breaks kept, nothing interpreted as markup. */}
        <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }} data-testid="rating-note">
          {note}
        </Text>
      </Stack>
    </Card>
  );
}

/** The three rating cards of spec §2.15 (E-048), each with stars (E-025), a bar out of 5 and the note, and the overall. */
export function RatingCards({ review }: { review: ReviewPublic }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Group gap="sm">
        <Text fw={600}>{t('reviews.overallLabel')}</Text>
        <StarRating
          value={review.overall_score}
          readOnly
          role="img"
          aria-label={t('reviews.starsOf', { value: Math.round(review.overall_score), max: RATING_MAX })}
        />
        <Text fw={600} data-testid="overall-score">
          {t('reviews.ratingValue', { value: formatRating(review.overall_score), max: RATING_MAX })}
        </Text>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
        {CRITERIA.map((criterion) => (
          <RatingCard key={criterion.key} criterion={criterion} review={review} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}

/** The next review allocated to the viewer (spec §2.15, E-049). */
export function NextAllocationButton({ next }: { next: number | null }) {
  const { t } = useTranslation();
  if (next === null) return null;
  return (
    <Button component={Link} to={paths.review(next)} rightSection={<IconArrowRight size={16} aria-hidden />} variant="light">
      {t('reviews.nextAllocation')}
    </Button>
  );
}
