import { describe, expect, it } from 'vitest';
import { clearFilters, filterDefaults, hasFilters, readFilters, toRequestQuery, writeFilter } from './filters';

const visitor = filterDefaults({ stage: 'review_open', submissionOrModerationOpen: true, canReviewCurrent: false, anonymousIds: [] });
const reviewer = filterDefaults({
  stage: 'review_open',
  submissionOrModerationOpen: true,
  canReviewCurrent: true,
  anonymousIds: ['anon-1'],
});
const q = (text: string) => new URLSearchParams(text);

describe('reviews-list defaults (spec §2.13)', () => {
  it('turns my_reviews on, locked, with the reviewer’s anonymous ids in the review-open stage (E-030, E-031)', () => {
    expect(reviewer).toMatchObject({ myReviews: true, myReviewsLocked: true, myReviewsAllowed: true, assessors: ['anon-1'] });
    expect(readFilters(q('my_reviews=false'), reviewer).myReviews).toBe(true);
  });

  it('lets only a reviewer of a current event use my_reviews (E-032)', () => {
    expect(visitor).toMatchObject({ myReviews: false, myReviewsAllowed: false, assessors: [] });
    expect(readFilters(q('my_reviews=true'), visitor).myReviews).toBe(false);
    const subscriptionOpen = filterDefaults({
      stage: 'subscription_open',
      submissionOrModerationOpen: false,
      canReviewCurrent: true,
      anonymousIds: ['a'],
    });
    expect(subscriptionOpen).toMatchObject({ myReviews: false, myReviewsLocked: false, myReviewsAllowed: true, assessors: [] });
    expect(readFilters(q('my_reviews=true'), subscriptionOpen).myReviews).toBe(true);
  });

  it('defaults rankings to pending while submission or moderation is open, else to included (E-033, E-034)', () => {
    expect(visitor.rankings).toEqual([0]);
    expect(
      filterDefaults({ stage: 'inactive', submissionOrModerationOpen: false, canReviewCurrent: false, anonymousIds: [] }).rankings,
    ).toEqual([1]);
  });
});

describe('reviews-list filters in the query string (E-027, E-028)', () => {
  it('reads every filter, ignoring malformed values', () => {
    const filters = readFilters(
      q(
        'proposal_id=12&include_pending=true&proposal=%20wallet%20&objective=3&assessors=a&assessors=b&assessors=a&rankings=1&rankings=2&rankings=9',
      ),
      visitor,
    );
    expect(filters).toEqual({
      proposalId: '12',
      includePending: true,
      proposal: 'wallet',
      objective: '3',
      myReviews: false,
      assessors: ['a', 'b'],
      rankings: [1, 2],
    });
    expect(readFilters(q('proposal_id=x&objective=-1'), visitor)).toMatchObject({ proposalId: '', objective: '' });
  });

  it('keeps an emptied list with a default as an empty key, and drops a value equal to its default', () => {
    const emptied = writeFilter(q('page=3'), 'rankings', [], visitor);
    expect(emptied.toString()).toBe('rankings=');
    expect(readFilters(emptied, visitor).rankings).toEqual([]);
    expect(writeFilter(q('rankings=1'), 'rankings', [0], visitor).toString()).toBe('');
    expect(writeFilter(q(''), 'rankings', [1, 2], visitor).getAll('rankings')).toEqual(['1', '2']);
    expect(writeFilter(q('proposal=x'), 'proposal', '  ', visitor).toString()).toBe('');
  });

  it('clears every filter and the page, keeping other keys', () => {
    const cleared = clearFilters(q('proposal=x&rankings=&page=2&other=1'));
    expect(cleared.toString()).toBe('other=1');
    expect(hasFilters(cleared)).toBe(false);
    expect(hasFilters(q('rankings='))).toBe(true);
  });
});

describe('the request (spec §7, E-036)', () => {
  it('sends only set filters, arrays as arrays', () => {
    expect(toRequestQuery(readFilters(q(''), visitor))).toEqual({ rankings: [0] });
    expect(toRequestQuery(readFilters(q(''), reviewer))).toEqual({ my_reviews: true, assessors: ['anon-1'], rankings: [0] });
    expect(toRequestQuery(readFilters(q('proposal_id=4&objective=2&include_pending=true&rankings='), visitor))).toEqual({
      proposal_id: 4,
      objective: 2,
      include_pending: true,
    });
  });
});
