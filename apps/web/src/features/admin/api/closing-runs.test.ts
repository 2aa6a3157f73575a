import { describe, expect, it } from 'vitest';
import { CSV_EXPORTS, csvExportPath } from './closing-runs';

describe('the CSV exports of spec §7 "Exports"', () => {
  it('uses the reference paths: reviews (G-025), full reviews (G-026), moderations (G-027), moderator stats (G-028)', () => {
    expect(CSV_EXPORTS.map((which) => csvExportPath(which, 7))).toEqual([
      { path: 'proposal-reviews/export/csv/7/' },
      { path: 'proposal-reviews/export/full-csv/7' },
      { path: 'moderations/export/csv', query: { event_id: 7 } },
      { path: 'moderations/moderator-stats/', query: { event_id: 7 } },
    ]);
  });
});
