import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocateProposals, NO_CATEGORY, type AllocationInput, type AllocationReviewer } from '../src/domain/proposal-allocation';
import { createPrng, shuffleInPlace } from '../src/domain/prng';

/** Pairs of an allocation grouped by reviewer. */
function byReviewer(result: ReturnType<typeof allocateProposals>) {
  const map = new Map<number, number[]>();
  for (let i = 0; i < result.reviewerIds.length; i += 1) {
    const list = map.get(result.reviewerIds[i]!) ?? [];
    list.push(result.proposalIds[i]!);
    map.set(result.reviewerIds[i]!, list);
  }
  return map;
}

const spread = (result: ReturnType<typeof allocateProposals>) => result.stats.per_proposal.max - result.stats.per_proposal.min;

/** Random but valid inputs: categories 1..C, proposals in them (some without), reviewers with preferences and conflicts. */
const inputs = (options: { preferences?: boolean; conflicts?: boolean; scope?: boolean } = {}) =>
  fc
    .record({
      categories: fc.integer({ min: 1, max: 6 }),
      proposals: fc.integer({ min: 0, max: 60 }),
      uncategorised: fc.integer({ min: 0, max: 3 }),
      reviewers: fc.array(
        fc.record({
          level: fc.constantFrom(0 as const, 1 as const),
          preferred: fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 2 }),
          conflicts: fc.array(fc.integer({ min: -1, max: 6 }), { maxLength: 2 }),
        }),
        { maxLength: 40 },
      ),
      quotaLv0: fc.integer({ min: 0, max: 12 }),
      quotaLv1: fc.integer({ min: 1, max: 20 }),
      scope: fc.array(fc.integer({ min: 1, max: 6 }), { maxLength: 3 }),
      seed: fc.integer({ min: 1, max: 1_000_000 }),
    })
    .map((raw): AllocationInput => {
      const proposals = [
        ...Array.from({ length: raw.proposals }, (_, i) => ({ id: 100 + i, category: (i % raw.categories) + 1 })),
        ...Array.from({ length: raw.uncategorised }, (_, i) => ({ id: 900 + i, category: null })),
      ];
      const reviewers: AllocationReviewer[] = raw.reviewers.map((reviewer, i) => ({
        id: i + 1,
        level: reviewer.level,
        preferred: options.preferences === false ? [] : reviewer.preferred,
        conflicts: options.conflicts === false ? [] : reviewer.conflicts.map((c) => (c <= 0 ? NO_CATEGORY : c)),
      }));
      return {
        proposals,
        reviewers,
        quotaLv0: raw.quotaLv0,
        quotaLv1: raw.quotaLv1,
        categories: options.scope === false ? [] : raw.scope,
        seed: raw.seed,
      };
    });

function eligibleOf(input: AllocationInput, reviewer: AllocationReviewer) {
  const scope = new Set(input.categories);
  const conflicts = new Set(reviewer.conflicts);
  return input.proposals.filter(
    (p) => (scope.size === 0 || (p.category !== null && scope.has(p.category))) && !conflicts.has(p.category ?? NO_CATEGORY),
  );
}

describe('proposal allocation (domain)', () => {
  it('gives every reviewer min(quota, eligible) distinct proposals, in scope, never with a conflict of interest', () => {
    fc.assert(
      fc.property(inputs(), (input) => {
        const result = allocateProposals(input);
        const allocated = byReviewer(result);
        const category = new Map(input.proposals.map((p) => [p.id, p.category]));
        for (const reviewer of input.reviewers) {
          const mine = allocated.get(reviewer.id) ?? [];
          const eligible = new Set(eligibleOf(input, reviewer).map((p) => p.id));
          const quota = reviewer.level === 0 ? input.quotaLv0 : input.quotaLv1;
          expect(mine.length).toBe(Math.min(quota, eligible.size));
          expect(new Set(mine).size).toBe(mine.length);
          for (const id of mine) {
            expect(eligible.has(id)).toBe(true);
            expect(reviewer.conflicts).not.toContain(category.get(id) ?? NO_CATEGORY);
          }
        }
        expect(result.stats.tot).toBe(result.reviewerIds.length);
      }),
      { numRuns: 300 },
    );
  });

  it('serves an LV1 reviewer from their preferred categories first', () => {
    fc.assert(
      fc.property(inputs(), (input) => {
        const allocated = byReviewer(allocateProposals(input));
        const category = new Map(input.proposals.map((p) => [p.id, p.category]));
        for (const reviewer of input.reviewers.filter((r) => r.level === 1 && r.preferred.length > 0)) {
          const preferred = new Set(reviewer.preferred);
          const eligiblePreferred = eligibleOf(input, reviewer).filter((p) => p.category !== null && preferred.has(p.category)).length;
          const got = (allocated.get(reviewer.id) ?? []).filter((id) => preferred.has(category.get(id) ?? NO_CATEGORY)).length;
          expect(got).toBe(Math.min(input.quotaLv1, eligiblePreferred));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the spread of allocations per proposal ≤ 1 when neither conflicts nor preferences bind', () => {
    fc.assert(
      fc.property(inputs({ preferences: false, conflicts: false, scope: false }), (input) => {
        expect(spread(allocateProposals(input))).toBeLessThanOrEqual(1);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the spread ≤ 1 with a few conflicts among many flexible reviewers', () => {
    const proposals = Array.from({ length: 200 }, (_, i) => ({ id: i + 1, category: (i % 5) + 1 }));
    const reviewers: AllocationReviewer[] = Array.from({ length: 300 }, (_, i) => ({
      id: i + 1,
      level: 0,
      preferred: [],
      conflicts: i % 30 === 0 ? [(i % 5) + 1] : [],
    }));
    const result = allocateProposals({ proposals, reviewers, quotaLv0: 20, quotaLv1: 60, categories: [], seed: 7 });
    expect(result.stats.tot).toBe(300 * 20);
    expect(spread(result)).toBeLessThanOrEqual(1);
    expect(result.stats.per_proposal).toEqual({ avg: 30, min: 30, max: 30 });
  });

  it('gives the same allocation for the same seed, whatever the input order, and another for another seed', () => {
    fc.assert(
      fc.property(inputs(), (input) => {
        const first = allocateProposals(input);
        const prng = createPrng(99);
        const reordered = {
          ...input,
          proposals: shuffleInPlace([...input.proposals], prng),
          reviewers: shuffleInPlace([...input.reviewers], prng),
        };
        const second = allocateProposals(reordered);
        expect(Array.from(second.reviewerIds)).toEqual(Array.from(first.reviewerIds));
        expect(Array.from(second.proposalIds)).toEqual(Array.from(first.proposalIds));
      }),
      { numRuns: 100 },
    );
    const proposals = Array.from({ length: 50 }, (_, i) => ({ id: i + 1, category: (i % 3) + 1 }));
    const reviewers: AllocationReviewer[] = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, level: 0, preferred: [], conflicts: [] }));
    const a = allocateProposals({ proposals, reviewers, quotaLv0: 5, quotaLv1: 5, categories: [], seed: 1 });
    const b = allocateProposals({ proposals, reviewers, quotaLv0: 5, quotaLv1: 5, categories: [], seed: 2 });
    expect(Array.from(a.proposalIds)).not.toEqual(Array.from(b.proposalIds));
  });

  it('handles infeasible inputs: fewer proposals than a quota, no reviewers, no proposals, a scope with nothing in it', () => {
    const proposals = [
      { id: 1, category: 1 },
      { id: 2, category: 1 },
      { id: 3, category: 2 },
    ];
    const reviewers: AllocationReviewer[] = [
      { id: 10, level: 0, preferred: [], conflicts: [] },
      { id: 11, level: 1, preferred: [2], conflicts: [1] },
    ];
    const few = allocateProposals({ proposals, reviewers, quotaLv0: 30, quotaLv1: 80, categories: [], seed: 1 });
    expect(byReviewer(few).get(10)?.sort()).toEqual([1, 2, 3]);
    expect(byReviewer(few).get(11)).toEqual([3]);
    expect(few.stats).toEqual({
      tot: 4,
      nr_of_reviewers: { tot: 2, lv0: 1, lv1: 1 },
      per_reviewer: { avg: 2, min: 1, max: 3 },
      per_proposal: { avg: 1.33, min: 1, max: 2 },
    });

    const empty = { avg: 0, min: 0, max: 0 };
    expect(allocateProposals({ proposals, reviewers: [], quotaLv0: 5, quotaLv1: 5, categories: [], seed: 1 }).stats).toEqual({
      tot: 0,
      nr_of_reviewers: { tot: 0, lv0: 0, lv1: 0 },
      per_reviewer: empty,
      per_proposal: { avg: 0, min: 0, max: 0 },
    });
    expect(allocateProposals({ proposals: [], reviewers, quotaLv0: 5, quotaLv1: 5, categories: [], seed: 1 }).stats).toEqual({
      tot: 0,
      nr_of_reviewers: { tot: 2, lv0: 1, lv1: 1 },
      per_reviewer: empty,
      per_proposal: empty,
    });
    expect(allocateProposals({ proposals, reviewers, quotaLv0: 5, quotaLv1: 5, categories: [42], seed: 1 }).stats.tot).toBe(0);
  });

  it('leaves uncategorised proposals out of a category scope, and keeps an author of one away from the others', () => {
    const proposals = [
      { id: 1, category: null },
      { id: 2, category: null },
      { id: 3, category: 5 },
    ];
    const scoped = allocateProposals({
      proposals,
      reviewers: [{ id: 1, level: 0, preferred: [], conflicts: [] }],
      quotaLv0: 3,
      quotaLv1: 3,
      categories: [5],
      seed: 3,
    });
    expect(Array.from(scoped.proposalIds)).toEqual([3]);
    const author = allocateProposals({
      proposals,
      reviewers: [{ id: 1, level: 0, preferred: [], conflicts: [NO_CATEGORY] }],
      quotaLv0: 3,
      quotaLv1: 3,
      categories: [],
      seed: 3,
    });
    expect(Array.from(author.proposalIds)).toEqual([3]);
  });
});
