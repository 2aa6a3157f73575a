import { canReview } from '@cr/contract/plain';
import { Anchor, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeading } from '../../../components/page-heading';
import { QueryPagination, usePageParam } from '../../../components/query-pagination';
import { paths } from '../../../config/paths';
import { useCurrentEvents } from '../../../features/events/api/events';
import { PROPOSALS_PAGE_SIZE, allocatedProposalsQuery } from '../../../features/proposals/api/proposals';
import { ReviewFilePanel } from '../../../features/reviews/components/review-file-panel';
import { ProposalsTable } from '../../../features/proposals/components/proposals-table';
import { useSession } from '../../../lib/session';
import { OfflineCopyStatus, useOfflineCopy } from './offline-copy';

/** No rows while loading: one array, so that the memoised table does not render again for a new empty one. */
const NO_ROWS: never[] = [];

/**
 * The 'reviewed' column (spec §2.11, D-010): for a logged-in user who can review some current event, while the
 * stage is review_open.
 */
function useShowReviewed(): { showReviewed: boolean; settled: boolean } {
  const user = useSession((state) => (state.logged ? state.userInfo : null));
  const { events, stage, settled } = useCurrentEvents();
  return { showReviewed: !!user && stage === 'review_open' && events.some(({ event }) => canReview(user, event.row_id)), settled };
}

function AllocatedTable() {
  const { t } = useTranslation();
  const [page] = usePageParam();
  const { showReviewed, settled } = useShowReviewed();
  const { data, isLoading, isFetching, isPlaceholderData } = useQuery(allocatedProposalsQuery(page, PROPOSALS_PAGE_SIZE));
  const userId = useSession((state) => (state.logged ? (state.userInfo?.catalyst_id.id ?? null) : null));
  // Offline reading (issue 29 item 1, issue 45 item 1): the whole allocation is kept on the device, and this says so.
  const offline = useOfflineCopy(userId);
  // The rows wait for the round's stage: a 'reviewed' column added under rows already shown narrowed the titles and
  // moved every row (layout shift 0.06–0.11, issue 30 item 5).
  return (
    <>
      <ProposalsTable
        rows={settled ? (data?.data ?? NO_ROWS) : NO_ROWS}
        label={t('proposals.allocatedTableLabel')}
        isLoading={isLoading || !settled}
        isFetching={isFetching && isPlaceholderData}
        showReviewed={showReviewed}
      />
      <QueryPagination total={data?.page.total ?? 0} size={PROPOSALS_PAGE_SIZE} />
      {/* Below the list, so that it moves nothing as it appears. */}
      {offline.state && settled && (data?.page.total ?? 0) > 0 && <OfflineCopyStatus state={offline.state} online={offline.online} />}
    </>
  );
}

/** The viewer's allocated proposals (spec §2.1, D-015, D-016); a visitor is asked to log in. Loaded lazily. */
export default function AllocatedProposals() {
  const { t } = useTranslation();
  const logged = useSession((state) => state.logged);
  return (
    <>
      <PageHeading title={t('proposals.allocatedTitle')}>{logged ? t('proposals.allocatedIntro') : undefined}</PageHeading>
      {logged ? (
        <>
          <ReviewFilePanel />
          <AllocatedTable />
        </>
      ) : (
        <Text>
          <Trans i18nKey="proposals.loginRequired" components={{ login: <Anchor component={Link} to={paths.login()} /> }} />
        </Text>
      )}
    </>
  );
}
