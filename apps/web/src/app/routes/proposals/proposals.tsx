import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../../components/page-heading';
import { QueryPagination, usePageParam } from '../../../components/query-pagination';
import { PROPOSALS_PAGE_SIZE, proposalsPageQuery } from '../../../features/proposals/api/proposals';
import { ProposalsTable } from '../../../features/proposals/components/proposals-table';
import { TitleFilter, useTitleFilter } from '../../../features/proposals/components/title-filter';

/** The proposals list (spec §2.11): the active rounds' proposals, 25 a page, filtered by title; open to visitors. */
export default function Proposals() {
  const { t } = useTranslation();
  const [page] = usePageParam();
  const filter = useTitleFilter();
  const { data, isLoading, isFetching, isPlaceholderData } = useQuery(
    proposalsPageQuery({ page, size: PROPOSALS_PAGE_SIZE, title: filter.title }),
  );
  return (
    <>
      <PageHeading title={t('proposals.title')}>{t('proposals.intro')}</PageHeading>
      <TitleFilter input={filter.input} setInput={filter.setInput} clear={filter.clear} />
      <ProposalsTable
        rows={data?.data ?? []}
        label={t('proposals.tableLabel')}
        isLoading={isLoading}
        isFetching={isFetching && isPlaceholderData}
      />
      <QueryPagination total={data?.page.total ?? 0} size={PROPOSALS_PAGE_SIZE} />
    </>
  );
}
