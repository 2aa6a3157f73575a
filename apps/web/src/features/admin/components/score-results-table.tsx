import { Stack, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import type { ProposalScoreRow, ScoreResult } from '@cr/contract/outcomes';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TablePagination, usePagedRows } from '../../../components/query-pagination';
import { ScrollTable } from '../../../components/scroll-table';
import {
  filterScoreRows,
  formatScore,
  isScoreColumn,
  nextSort,
  SCORE_COLUMNS,
  scoreCell,
  sortScoreRows,
  type ScoreColumn,
  type ScoreSort,
} from './score-table';

/**
 * The scoring result (spec §3 "Score parameters", G-015): every field of every proposal, sortable by any column (a
 * click on its header; again turns it round) and filterable by title. A table without a page size of its own: 20
 * rows a page (spec §9, A-140); a new sort or filter starts again at the first page.
 */
export function ScoreResultsTable({ rows }: { rows: ScoreResult }) {
  const { t } = useTranslation();
  const [sort, setSort] = useState<ScoreSort>({ column: 'overall', direction: 'descending' });
  const [filter, setFilter] = useState('');
  const shown = useMemo(() => sortScoreRows(filterScoreRows(rows, filter), sort), [rows, filter, sort]);
  const paged = usePagedRows(shown);
  const cell = (row: ProposalScoreRow, column: ScoreColumn) => {
    const value = scoreCell(row, column);
    return isScoreColumn(column) ? formatScore(value as number | null) : value;
  };
  return (
    <Stack gap="sm">
      <TextInput
        label={t('adminRuns.scoring.filter')}
        value={filter}
        onChange={(event) => {
          setFilter(event.currentTarget.value);
          paged.setPage(0);
        }}
        maw={360}
      />
      <Text size="sm" role="status">
        {t('adminRuns.scoring.shown', { n: shown.length, total: rows.length })}
      </Text>
      <ScrollTable minWidth={1100} label={t('adminRuns.scoring.tableCaption')}>
        <Table withTableBorder striped captionSide="top" fz="sm">
          <Table.Caption>{t('adminRuns.scoring.tableCaption')}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              {SCORE_COLUMNS.map((column) => {
                const active = sort.column === column;
                const Icon = !active ? IconArrowsSort : sort.direction === 'ascending' ? IconArrowUp : IconArrowDown;
                return (
                  <Table.Th key={column} scope="col" aria-sort={active ? sort.direction : undefined}>
                    <UnstyledButton
                      onClick={() => {
                        setSort(nextSort(sort, column));
                        paged.setPage(0);
                      }}
                      style={{ display: 'inline-flex', alignItems: 'center', gap: 4, fontWeight: 700, fontSize: 'inherit' }}
                    >
                      {t(`adminRuns.scoring.columns.${column}`)}
                      <Icon size={14} aria-hidden />
                    </UnstyledButton>
                  </Table.Th>
                );
              })}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={SCORE_COLUMNS.length}>{t('errors.noItems')}</Table.Td>
              </Table.Tr>
            ) : (
              paged.rows.map((row) => (
                <Table.Tr key={row.proposal.row_id}>
                  {SCORE_COLUMNS.map((column) =>
                    column === 'title' ? (
                      <Table.Th key={column} scope="row" fw={400}>
                        {row.proposal.title}
                      </Table.Th>
                    ) : (
                      <Table.Td key={column}>{cell(row, column)}</Table.Td>
                    ),
                  )}
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </ScrollTable>
      <TablePagination total={shown.length} page={paged.page} onChange={paged.setPage} />
    </Stack>
  );
}
