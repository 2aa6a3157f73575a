import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocateModerations, type ModerationAllocationInput } from '../src/domain/moderation-allocation';

// Issue 14 item 2; DOMAIN.md "Moderation allocation"; spec §2.17, §3 "Allocation parameters (moderation)".

const world = fc
  .record({
    reviewers: fc.integer({ min: 1, max: 12 }),
    reviews: fc.array(fc.record({ reviewer: fc.nat(11), category: fc.option(fc.nat(4), { nil: null }), flagged: fc.boolean() }), {
      maxLength: 80,
    }),
    moderators: fc.array(fc.array(fc.option(fc.nat(4), { nil: null }), { maxLength: 2 }), { minLength: 0, maxLength: 12 }),
    perReview: fc.integer({ min: 1, max: 6 }),
    minSpotChecks: fc.integer({ min: 0, max: 5 }),
    seed: fc.integer(),
  })
  .map((w): ModerationAllocationInput => ({
    reviews: w.reviews.map((review, i) => ({
      id: i + 1,
      reviewer: 1000 + (review.reviewer % w.reviewers),
      category: review.category,
      flagged: review.flagged,
    })),
    // Moderator ids 2000+ never equal a reviewer; one test below makes a moderator a reviewer too.
    moderators: w.moderators.map((conflicts, i) => ({ id: 2000 + i, conflicts })),
    perReview: w.perReview,
    minSpotChecks: w.minSpotChecks,
    seed: w.seed,
  }));

function pairsOf(result: ReturnType<typeof allocateModerations>) {
  return [...result.reviewIds].map((review, i) => ({ review, moderator: result.moderatorIds[i]! }));
}

describe('moderation allocation (properties)', () => {
  it('never allocates a conflicted moderator, nor a moderator their own review, nor one moderator twice to a review', () => {
    fc.assert(
      fc.property(world, (input) => {
        const result = allocateModerations(input);
        const seen = new Set<string>();
        for (const { review, moderator } of pairsOf(result)) {
          const r = input.reviews[review - 1]!;
          const m = input.moderators.find((x) => x.id === moderator)!;
          expect(m.conflicts.includes(r.category)).toBe(false);
          expect(m.id).not.toBe(r.reviewer);
          expect(seen.has(`${review}/${moderator}`)).toBe(false);
          seen.add(`${review}/${moderator}`);
        }
      }),
    );
  });

  it('selects every flagged review and at least min(minimum, own reviews) per reviewer', () => {
    fc.assert(
      fc.property(world, (input) => {
        const selected = new Set(allocateModerations(input).selected);
        for (const review of input.reviews) if (review.flagged) expect(selected.has(review.id)).toBe(true);
        const own = new Map<number, number[]>();
        for (const review of input.reviews) own.set(review.reviewer, [...(own.get(review.reviewer) ?? []), review.id]);
        for (const ids of own.values())
          expect(ids.filter((id) => selected.has(id)).length).toBeGreaterThanOrEqual(Math.min(input.minSpotChecks, ids.length));
      }),
    );
  });

  it('gives each selected review perReview moderators, or every eligible one when fewer exist', () => {
    fc.assert(
      fc.property(world, (input) => {
        const result = allocateModerations(input);
        const count = new Map<number, number>();
        for (const { review } of pairsOf(result)) count.set(review, (count.get(review) ?? 0) + 1);
        for (const id of result.selected) {
          const review = input.reviews[id - 1]!;
          const eligible = input.moderators.filter((m) => !m.conflicts.includes(review.category) && m.id !== review.reviewer).length;
          expect(count.get(id) ?? 0).toBe(Math.min(input.perReview, eligible));
        }
      }),
    );
  });

  it('keeps the load spread across moderators ≤ 1 when no conflict binds', () => {
    fc.assert(
      fc.property(world, (input) => {
        const free = { ...input, moderators: input.moderators.map((m) => ({ ...m, conflicts: [] })) };
        const result = allocateModerations(free);
        if (result.perModerator.length === 0) return;
        expect(Math.max(...result.perModerator) - Math.min(...result.perModerator)).toBeLessThanOrEqual(1);
        expect(result.stats.per_moderator.max - result.stats.per_moderator.min).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('is deterministic for a seed', () => {
    fc.assert(
      fc.property(world, (input) => {
        const a = allocateModerations(input);
        const b = allocateModerations(structuredClone(input));
        expect(pairsOf(b)).toEqual(pairsOf(a));
        expect(b.selected).toEqual(a.selected);
      }),
    );
  });
});

describe('moderation allocation (examples)', () => {
  const reviews = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, reviewer: 100 + (i % 3), category: i % 2, flagged: i === 4 }));

  it('answers the statistics of spec §3 (tot, nr_of_moderators, per_reviewer, per_review, per_moderator)', () => {
    const moderators = Array.from({ length: 5 }, (_, i) => ({ id: 200 + i, conflicts: [] }));
    const result = allocateModerations({ reviews, moderators, perReview: 4, minSpotChecks: 3, seed: 42 });
    // reviewer 100 has the flagged review 5 and two spot checks; 101 and 102 three spot checks each
    expect(result.selected).toHaveLength(9);
    expect(result.spotChecks).toBe(8);
    expect(result.stats).toEqual({
      tot: 36,
      nr_of_moderators: 5,
      per_reviewer: { avg: 3, min: 3, max: 3 },
      per_review: { avg: 4, min: 4, max: 4 },
      per_moderator: { avg: 7.2, min: 7, max: 8 },
    });
  });

  it('gives fewer moderators than asked when fewer exist, and none to a review every moderator is conflicted on', () => {
    const moderators = [
      { id: 200, conflicts: [1] },
      { id: 201, conflicts: [1] },
    ];
    const result = allocateModerations({ reviews, moderators, perReview: 4, minSpotChecks: 30, seed: 1 });
    for (const { review, moderator } of pairsOf(result)) {
      expect(reviews[review - 1]!.category).toBe(0);
      expect([200, 201]).toContain(moderator);
    }
    expect(result.stats.per_review).toEqual({ avg: 1, min: 0, max: 2 });
  });

  it('changes with the seed', () => {
    const moderators = Array.from({ length: 6 }, (_, i) => ({ id: 200 + i, conflicts: [] }));
    const a = allocateModerations({ reviews, moderators, perReview: 2, minSpotChecks: 5, seed: 1 });
    const b = allocateModerations({ reviews, moderators, perReview: 2, minSpotChecks: 5, seed: 2 });
    expect(pairsOf(a)).not.toEqual(pairsOf(b));
  });
});
