import { Group, Pagination, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pageOfSearch } from '../lib/page-param';
import { useSearchParams } from 'react-router';

/** Default page size of a table without its own (spec §9); every named list passes 25. */
export const TABLE_PAGE_SIZE = 20;

/** How many pages `total` rows fill, `size` a page (20 for a table without its own size, A-140); at least one. */
export const pageCount = (total: number, size: number = TABLE_PAGE_SIZE) => Math.max(1, Math.ceil(total / size));

/** The page number in the query, 0-based (spec §2.1). */
export function usePageParam(): [number, (page: number) => void] {
  const [params, setParams] = useSearchParams();
  const page = pageOfSearch(params);
  const setPage = (next: number) =>
    setParams((current) => {
      const copy = new URLSearchParams(current);
      if (next > 0) copy.set('page', String(next));
      else copy.delete('page');
      return copy;
    });
  return [page, setPage];
}

/**
 * A table's page controls, 'Page N of M' and the page buttons; `page` is 0-based, shown 1-based. `size` defaults to
 * the spec's 20 for a table without a page size of its own.
 */
export function TablePagination({
  total,
  size = TABLE_PAGE_SIZE,
  page,
  onChange,
}: {
  total: number;
  size?: number;
  page: number;
  onChange: (page: number) => void;
}) {
  const { t } = useTranslation();
  const pages = pageCount(total, size);
  return (
    <Group justify="space-between" mt="md">
      <Text size="sm" c="dimmed">
        {t('common.page', { page: page + 1, pages })}
      </Text>
      <Pagination
        total={pages}
        value={page + 1}
        onChange={(value) => onChange(value - 1)}
        getControlProps={(control) => ({ 'aria-label': `${control}` })}
      />
    </Group>
  );
}

/** Pagination kept in the query string: 0-based there, shown 1-based. */
export function QueryPagination({ total, size = TABLE_PAGE_SIZE }: { total: number; size?: number }) {
  const [page, setPage] = usePageParam();
  return <TablePagination total={total} size={size} page={page} onChange={setPage} />;
}

/** Rows paged in the browser, 20 a page by default; a page past the end (the rows shrank) shows the last one. */
export function usePagedRows<T>(rows: readonly T[], size = TABLE_PAGE_SIZE) {
  const [wanted, setPage] = useState(0);
  const page = Math.min(wanted, pageCount(rows.length, size) - 1);
  return { page, setPage, rows: rows.slice(page * size, (page + 1) * size) };
}
