import { describe, expect, it } from 'vitest';
import { changesBetween, sideBySide } from './version-diff';

const content = (overrides = {}) => ({
  impact_alignment_rating_given: 4,
  impact_alignment_note: 'The plan is clear and the budget is itemised.',
  feasibility_rating_given: 3,
  feasibility_note: 'The team has shipped before.',
  auditability_rating_given: 5,
  auditability_note: 'Milestones can be checked.',
  ...overrides,
});

describe('issue 28 item 3: the side-by-side word diff of a note', () => {
  it('keeps the common words on both sides, the removed ones on the left and the added ones on the right', () => {
    const { before, after } = sideBySide('The plan is clear.', 'The plan is very clear.');
    expect(before.map((part) => part.text).join('')).toBe('The plan is clear.');
    expect(after.map((part) => part.text).join('')).toBe('The plan is very clear.');
    expect(before.some((part) => part.kind === 'added')).toBe(false);
    expect(after.filter((part) => part.kind === 'added').map((part) => part.text.trim())).toEqual(['very']);
  });

  it('marks a replaced word removed on the left and added on the right', () => {
    const { before, after } = sideBySide('a good plan', 'a weak plan');
    expect(before.filter((part) => part.kind === 'removed').map((part) => part.text)).toEqual(['good']);
    expect(after.filter((part) => part.kind === 'added').map((part) => part.text)).toEqual(['weak']);
  });

  it('lists only the criteria whose rating or note changed', () => {
    const changes = changesBetween(content(), content({ feasibility_rating_given: 2, auditability_note: 'Milestones cannot be checked.' }));
    expect(changes.map((change) => [change.criterion.key, change.rating, change.note !== null])).toEqual([
      ['feasibility', { before: 3, after: 2 }, false],
      ['auditability', null, true],
    ]);
    expect(changesBetween(content(), content())).toEqual([]);
  });
});
