import { memo } from 'react';
import type { ReviewPublic } from '@cr/contract/reviews';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TableStatusRows } from '../../../components/table-status-rows';
import { ResponsiveList } from '../../../components/responsive-list';
import { REVIEWS_PAGE_SIZE } from '../api/keys';
import { ScrollTable } from '../../../components/scroll-table';
import { AssessorLabel, CELL_CLASS, LINK_CLASS, PlainTable, ROW_CLASS, textSize } from '../../../components/plain';
import { paths } from '../../../config/paths';
import { formatRating } from '../../../lib/format';
import { CRITERIA } from '../values';
import { RankingBadge } from './ranking-badge';

const COLUMNS = ['id', 'proposal', 'assessor', 'ranking', 'ratings'] as const;

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

const SMALL_LINK_STYLE = { ...textSize('sm'), fontWeight: 500 };

/** A review on a phone (issue 19): the proposal, the ranking and ratings, the assessor, and the link that opens it. */
function ReviewCard({ review }: { review: ReviewPublic }) {
  const { t } = useTranslation();
  return (
    <div className="plain-stack">
      <Link to={paths.proposal(review.proposal_id)} className={LINK_CLASS} style={{ fontWeight: 600 }}>
        {review.proposal.title}
      </Link>
      <div className="plain-row plain-row-between" style={{ flexWrap: 'wrap' }}>
        <RankingBadge ranking={review.ranking} moderated={review.moderated} />
        <AssessorLabel assessor={review.assessor} level={review.assessor_level} />
      </div>
      <Ratings review={review} />
      <Link to={paths.review(review.row_id)} className={LINK_CLASS} style={SMALL_LINK_STYLE}>
        {t('reviews.openReview', { id: review.row_id })}
      </Link>
    </div>
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
      table={(shown, filling) => <WideTable {...props} rows={shown} filling={filling} />}
      card={(review) => <ReviewCard review={review} />}
    />
  );
}

/** Rendered again only when its own props change, not on each of its page's renders (a page renders 5–7 times as its
 * queries settle; issue 30 item 5: mobile total blocking time). */
export const ReviewsTable = memo(ReviewsTableView);

/**
 * One review's row, memoised: a row already shown is not rendered again when its list renders (a new page, a
 * refetch that changed other rows).
 */
const ReviewTableRow = memo(function ReviewTableRow({ review }: { review: ReviewPublic }) {
  const { t } = useTranslation();
  return (
    <tr className={ROW_CLASS}>
      <td className={CELL_CLASS}>
        <Link to={paths.review(review.row_id)} className={LINK_CLASS} aria-label={t('reviews.openReview', { id: review.row_id })}>
          {review.row_id}
        </Link>
      </td>
      <td className={CELL_CLASS}>
        <Link to={paths.proposal(review.proposal_id)} className={LINK_CLASS} style={{ fontWeight: 500 }}>
          {review.proposal.title}
        </Link>
      </td>
      <td className={CELL_CLASS}>
        <AssessorLabel assessor={review.assessor} level={review.assessor_level} />
      </td>
      <td className={CELL_CLASS}>
        <RankingBadge ranking={review.ranking} moderated={review.moderated} />
      </td>
      <td className={CELL_CLASS}>
        <Ratings review={review} />
      </td>
    </tr>
  );
});

function WideTable({ rows, label, isLoading, isFetching = false, filling }: ReviewsTableProps & { filling: boolean }) {
  const { t } = useTranslation();
  return (
    <ScrollTable minWidth={760} label={label} stickyFirstColumn>
      <PlainTable aria-label={label} aria-busy={isLoading || isFetching || filling} style={{ opacity: isFetching && !isLoading ? 0.6 : 1 }}>
        <thead>
          <tr>
            {COLUMNS.map((name) => (
              <th key={name}>{t(`reviews.columns.${name}`)}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((review) => (
            <ReviewTableRow key={review.row_id} review={review} />
          ))}
          <TableStatusRows isLoading={isLoading} isEmpty={rows.length === 0} colSpan={COLUMNS.length} />
        </tbody>
      </PlainTable>
    </ScrollTable>
  );
}
