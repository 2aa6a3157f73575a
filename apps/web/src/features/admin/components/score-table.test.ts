import type { ProposalScoreRow } from '@cr/contract/outcomes';
import { describe, expect, it } from 'vitest';
import { filterScoreRows, formatRate, formatScore, nextSort, scoreCell, SCORE_COLUMNS, sortScoreRows } from './score-table';

const row = (id: number, title: string, overall: number | null, reviews: number): ProposalScoreRow => ({
  proposal: { row_id: id, pr_id: `pr-${id}`, title },
  score_weighted_avg: overall === null ? null : { overall, impact: overall, feasibility: 5 - overall, value_for_money: 1 },
  nr_reviews: reviews,
  nr_allocated_reviews: reviews - 1,
  nr_included_reviews: reviews,
  nr_excluded_reviews: 0,
  nr_excluded_by_moderation_reviews: 0,
  nr_excluded_by_threshold_reviews: 0,
});

const rows = [row(1, 'Beta solar', 3.5, 4), row(2, 'alpha wind', null, 0), row(3, 'Gamma Solar', 4.25, 2), row(4, 'delta', 3.5, 10)];
const ids = (list: ProposalScoreRow[]) => list.map((item) => item.proposal.row_id);

describe('the scoring results table (G-015)', () => {
  it('reads every column of a row, a missing score as null', () => {
    expect(SCORE_COLUMNS.map((column) => scoreCell(rows[0]!, column))).toEqual(['pr-1', 'Beta solar', 3.5, 3.5, 1.5, 1, 4, 3, 4, 0, 0, 0]);
    expect(scoreCell(rows[1]!, 'overall')).toBeNull();
  });

  it('sorts numbers both ways, keeping ties in the given order and rows without a score last', () => {
    expect(ids(sortScoreRows(rows, { column: 'overall', direction: 'ascending' }))).toEqual([1, 4, 3, 2]);
    expect(ids(sortScoreRows(rows, { column: 'overall', direction: 'descending' }))).toEqual([3, 1, 4, 2]);
    expect(ids(sortScoreRows(rows, { column: 'nr_reviews', direction: 'descending' }))).toEqual([4, 1, 3, 2]);
    expect(ids(sortScoreRows(rows, { column: 'feasibility', direction: 'ascending' }))).toEqual([3, 1, 4, 2]);
  });

  it('sorts text ignoring case, and numbers inside text by value', () => {
    expect(ids(sortScoreRows(rows, { column: 'title', direction: 'ascending' }))).toEqual([2, 1, 4, 3]);
    expect(ids(sortScoreRows(rows, { column: 'title', direction: 'descending' }))).toEqual([3, 4, 1, 2]);
    const numbered = [row(10, 'x', 1, 1), row(9, 'y', 1, 1)];
    expect(ids(sortScoreRows(numbered, { column: 'pr_id', direction: 'ascending' }))).toEqual([9, 10]);
  });

  it('does not change the rows it was given', () => {
    const before = ids(rows);
    sortScoreRows(rows, { column: 'title', direction: 'descending' });
    expect(ids(rows)).toEqual(before);
  });

  it('filters by title, ignoring case and surrounding spaces; an empty filter keeps all', () => {
    expect(ids(filterScoreRows(rows, '  SOLAR '))).toEqual([1, 3]);
    expect(ids(filterScoreRows(rows, ''))).toEqual([1, 2, 3, 4]);
    expect(filterScoreRows(rows, 'pr-1')).toEqual([]);
  });

  it('turns the same column round; a new column starts ascending for text and descending for numbers', () => {
    expect(nextSort({ column: 'title', direction: 'ascending' }, 'title')).toEqual({ column: 'title', direction: 'descending' });
    expect(nextSort({ column: 'title', direction: 'descending' }, 'title')).toEqual({ column: 'title', direction: 'ascending' });
    expect(nextSort({ column: 'title', direction: 'ascending' }, 'overall')).toEqual({ column: 'overall', direction: 'descending' });
    expect(nextSort({ column: 'overall', direction: 'ascending' }, 'pr_id')).toEqual({ column: 'pr_id', direction: 'ascending' });
  });

  it('shows scores to 2 decimals and rates as percents', () => {
    expect(formatScore(2.8333)).toBe('2.83');
    expect(formatScore(3)).toBe('3.00');
    expect(formatScore(null)).toBe('–');
    expect(formatRate(0.5)).toBe('50.00%');
    expect(formatRate(0)).toBe('0.00%');
  });
});
