import { describe, expect, it } from 'vitest';
import { writeFilter, filterDefaults } from './filters';
import { askChange, settlePending } from './pending-query';

// Issue 26 item 15 (E-027, E-029): changes to different filters compose, whatever the timing of their navigations.
const defaults = filterDefaults({ stage: 'review_open', submissionOrModerationOpen: true, canReviewCurrent: false, anonymousIds: [] });
const typedId = (base: URLSearchParams) => writeFilter(base, 'proposalId', '12', defaults);
const rankings = (base: URLSearchParams) => writeFilter(base, 'rankings', [0, 1], defaults);
const title = (base: URLSearchParams) => writeFilter(base, 'proposal', 'wallet', defaults);

describe('filter changes asked for before the page shows the last one (issue 26 item 15)', () => {
  it('builds a rankings change on a typed id whose navigation has not landed yet', () => {
    const first = askChange(null, 'assessors=a', typedId);
    expect(first.next.toString()).toBe('assessors=a&proposal_id=12');
    // The page still shows the old query string when Rankings changes.
    const second = askChange(first.pending, 'assessors=a', rankings);
    expect(second.next.getAll('rankings')).toEqual(['0', '1']);
    expect(second.next.get('proposal_id')).toBe('12');
    expect(second.next.get('assessors')).toBe('a');
  });

  it('keeps both of two typed filters settling in one render (both asked while the same query string is shown)', () => {
    const first = askChange(null, '', typedId);
    const second = askChange(first.pending, '', title);
    expect(second.next.toString()).toBe('proposal_id=12&proposal=wallet');
  });

  it('starts from the query string shown once everything asked for has landed', () => {
    const first = askChange(null, '', typedId);
    expect(settlePending(first.pending, 'proposal_id=12')).toBeNull();
    const second = askChange(first.pending, 'proposal_id=12&page=2', rankings);
    // 'page=2' is not one of ours: another navigation took over, and the change builds on what it shows.
    expect(second.pending.asked).toEqual([second.next.toString()]);
    expect(second.next.get('proposal_id')).toBe('12');
  });

  it('keeps the newer changes on their way when an older one lands first', () => {
    const first = askChange(null, '', typedId);
    const second = askChange(first.pending, '', rankings);
    const settled = settlePending(second.pending, first.next.toString());
    expect(settled).toEqual({ from: first.next.toString(), asked: [second.next.toString()] });
    const third = askChange(second.pending, first.next.toString(), title);
    expect(readAll(third.next)).toEqual({ proposal_id: ['12'], rankings: ['0', '1'], proposal: ['wallet'] });
  });

  it('gives way to a navigation it did not ask for (going back): the next change builds on what is shown', () => {
    const first = askChange(null, 'rankings=1', typedId);
    expect(settlePending(first.pending, 'rankings=2')).toBeNull();
    const next = askChange(first.pending, 'rankings=2', title);
    expect(next.next.toString()).toBe('rankings=2&proposal=wallet');
  });
});

function readAll(params: URLSearchParams) {
  return Object.fromEntries([...new Set(params.keys())].map((key) => [key, params.getAll(key)]));
}
