import type { ProposalScoreRow } from '@cr/contract/outcomes';

/**
 * The scoring result's table (spec §3 "Score parameters", G-015): one column per field of a row, sortable by any
 * column and filterable by title. Pure, so the order and the filter are unit-tested.
 */
export const SCORE_COLUMNS = [
  'pr_id',
  'title',
  'overall',
  'impact',
  'feasibility',
  'value_for_money',
  'nr_reviews',
  'nr_allocated_reviews',
  'nr_included_reviews',
  'nr_excluded_reviews',
  'nr_excluded_by_moderation_reviews',
  'nr_excluded_by_threshold_reviews',
] as const;
export type ScoreColumn = (typeof SCORE_COLUMNS)[number];
export type SortDirection = 'ascending' | 'descending';
export interface ScoreSort {
  column: ScoreColumn;
  direction: SortDirection;
}

const SCORE_FIELDS = new Set<ScoreColumn>(['overall', 'impact', 'feasibility', 'value_for_money']);
export const isScoreColumn = (column: ScoreColumn) => SCORE_FIELDS.has(column);

/** A row's value in a column; a proposal without an included review has no score (null). */
export function scoreCell(row: ProposalScoreRow, column: ScoreColumn): string | number | null {
  switch (column) {
    case 'pr_id':
    case 'title':
      return row.proposal[column];
    case 'overall':
    case 'impact':
    case 'feasibility':
    case 'value_for_money':
      return row.score_weighted_avg?.[column] ?? null;
    default:
      return row[column];
  }
}

const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** Rows in the column's order; rows without a value (no score) always come last; ties keep the server's order. */
export function sortScoreRows(rows: readonly ProposalScoreRow[], sort: ScoreSort): ProposalScoreRow[] {
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index, value: scoreCell(row, sort.column) }))
    .sort((a, b) => {
      if (a.value === null || b.value === null) {
        if (a.value === b.value) return a.index - b.index;
        return a.value === null ? 1 : -1;
      }
      const order =
        typeof a.value === 'number' && typeof b.value === 'number' ? a.value - b.value : collator.compare(String(a.value), String(b.value));
      return order === 0 ? a.index - b.index : sign * order;
    })
    .map(({ row }) => row);
}

/** Rows whose title holds the text, ignoring case and surrounding spaces; an empty text keeps every row. */
export function filterScoreRows(rows: readonly ProposalScoreRow[], text: string): ProposalScoreRow[] {
  const needle = text.trim().toLocaleLowerCase();
  if (!needle) return [...rows];
  return rows.filter((row) => row.proposal.title.toLocaleLowerCase().includes(needle));
}

/** A click on a column's header: the same column turns round, another starts ascending (text) or descending (numbers). */
export function nextSort(current: ScoreSort, column: ScoreColumn): ScoreSort {
  if (current.column === column) return { column, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
  return { column, direction: column === 'pr_id' || column === 'title' ? 'ascending' : 'descending' };
}

/** Score numbers to 2 decimals (spec §9); no score shows as a dash. */
export const formatScore = (value: number | null) => (value === null ? '–' : value.toFixed(2));

/** A rate from 0 to 1 as a percent with two decimals. */
export const formatRate = (rate: number) => `${(rate * 100).toFixed(2)}%`;
