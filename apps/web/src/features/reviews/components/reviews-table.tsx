import { levelLabel } from '@cr/contract/plain';
import { memo } from 'react';
import { Anchor, Badge, Group, Stack, Table, Text } from '@mantine/core';
import type { ReviewPublic } from '@cr/contract/reviews';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TableStatusRows } from '../../../components/table-status-rows';
import { ResponsiveList } from '../../../components/responsive-list';
import { REVIEWS_PAGE_SIZE } from '../api/keys';
import { ScrollTable } from '../../../components/scroll-table';
import { paths } from '../../../config/paths';
import { formatRating } from '../../../lib/format';
import { CRITERIA } from '../values';
import { RankingBadge } from './ranking-badge';

const COLUMNS = ['id', 'proposal', 'assessor', 'ranking', 'ratings'] as const;

/** The assessor as shown everywhere: anonymous id and level 'LV'+number (spec §4). */
export function AssessorLabel({ assessor, level }: { assessor: string; level: number }) {
  return (
    <Group gap={6} wrap="nowrap">
      <Text size="sm" ff="monospace">
        {assessor}
      </Text>
      <Badge size="sm" variant="outline" color="gray" style={{ minWidth: 'max-content' }}>
        {levelLabel(level)}
      </Badge>
    </Group>
  );
}

/**
 * The four figures of a row, in plain elements styled by `.review-ratings` (styles.css): a list page renders 25 of
 * them, and Mantine's Text and responsive Group props cost a component tree and a style element each (issue 30 item 5:
 * the page's blocking time on a phone).
 */
function Ratings({ review }: { review: ReviewPublic }) {
  const { t } = useTranslation();
  // Two short lines rather than one long one, leaving the proposal title room.
  return (
    <div className="review-ratings">
      {CRITERIA.map(({ key, rating }) => (
        <span key={key} className="review-rating" title={t(`reviews.criteria.${key}`)}>
          <span className="review-rating-label">{t(`reviews.short.${key}`)}</span> {formatRating(review[rating])}
        </span>
      ))}
      <span className="review-rating review-rating-overall">
        <span className="review-rating-label">{t('reviews.short.overall')}</span> {formatRating(review.overall_score)}
      </span>
    </div>
  );
}

interface ReviewsTableProps {
  rows: ReviewPublic[];
  label: string;
  isLoading: boolean;
  isFetching?: boolean;
}

/** A review on a phone (issue 19): the proposal, the ranking and ratings, the assessor, and the link that opens it. */
function ReviewCard({ review }: { review: ReviewPublic }) {
  const { t } = useTranslation();
  return (
    <Stack gap={6}>
      <Anchor component={Link} to={paths.proposal(review.proposal_id)} fw={600}>
        {review.proposal.title}
      </Anchor>
      <Group gap="xs" justify="space-between">
        <RankingBadge ranking={review.ranking} moderated={review.moderated} />
        <AssessorLabel assessor={review.assessor} level={review.assessor_level} />
      </Group>
      <Ratings review={review} />
      <Anchor component={Link} to={paths.review(review.row_id)} size="sm" fw={500}>
        {t('reviews.openReview', { id: review.row_id })}
      </Anchor>
    </Stack>
  );
}

/** The reviews of spec §2.13 (E-026): id, proposal title, assessor, ranking, ratings; a card a review on phones. */
function ReviewsTableView(props: ReviewsTableProps) {
  return (
    <ResponsiveList
      rows={props.rows}
      label={props.label}
      isLoading={props.isLoading}
      isFetching={props.isFetching}
      reserveRows={REVIEWS_PAGE_SIZE}
      rowKey={(review) => review.row_id}
      table={() => <WideTable {...props} />}
      card={(review) => <ReviewCard review={review} />}
    />
  );
}

/** Rendered again only when its own props change, not on each of its page's renders (a page renders 5–7 times as its
 * queries settle; issue 30 item 5: mobile total blocking time). */
export const ReviewsTable = memo(ReviewsTableView);

function WideTable({ rows, label, isLoading, isFetching = false }: ReviewsTableProps) {
  const { t } = useTranslation();
  return (
    <ScrollTable minWidth={760} label={label} stickyFirstColumn>
      <Table
        striped
        highlightOnHover
        verticalSpacing="sm"
        aria-label={label}
        aria-busy={isLoading || isFetching}
        style={{ opacity: isFetching && !isLoading ? 0.6 : 1 }}
      >
        <Table.Thead>
          <Table.Tr>
            {COLUMNS.map((name) => (
              <Table.Th key={name}>{t(`reviews.columns.${name}`)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((review) => (
            <Table.Tr key={review.row_id}>
              <Table.Td>
                <Anchor component={Link} to={paths.review(review.row_id)} aria-label={t('reviews.openReview', { id: review.row_id })}>
                  {review.row_id}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Anchor component={Link} to={paths.proposal(review.proposal_id)} fw={500}>
                  {review.proposal.title}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <AssessorLabel assessor={review.assessor} level={review.assessor_level} />
              </Table.Td>
              <Table.Td>
                <RankingBadge ranking={review.ranking} moderated={review.moderated} />
              </Table.Td>
              <Table.Td>
                <Ratings review={review} />
              </Table.Td>
            </Table.Tr>
          ))}
          <TableStatusRows isLoading={isLoading} isEmpty={rows.length === 0} colSpan={COLUMNS.length} />
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
