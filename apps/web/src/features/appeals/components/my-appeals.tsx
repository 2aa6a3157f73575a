import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TablePagination } from '../../../components/query-pagination';
import { paths } from '../../../config/paths';
import { APPEALS_PAGE_SIZE, allocatedAppealsQuery, myAppealsQuery } from '../api/appeals';
import { AppealsTable } from './appeals-table';

/** The profile's appeals (issue 28 item 2): the reviewer's own, each with its state and result, linking to the review. */
export function MyAppeals() {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const { data, isPending } = useQuery(myAppealsQuery(page));
  if (data && data.page.total === 0) return <Text size="sm">{t('appeals.mineEmpty')}</Text>;
  return (
    <>
      <AppealsTable
        rows={data?.data ?? []}
        isLoading={isPending}
        caption={t('appeals.mineCaption')}
        linkTo={(appeal) => paths.review(appeal.review_id)}
      />
      {data && data.page.total > APPEALS_PAGE_SIZE && (
        <TablePagination total={data.page.total} size={APPEALS_PAGE_SIZE} page={page} onChange={setPage} />
      )}
    </>
  );
}

/** The appeals allocated to the moderator (issue 28 item 2), each linking to its decision page. */
export function AllocatedAppeals() {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const { data, isPending } = useQuery(allocatedAppealsQuery(page));
  return (
    <>
      <AppealsTable
        rows={data?.data ?? []}
        isLoading={isPending}
        caption={t('appeals.allocatedCaption')}
        linkTo={(appeal) => paths.appeal(appeal.row_id)}
      />
      {data && data.page.total > APPEALS_PAGE_SIZE && (
        <TablePagination total={data.page.total} size={APPEALS_PAGE_SIZE} page={page} onChange={setPage} />
      )}
    </>
  );
}
