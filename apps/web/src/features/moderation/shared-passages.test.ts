import { describe, expect, it } from 'vitest';
import { sharedPassages, sharedShare } from './shared-passages';
import { flagGroups, formatPercent } from './flag-groups';

describe('sharedPassages (issue 14 item 5)', () => {
  it('marks the runs of three words both notes hold, ignoring case and punctuation, and keeps the text whole', () => {
    const text = 'The team has a clear plan. Budget is fine.';
    const segments = sharedPassages(text, 'Honestly, the team has a clear plan, I think');
    expect(segments.map((segment) => segment.text).join('')).toBe(text);
    expect(segments.filter((segment) => segment.shared).map((segment) => segment.text.trim())).toEqual(['The team has a clear plan.']);
  });
  it('marks nothing when fewer than three words in a row are shared', () => {
    expect(sharedPassages('alpha beta gamma', 'alpha beta delta').every((segment) => !segment.shared)).toBe(true);
    expect(sharedShare('', 'x')).toBe(0);
  });
});

describe('flagGroups (spec §2.15, F-040, F-041)', () => {
  it('groups by type and first related review, scores the mean, shows two decimals', () => {
    const groups = flagGroups([
      { flag_type: 1, score: 0.9, related_reviews: [7, 8], related_criteria: ['impact_note', 'feasibility_note'] },
      { flag_type: 1, score: 0.8, related_reviews: [7], related_criteria: ['auditability_note'] },
      { flag_type: 1, score: 0.85, related_reviews: [9], related_criteria: ['impact_note'] },
      { flag_type: 0, score: 1, related_reviews: [], related_criteria: null },
    ]);
    expect(groups).toHaveLength(3);
    expect(groups[0]).toMatchObject({ flagType: 1, firstRelated: 7 });
    expect(groups[0]?.score).toBeCloseTo(0.85);
    expect(groups[0]?.related).toEqual([
      { reviewId: 7, criterion: 'impact_note' },
      { reviewId: 8, criterion: 'feasibility_note' },
      { reviewId: 7, criterion: 'auditability_note' },
    ]);
    expect(formatPercent(0.85)).toBe('85.00%');
    expect(formatPercent(0.12345)).toBe('12.35%');
  });
});
