import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../../components/page-heading';
import { QueryPagination, usePageParam } from '../../../components/query-pagination';
import { allocatedReviewsQuery, moderatedReviewsQuery } from '../../../features/moderation/api/get-moderation-lists';
import { MODERATION_PAGE_SIZE } from '../../../features/moderation/api/keys';
import { ModerationReviewsTable } from '../../../features/moderation/components/moderation-reviews-table';

/** No rows while loading: one array, so that the memoised table does not render again for a new empty one. */
const NO_ROWS: never[] = [];

/**
 * The reviews the moderator has moderated (spec §2.14, F-002, F-006, F-010), with 'moderated of allocated' totals;
 * the allocated total comes from `proposal-reviews/allocated/` with size 1 (F-009). Until both totals are known the
 * line says it is loading: '0 moderated of 0 allocated' would be a wrong figure (issue 26 item 16).
 */
export default function ModeratedReviews() {
  const { t } = useTranslation();
  const [page] = usePageParam();
  const { data, isLoading } = useQuery(moderatedReviewsQuery(page, MODERATION_PAGE_SIZE));
  const { data: allocated } = useQuery(allocatedReviewsQuery(0, 1));
  const totalsKnown = data !== undefined && allocated !== undefined;
  return (
    <>
      <PageHeading title={t('moderation.moderatedTitle')}>{t('moderation.moderatedIntro')}</PageHeading>
      <Text data-testid="moderation-totals" mb="sm" aria-busy={!totalsKnown}>
        {totalsKnown ? t('moderation.totals', { moderated: data.page.total, allocated: allocated.page.total }) : t('common.loading')}
      </Text>
      <ModerationReviewsTable rows={data?.data ?? NO_ROWS} label={t('moderation.moderatedTitle')} isLoading={isLoading} />
      <QueryPagination total={data?.page.total ?? 0} size={MODERATION_PAGE_SIZE} />
    </>
  );
}
