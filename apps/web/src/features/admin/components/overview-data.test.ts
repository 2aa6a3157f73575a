import { describe, expect, it } from 'vitest';
import { dailySeries, percent } from './overview-data';

// Issue 15 item 5: the reviews-per-day chart stands on a true day axis that reaches the review window's ends.

describe('dailySeries', () => {
  it('fills the days between the reviews and the window’s ends with zeros', () => {
    const series = dailySeries(
      [
        { day: '2026-01-03', count: 2 },
        { day: '2026-01-05', count: 1 },
      ],
      { starts_at: '2026-01-02T08:00:00Z', ends_at: '2026-01-06T23:00:00+00:00' },
    );
    expect(series).toEqual([
      { day: '2026-01-02', count: 0 },
      { day: '2026-01-03', count: 2 },
      { day: '2026-01-04', count: 0 },
      { day: '2026-01-05', count: 1 },
      { day: '2026-01-06', count: 0 },
    ]);
  });

  it('keeps to the reviews’ days when the window is too long, and to the review days alone past that', () => {
    const days = [
      { day: '2026-01-01', count: 1 },
      { day: '2026-01-02', count: 1 },
    ];
    expect(dailySeries(days, { starts_at: '2020-01-01T00:00:00Z', ends_at: null }, 10)).toEqual(days);
    const sparse = [
      { day: '2025-01-01', count: 1 },
      { day: '2026-01-01', count: 3 },
    ];
    expect(dailySeries(sparse, { starts_at: null, ends_at: null }, 10)).toEqual(sparse);
    expect(dailySeries([], { starts_at: null, ends_at: null })).toEqual([]);
  });

  it('percent is 0 of nothing and rounds to a whole number', () => {
    expect(percent(0, 0)).toBe(0);
    expect(percent(2, 3)).toBe(67);
  });
});
