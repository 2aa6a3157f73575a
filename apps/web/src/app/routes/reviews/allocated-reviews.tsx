import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../../components/page-heading';
import { QueryPagination, usePageParam } from '../../../components/query-pagination';
import { allocatedReviewsQuery } from '../../../features/moderation/api/get-moderation-lists';
import { MODERATION_PAGE_SIZE } from '../../../features/moderation/api/keys';
import { ModerationReviewsTable } from '../../../features/moderation/components/moderation-reviews-table';

/** No rows while loading: one array, so that the memoised table does not render again for a new empty one. */
const NO_ROWS: never[] = [];

/** The reviews allocated to the moderator (spec §2.14, F-002, F-004, F-007, F-008): 25 a page. */
export default function AllocatedReviews() {
  const { t } = useTranslation();
  const [page] = usePageParam();
  const { data, isLoading } = useQuery(allocatedReviewsQuery(page, MODERATION_PAGE_SIZE));
  return (
    <>
      <PageHeading title={t('moderation.allocatedTitle')}>{t('moderation.allocatedIntro')}</PageHeading>
      <ModerationReviewsTable rows={data?.data ?? NO_ROWS} label={t('moderation.allocatedTitle')} isLoading={isLoading} />
      <QueryPagination total={data?.page.total ?? 0} size={MODERATION_PAGE_SIZE} />
    </>
  );
}
