import { useQuery } from '@tanstack/react-query';
import { useDeferredValue } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeading } from '../../../components/page-heading';
import { QueryPagination, usePageParam } from '../../../components/query-pagination';
import type { ProposalRow } from '@cr/contract/proposals';
import { PROPOSALS_PAGE_SIZE, proposalsPageQuery } from '../../../features/proposals/api/proposals';
import { ProposalsTable } from '../../../features/proposals/components/proposals-table';
import { TitleFilter, useTitleFilter } from '../../../features/proposals/components/title-filter';

const NO_ROWS: ProposalRow[] = [];

/** The proposals list (spec §2.11): the active rounds' proposals, 25 a page, filtered by title; open to visitors. */
export default function Proposals() {
  const { t } = useTranslation();
  const [page] = usePageParam();
  const filter = useTitleFilter();
  const { data, isLoading, isFetching, isPlaceholderData } = useQuery(
    proposalsPageQuery({ page, size: PROPOSALS_PAGE_SIZE, title: filter.title }),
  );
  // A page of rows renders in the background (time-sliced), not in one long task (issue 16: mobile blocking time);
  // until it is in, the list stays as it was: loading on the first page, the previous rows after.
  const rows = data?.data ?? NO_ROWS;
  const shownRows = useDeferredValue(rows);
  const isRendering = shownRows !== rows;
  return (
    <>
      <PageHeading title={t('proposals.title')}>{t('proposals.intro')}</PageHeading>
      <TitleFilter input={filter.input} setInput={filter.setInput} clear={filter.clear} />
      <ProposalsTable
        rows={shownRows}
        label={t('proposals.tableLabel')}
        isLoading={isLoading || (isRendering && shownRows.length === 0)}
        isFetching={(isFetching && isPlaceholderData) || (isRendering && shownRows.length > 0)}
      />
      <QueryPagination total={data?.page.total ?? 0} size={PROPOSALS_PAGE_SIZE} />
    </>
  );
}
