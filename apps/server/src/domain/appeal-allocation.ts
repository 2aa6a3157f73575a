import { NO_OBJECTIVE } from './rules';
import { createPrng, shuffleInPlace } from './prng';

/**
 * Appeals (issue 28 item 2): who decides an appeal of an excluded review, and when an appeal is decided.
 *
 * Allocation: each appeal gets the distinct fresh moderators it still needs (`need`, else `perAppeal`; fewer only when
 * fewer are eligible).
 * Eligible for an appeal: a moderator of the event (the caller passes the active LV2 ones) who is not the review's
 * author, has no conflict of interest in the review's objective (the moderation allocation's rule), and neither
 * moderated the review nor was allocated to moderate it. Each pick takes a least-loaded eligible moderator, the most
 * constrained appeals first, so the spread of loads (max − min) is ≤ 1 wherever the exclusions don't bind. All random
 * choices come from a PRNG seeded with the run's seed: the same inputs give the same allocation.
 *
 * Cost: O(appeals × moderators × perAppeal); appeals are few (a fraction of the excluded reviews).
 */

export interface AppealToAllocate {
  id: number;
  /** The review's author (user id). */
  reviewer: number;
  /** The objective of the review's proposal, or null. */
  category: number | null;
  /**
   * Moderators (user ids) who moderated the review or were allocated to it, or were allocated to the appeal before:
   * never fresh for it.
   */
  excluded: readonly number[];
  /** How many more moderators it needs (a later run tops up a short appeal); `perAppeal` when not given. */
  need?: number;
}

export interface AppealModerator {
  /** User id. */
  id: number;
  /** Objectives in which the moderator authored a proposal (conflict of interest); null for an uncategorised one. */
  conflicts: readonly (number | null)[];
}

export interface AppealAllocationInput {
  appeals: readonly AppealToAllocate[];
  moderators: readonly AppealModerator[];
  perAppeal: number;
  seed: number;
}

export interface AppealAllocationResult {
  /** Pair i is (appealIds[i], moderatorIds[i]). */
  appealIds: number[];
  moderatorIds: number[];
  /** Allocations per moderator (input order) and per appeal (input order). */
  perModerator: Int32Array;
  perAppeal: Int32Array;
  /** Appeals that got fewer moderators than they need (none eligible → 0: they stay open for a later run). */
  short: number[];
}

const categoryKey = (category: number | null) => category ?? NO_OBJECTIVE;

/** Whether moderator `m` may decide `appeal`. */
export function isEligibleForAppeal(appeal: AppealToAllocate, moderator: AppealModerator): boolean {
  if (moderator.id === appeal.reviewer || appeal.excluded.includes(moderator.id)) return false;
  const category = categoryKey(appeal.category);
  return !moderator.conflicts.some((conflict) => categoryKey(conflict) === category);
}

export function allocateAppeals(input: AppealAllocationInput): AppealAllocationResult {
  const prng = createPrng(input.seed);
  const moderatorCount = input.moderators.length;
  const targets = input.appeals.map((appeal) => Math.max(0, Math.floor(appeal.need ?? input.perAppeal)));
  const eligible = input.appeals.map((appeal) => input.moderators.map((moderator) => isEligibleForAppeal(appeal, moderator)));
  const eligibleCount = eligible.map((row) => row.filter(Boolean).length);

  // Most constrained first; ties in a seeded random order.
  const order = shuffleInPlace(
    input.appeals.map((_, index) => index),
    prng,
  );
  const rank = new Map(order.map((index, position) => [index, position]));
  order.sort((a, b) => eligibleCount[a]! - eligibleCount[b]! || rank.get(a)! - rank.get(b)!);

  const loads = new Int32Array(moderatorCount);
  const perAppeal = new Int32Array(input.appeals.length);
  const appealIds: number[] = [];
  const moderatorIds: number[] = [];
  for (const index of order) {
    const chosen = new Set<number>();
    for (let round = 0; round < targets[index]!; round += 1) {
      // The scan starts at a random moderator so that equal loads are broken at random (deterministically).
      const start = moderatorCount ? prng.below(moderatorCount) : 0;
      let best = -1;
      for (let step = 0; step < moderatorCount; step += 1) {
        const m = (start + step) % moderatorCount;
        if (!eligible[index]![m] || chosen.has(m)) continue;
        if (best < 0 || loads[m]! < loads[best]!) best = m;
      }
      if (best < 0) break;
      chosen.add(best);
      loads[best] = loads[best]! + 1;
      appealIds.push(input.appeals[index]!.id);
      moderatorIds.push(input.moderators[best]!.id);
    }
    perAppeal[index] = chosen.size;
  }
  return {
    appealIds,
    moderatorIds,
    perModerator: loads,
    perAppeal,
    short: input.appeals.filter((_, index) => perAppeal[index]! < targets[index]!).map((appeal) => appeal.id),
  };
}

export type AppealOutcome = 'upheld' | 'rejected' | 'pending';

/**
 * The majority rule: of `needed` decisions (N, the appeal's setting; only decisions of moderators still in the pool
 * are counted), the appeal is upheld as soon as more than N/2 uphold it, rejected as soon as it can no longer be
 * (rejects ≥ N/2), else pending. With an odd N (the setting's rule) a tie cannot happen; with an even N (an appeal
 * migrated from before N was kept) a tie rejects: overturning an exclusion needs a majority, and without one the
 * exclusion stands. N = 0 is pending.
 */
export function appealOutcome(needed: number, upholds: number, rejects: number): AppealOutcome {
  if (needed <= 0) return 'pending';
  if (upholds * 2 > needed) return 'upheld';
  if (rejects * 2 >= needed) return 'rejected';
  return 'pending';
}
