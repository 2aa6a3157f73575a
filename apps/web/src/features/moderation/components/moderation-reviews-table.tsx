import { rankingLabel } from '@cr/contract/plain';
import { memo } from 'react';
import { Button, Checkbox } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import type { ReviewPublic } from '@cr/contract/reviews';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TableStatusRows } from '../../../components/table-status-rows';
import {
  AssessorLabel,
  PlainBadge,
  PlainGroup,
  PlainStack,
  PlainTable,
  PlainTextSm,
  CELL_CLASS,
  ROW_CLASS,
} from '../../../components/plain';
import { ResponsiveList } from '../../../components/responsive-list';
import { MODERATION_PAGE_SIZE } from '../api/keys';
import { ScrollTable } from '../../../components/scroll-table';
import { paths } from '../../../config/paths';
import { formatRating } from '../../../lib/format';

const COLUMNS = ['id', 'proposal', 'assessor', 'ranking', 'ratings', 'flagged', 'open'] as const;
const RATINGS = [
  ['impact_alignment', 'impact_alignment_rating_given'],
  ['feasibility', 'feasibility_rating_given'],
  ['auditability', 'auditability_rating_given'],
] as const;
const RANKING_COLORS = {
  pending: 'gray',
  pending_moderation: 'yellow',
  included: 'green',
  excluded_moderation: 'red',
  excluded_threshold: 'orange',
} as const;

function Ranking({ review }: { review: ReviewPublic }) {
  const { t } = useTranslation();
  const ranking = rankingLabel(review.ranking, review.moderated);
  return (
    <PlainBadge color={RANKING_COLORS[ranking]} variant="light" size="sm" style={{ textTransform: 'none', minWidth: 'max-content' }}>
      {t(`reviews.ranking.${ranking}`)}
    </PlainBadge>
  );
}

function Ratings({ review, inline = false }: { review: ReviewPublic; inline?: boolean }) {
  const { t } = useTranslation();
  return (
    <div
      className={inline ? 'plain-row' : 'plain-stack'}
      style={inline ? { flexWrap: 'wrap', gap: 'var(--mantine-spacing-sm)' } : { gap: 0 }}
    >
      {RATINGS.map(([key, field]) => (
        <p key={key} className="plain-text-sm" style={{ whiteSpace: 'nowrap' }}>
          <span className="plain-text-xs plain-dimmed">{t(`reviews.short.${key}`)}</span>{' '}
          {t('moderation.outOf5', { value: formatRating(review[field]) })}
        </p>
      ))}
    </div>
  );
}

function Flagged({ review }: { review: ReviewPublic }) {
  const { t } = useTranslation();
  return (
    <Checkbox
      checked={review.flags.length > 0}
      readOnly
      aria-label={t('moderation.flaggedLabel', { id: review.row_id })}
      data-testid="flag-checkbox"
    />
  );
}

function OpenButton({ review }: { review: ReviewPublic }) {
  const { t } = useTranslation();
  return (
    <Button
      component={Link}
      to={paths.review(review.row_id)}
      size="xs"
      variant="light"
      rightSection={<IconArrowRight size={14} aria-hidden />}
      aria-label={t('moderation.openReview', { id: review.row_id })}
    >
      {t('moderation.open')}
    </Button>
  );
}

/** The reviewed proposal's title and objective. */
function ProposalTitle({ review, weight }: { review: ReviewPublic; weight: number }) {
  return (
    <PlainStack gap={2} style={{ minWidth: 0 }}>
      <PlainTextSm style={{ fontWeight: weight }}>{review.proposal.title}</PlainTextSm>
      {review.proposal.objective_title && <p className="plain-text-xs plain-dimmed">{review.proposal.objective_title}</p>}
    </PlainStack>
  );
}

/**
 * A review to moderate on a phone (issue 19): proposal, ranking, ratings, assessor, flag, and the button that opens it.
 * Plain elements (components/plain.tsx), but for the checkbox and the button.
 */
function ModerationCard({ review }: { review: ReviewPublic }) {
  const { t } = useTranslation();
  return (
    <PlainStack gap={6} data-testid="moderation-row">
      <PlainGroup justify="space-between" wrap="nowrap" align="flex-start">
        <ProposalTitle review={review} weight={600} />
        <p className="plain-text-xs plain-dimmed" style={{ whiteSpace: 'nowrap' }}>
          {t('moderation.columns.id')} {review.row_id}
        </p>
      </PlainGroup>
      <PlainGroup gap="xs" justify="space-between">
        <Ranking review={review} />
        <AssessorLabel assessor={review.assessor} level={review.assessor_level} />
      </PlainGroup>
      <Ratings review={review} inline />
      <PlainGroup justify="space-between">
        <PlainGroup gap={6}>
          <Flagged review={review} />
          <PlainTextSm aria-hidden>{t('moderation.columns.flagged')}</PlainTextSm>
        </PlainGroup>
        <OpenButton review={review} />
      </PlainGroup>
    </PlainStack>
  );
}

interface ModerationReviewsTableProps {
  rows: ReviewPublic[];
  label: string;
  isLoading: boolean;
}

/**
 * The moderator's lists (spec §2.14, F-004, F-005): id, proposal title and objective, assessor with level, a ranking
 * tag, three ratings out of 5, a flag checkbox (checked when the review has flags) and an open-review button; a card
 * a review on phones.
 */
function ModerationReviewsTableView(props: ModerationReviewsTableProps) {
  return (
    <ResponsiveList
      rows={props.rows}
      label={props.label}
      isLoading={props.isLoading}
      reserveRows={MODERATION_PAGE_SIZE}
      rowKey={(review) => review.row_id}
      table={(shown, filling) => <WideTable {...props} rows={shown} filling={filling} />}
      card={(review) => <ModerationCard review={review} />}
    />
  );
}

/** Rendered again only when its own props change, not on each of its page's renders (a page renders 5–7 times as its
 * queries settle; issue 30 item 5: mobile total blocking time). */
export const ModerationReviewsTable = memo(ModerationReviewsTableView);

/**
 * One review's row, memoised: a row already shown is not rendered again when its list renders (a new page, a
 * refetch that changed other rows).
 */
const ModerationTableRow = memo(function ModerationTableRow({ review }: { review: ReviewPublic }) {
  return (
    <tr className={ROW_CLASS} data-testid="moderation-row">
      <td className={CELL_CLASS}>{review.row_id}</td>
      <td className={CELL_CLASS}>
        <ProposalTitle review={review} weight={500} />
      </td>
      <td className={CELL_CLASS}>
        <AssessorLabel assessor={review.assessor} level={review.assessor_level} />
      </td>
      <td className={CELL_CLASS}>
        <Ranking review={review} />
      </td>
      <td className={CELL_CLASS}>
        <Ratings review={review} />
      </td>
      <td className={CELL_CLASS}>
        <Flagged review={review} />
      </td>
      <td className={CELL_CLASS}>
        <OpenButton review={review} />
      </td>
    </tr>
  );
});

function WideTable({ rows, label, isLoading, filling }: ModerationReviewsTableProps & { filling: boolean }) {
  const { t } = useTranslation();
  return (
    <ScrollTable minWidth={860} label={label} stickyFirstColumn>
      <PlainTable aria-label={label} aria-busy={isLoading || filling}>
        <thead>
          <tr>
            {COLUMNS.map((name) => (
              <th key={name}>{t(`moderation.columns.${name}`)}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((review) => (
            <ModerationTableRow key={review.row_id} review={review} />
          ))}
          <TableStatusRows isLoading={isLoading} isEmpty={rows.length === 0} colSpan={COLUMNS.length} />
        </tbody>
      </PlainTable>
    </ScrollTable>
  );
}
