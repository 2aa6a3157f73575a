import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { topUpModerations, type TopUpInput } from '../src/domain/moderation-top-up';

// Issue 28 item 1: the coverage top-up's pure rule (apps/server/src/domain/moderation-top-up.ts).

const MODERATOR_BASE = 2000;

const world = fc
  .record({
    moderators: fc.array(fc.record({ conflicts: fc.array(fc.option(fc.nat(4), { nil: null }), { maxLength: 2 }), unfinished: fc.nat(5) }), {
      maxLength: 14,
    }),
    reviews: fc.array(
      fc.record({
        // A writer id below MODERATOR_BASE is a plain reviewer; some reviews are written by one of the moderators.
        writer: fc.oneof(
          fc.nat(20),
          fc.nat(13).map((n) => MODERATOR_BASE + n),
        ),
        category: fc.option(fc.nat(4), { nil: null }),
        excluded: fc.uniqueArray(fc.nat(13), { maxLength: 6 }),
        need: fc.nat(5),
      }),
      { maxLength: 60 },
    ),
    seed: fc.integer(),
  })
  .map((w): TopUpInput => ({
    moderators: w.moderators.map((m, i) => ({ id: MODERATOR_BASE + i, conflicts: m.conflicts, unfinished: m.unfinished })),
    reviews: w.reviews.map((r, i) => ({
      id: i + 1,
      reviewer: r.writer,
      category: r.category,
      excluded: r.excluded.map((n) => MODERATOR_BASE + n),
      need: r.need,
    })),
    seed: w.seed,
  }));

const pairsOf = (result: ReturnType<typeof topUpModerations>) =>
  [...result.reviewIds].map((review, i) => ({ review, moderator: result.moderatorIds[i]! }));

function isEligible(input: TopUpInput, reviewId: number, moderatorId: number) {
  const review = input.reviews[reviewId - 1]!;
  const moderator = input.moderators.find((m) => m.id === moderatorId)!;
  return !moderator.conflicts.includes(review.category) && moderator.id !== review.reviewer && !review.excluded.includes(moderator.id);
}

describe('moderation top-up (properties, issue 28 item 1)', () => {
  it('never gives a review to a conflicted moderator, its writer, one already allocated to it or who moderated it', () => {
    fc.assert(
      fc.property(world, (input) => {
        for (const { review, moderator } of pairsOf(topUpModerations(input))) expect(isEligible(input, review, moderator)).toBe(true);
      }),
    );
  });

  it('never gives one moderator the same review twice, and never more than the review needs', () => {
    fc.assert(
      fc.property(world, (input) => {
        const result = topUpModerations(input);
        const seen = new Set<string>();
        const perReview = new Map<number, number>();
        for (const { review, moderator } of pairsOf(result)) {
          expect(seen.has(`${review}/${moderator}`)).toBe(false);
          seen.add(`${review}/${moderator}`);
          perReview.set(review, (perReview.get(review) ?? 0) + 1);
        }
        for (const review of input.reviews) {
          const eligible = input.moderators.filter((m) => isEligible(input, review.id, m.id)).length;
          // As many as it needs, or every eligible moderator when fewer exist.
          expect(perReview.get(review.id) ?? 0).toBe(Math.min(review.need, eligible));
        }
        expect(result.stats.tot).toBe(result.reviewIds.length);
        expect(result.stats.needed).toBe(input.reviews.reduce((sum, review) => sum + review.need, 0));
      }),
    );
  });

  it('keeps the spread of new loads ≤ 1 among the moderators eligible for every review', () => {
    fc.assert(
      fc.property(world, (input) => {
        const result = topUpModerations(input);
        const needy = input.reviews.filter((review) => review.need > 0);
        const everywhere = input.moderators
          .map((moderator, index) => ({ moderator, index }))
          .filter(({ moderator }) => needy.every((review) => isEligible(input, review.id, moderator.id)));
        if (everywhere.length === 0) return;
        const loads = everywhere.map(({ index }) => result.perModerator[index]!);
        expect(Math.max(...loads) - Math.min(...loads)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('keeps the spread ≤ 1 over the whole pool when no conflict or earlier allocation binds', () => {
    fc.assert(
      fc.property(world, (input) => {
        const free: TopUpInput = {
          ...input,
          moderators: input.moderators.map((m) => ({ ...m, conflicts: [] })),
          reviews: input.reviews.map((r) => ({ ...r, excluded: [], reviewer: 1 })),
        };
        const result = topUpModerations(free);
        if (result.perModerator.length === 0) return;
        expect(Math.max(...result.perModerator) - Math.min(...result.perModerator)).toBeLessThanOrEqual(1);
        expect(result.stats.per_moderator.max - result.stats.per_moderator.min).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('is deterministic for a seed', () => {
    fc.assert(
      fc.property(world, (input) => {
        const a = topUpModerations(input);
        const b = topUpModerations(structuredClone(input));
        expect(pairsOf(b)).toEqual(pairsOf(a));
        expect([...b.perModerator]).toEqual([...a.perModerator]);
      }),
    );
  });
});

describe('moderation top-up (examples)', () => {
  const moderators = Array.from({ length: 6 }, (_, i) => ({ id: 100 + i, conflicts: [] as number[], unfinished: 0 }));

  it('prefers, among equal loads, the moderators with the fewest unfinished allocations', () => {
    const busy = moderators.map((m, i) => ({ ...m, unfinished: i < 3 ? 5 : 0 }));
    const reviews = [{ id: 1, reviewer: 1, category: 0, excluded: [], need: 3 }];
    const result = topUpModerations({ reviews, moderators: busy, seed: 7 });
    expect([...result.moderatorIds].sort()).toEqual([103, 104, 105]);
  });

  it('counts the reviews it could not fill when too few moderators are eligible', () => {
    const reviews = [
      { id: 1, reviewer: 1, category: 0, excluded: [100, 101, 102, 103], need: 3 },
      { id: 2, reviewer: 1, category: 0, excluded: [], need: 2 },
    ];
    const result = topUpModerations({ reviews, moderators, seed: 1 });
    expect(result.stats).toMatchObject({ reviews: 2, needed: 5, tot: 4, reviews_unfilled: 1, nr_of_moderators: 6 });
  });

  it('changes with the seed', () => {
    const reviews = Array.from({ length: 10 }, (_, i) => ({ id: i + 1, reviewer: 1, category: 0, excluded: [], need: 1 }));
    const a = topUpModerations({ reviews, moderators, seed: 1 });
    const b = topUpModerations({ reviews, moderators, seed: 2 });
    expect(pairsOf(a)).not.toEqual(pairsOf(b));
  });
});
