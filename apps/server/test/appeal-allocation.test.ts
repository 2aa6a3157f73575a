import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocateAppeals, appealOutcome, isEligibleForAppeal, type AppealAllocationInput } from '../src/domain/appeal-allocation';

// Issue 28 item 2: the appeals' allocation to fresh moderators and the majority rule.

const world = fc
  .record({
    appeals: fc.array(
      fc.record({
        reviewer: fc.nat(30),
        category: fc.option(fc.nat(4), { nil: null }),
        excluded: fc.array(fc.nat(11), { maxLength: 4 }),
      }),
      { maxLength: 40 },
    ),
    moderators: fc.array(fc.array(fc.option(fc.nat(4), { nil: null }), { maxLength: 2 }), { maxLength: 12 }),
    perAppeal: fc.integer({ min: 1, max: 5 }),
    seed: fc.integer(),
    // One moderator is also a reviewer (its own review's appeal must never reach it).
    moderatorReviews: fc.boolean(),
  })
  .map((w): AppealAllocationInput => ({
    appeals: w.appeals.map((appeal, i) => ({
      id: i + 1,
      reviewer: w.moderatorReviews && appeal.reviewer === 0 ? 2000 : 1000 + appeal.reviewer,
      category: appeal.category,
      excluded: appeal.excluded.map((m) => 2000 + m),
    })),
    moderators: w.moderators.map((conflicts, i) => ({ id: 2000 + i, conflicts })),
    perAppeal: w.perAppeal,
    seed: w.seed,
  }));

const pairsOf = (result: ReturnType<typeof allocateAppeals>) =>
  result.appealIds.map((appeal, i) => ({ appeal, moderator: result.moderatorIds[i]! }));

describe('appeal allocation (properties)', () => {
  it('never allocates a conflicted moderator, the author, one who moderated or was allocated the review, nor one twice', () => {
    fc.assert(
      fc.property(world, (input) => {
        const seen = new Set<string>();
        for (const { appeal, moderator } of pairsOf(allocateAppeals(input))) {
          const a = input.appeals[appeal - 1]!;
          const m = input.moderators.find((x) => x.id === moderator)!;
          expect(m.conflicts.includes(a.category)).toBe(false);
          expect(m.id).not.toBe(a.reviewer);
          expect(a.excluded).not.toContain(m.id);
          expect(seen.has(`${appeal}/${moderator}`)).toBe(false);
          seen.add(`${appeal}/${moderator}`);
        }
      }),
    );
  });

  it('gives each appeal perAppeal moderators, or every eligible one when fewer exist (those are reported short)', () => {
    fc.assert(
      fc.property(world, (input) => {
        const result = allocateAppeals(input);
        input.appeals.forEach((appeal, i) => {
          const eligible = input.moderators.filter((m) => isEligibleForAppeal(appeal, m)).length;
          expect(result.perAppeal[i]).toBe(Math.min(input.perAppeal, eligible));
          expect(result.short.includes(appeal.id)).toBe(eligible < input.perAppeal);
        });
      }),
    );
  });

  it('keeps the load spread across moderators ≤ 1 when no exclusion binds', () => {
    fc.assert(
      fc.property(world, (input) => {
        const free = {
          ...input,
          appeals: input.appeals.map((a) => ({ ...a, reviewer: 1, excluded: [] })),
          moderators: input.moderators.map((m) => ({ ...m, conflicts: [] })),
        };
        const { perModerator } = allocateAppeals(free);
        if (perModerator.length === 0) return;
        expect(Math.max(...perModerator) - Math.min(...perModerator)).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('is deterministic for a seed', () => {
    fc.assert(
      fc.property(world, (input) => {
        expect(pairsOf(allocateAppeals(structuredClone(input)))).toEqual(pairsOf(allocateAppeals(input)));
      }),
    );
  });

  it('changes with the seed', () => {
    const appeals = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, reviewer: 1, category: null, excluded: [] }));
    const moderators = Array.from({ length: 9 }, (_, i) => ({ id: 100 + i, conflicts: [] }));
    const a = allocateAppeals({ appeals, moderators, perAppeal: 3, seed: 1 });
    const b = allocateAppeals({ appeals, moderators, perAppeal: 3, seed: 2 });
    expect(pairsOf(a)).not.toEqual(pairsOf(b));
  });
});

describe('appeal majority rule', () => {
  it('with an odd N: upheld when more than N/2 uphold, rejected when more than N/2 reject, never a tie', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 }).map((k) => 2 * k + 1),
        fc.nat(21),
        fc.nat(21),
        (needed, a, b) => {
          const upholds = Math.min(a, needed);
          const rejects = Math.min(b, needed - upholds);
          const outcome = appealOutcome(needed, upholds, rejects);
          expect(outcome === 'upheld').toBe(upholds > needed / 2);
          expect(outcome === 'rejected').toBe(rejects > needed / 2);
          // All decisions in: always decided.
          if (upholds + rejects === needed) expect(outcome).not.toBe('pending');
        },
      ),
    );
  });

  it('with an even N a tie rejects (overturning an exclusion needs a majority)', () => {
    expect(appealOutcome(2, 1, 1)).toBe('rejected');
    expect(appealOutcome(4, 2, 2)).toBe('rejected');
    expect(appealOutcome(4, 2, 1)).toBe('pending');
    expect(appealOutcome(4, 3, 0)).toBe('upheld');
  });

  it('examples with N = 3', () => {
    expect(appealOutcome(3, 0, 0)).toBe('pending');
    expect(appealOutcome(3, 1, 1)).toBe('pending');
    expect(appealOutcome(3, 2, 0)).toBe('upheld');
    expect(appealOutcome(3, 2, 1)).toBe('upheld');
    expect(appealOutcome(3, 0, 2)).toBe('rejected');
    expect(appealOutcome(3, 1, 2)).toBe('rejected');
    expect(appealOutcome(0, 0, 0)).toBe('pending');
  });
});
