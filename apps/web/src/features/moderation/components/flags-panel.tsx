import { flagTypeName, FlagType } from '@cr/contract/plain';
import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReviewPublic } from '@cr/contract/reviews';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { relatedReviewsQuery } from '../api/moderations';
import { flagGroups, formatPercent } from '../flag-groups';
import { sharedPassages, sharedShare } from '../shared-passages';

const NOTES = {
  impact_note: 'impact_alignment_note',
  feasibility_note: 'feasibility_note',
  auditability_note: 'auditability_note',
} as const;
type Criterion = keyof typeof NOTES;
const isCriterion = (value: string | null): value is Criterion => value !== null && value in NOTES;

function Highlighted({ text, other }: { text: string; other: string }) {
  return (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
      {sharedPassages(text, other).map((segment, index) =>
        segment.shared ? <mark key={index}>{segment.text}</mark> : <span key={index}>{segment.text}</span>,
      )}
    </Text>
  );
}

/** This review's note against the related review's matching note, side by side, shared passages marked. */
function Comparison({ review, related, criterion }: { review: ReviewPublic; related: ReviewPublic; criterion: Criterion }) {
  const { t } = useTranslation();
  const theirs = related[NOTES[criterion]];
  // The flag names the related review's note; this review's note is the one sharing the most with it.
  const own =
    (Object.keys(NOTES) as Criterion[])
      .map((key) => ({ key, share: sharedShare(review[NOTES[key]], theirs) }))
      .sort((a, b) => b.share - a.share)[0]?.key ?? criterion;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm" data-testid="note-comparison">
      <Paper withBorder p="sm">
        <Text size="xs" c="dimmed" mb={4}>
          {t('moderation.thisNote', { criterion: t(`moderation.criteria.${own}`) })}
        </Text>
        <Highlighted text={review[NOTES[own]]} other={theirs} />
      </Paper>
      <Paper withBorder p="sm">
        <Text size="xs" c="dimmed" mb={4}>
          {t('moderation.relatedNote', { id: related.row_id, criterion: t(`moderation.criteria.${criterion}`) })}
        </Text>
        <Highlighted text={theirs} other={review[NOTES[own]]} />
      </Paper>
    </SimpleGrid>
  );
}

/**
 * The review's flags (spec §2.15, F-039..F-046): grouped by type and first related review, the group's mean score as
 * a percentage with two decimals; a similarity flag lists its related reviews (fetched 20 ids a request) with the
 * related criterion and shows the two notes side by side; ai_generated is a hint.
 */
export function FlagsPanel({ review }: { review: ReviewPublic }) {
  const { t } = useTranslation();
  const groups = flagGroups(review.flags);
  const relatedIds = [
    ...new Set(
      groups.filter((group) => group.flagType === FlagType.similarity).flatMap((group) => group.related.map((item) => item.reviewId)),
    ),
  ];
  const { data: relatedReviews = [] } = useQuery(relatedReviewsQuery(relatedIds));
  if (groups.length === 0) return null;
  const byId = new Map(relatedReviews.map((item) => [item.row_id, item]));
  return (
    <Stack gap="sm" component="section" aria-labelledby="flags-title" data-testid="flags">
      <Title order={2} size="h3" id="flags-title">
        {t('moderation.flagsTitle')}
      </Title>
      {groups.map((group) => {
        const name = flagTypeName(group.flagType) ?? 'profanity';
        return (
          <Paper key={group.key} withBorder p="sm" data-testid="flag-group" data-flag-type={name}>
            <Stack gap="xs">
              <Group gap="sm">
                <Badge color={name === 'ai_generated' ? 'gray' : 'orange'} variant="light" style={{ textTransform: 'none' }}>
                  {t(`moderation.flagTypes.${name}`)}
                </Badge>
                <Text size="sm" fw={600} data-testid="flag-score">
                  {t('moderation.score', { value: formatPercent(group.score) })}
                </Text>
              </Group>
              {name === 'ai_generated' && (
                <Text size="sm" c="dimmed">
                  {t('moderation.aiHint')}
                </Text>
              )}
              {name === 'similarity' &&
                group.related.map(({ reviewId, criterion }, index) => {
                  const related = byId.get(reviewId);
                  return (
                    <Stack key={`${reviewId}-${index}`} gap={4}>
                      <Anchor component={Link} to={paths.review(reviewId)} size="sm">
                        {t('moderation.relatedReview', {
                          id: reviewId,
                          criterion: isCriterion(criterion) ? t(`moderation.criteria.${criterion}`) : '—',
                        })}
                      </Anchor>
                      {related && isCriterion(criterion) && <Comparison review={review} related={related} criterion={criterion} />}
                    </Stack>
                  );
                })}
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}
