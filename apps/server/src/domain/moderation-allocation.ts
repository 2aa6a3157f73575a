import { NO_OBJECTIVE } from './rules';
import { createPrng, shuffleInPlace } from './prng';
import { averages, type Averages } from './stats';

/**
 * Moderation allocation (DOMAIN.md "Moderation allocation", spec §2.17, §3 "Allocation parameters (moderation)").
 *
 * 1. Selection: every flagged review, plus random spot checks so that each reviewer has at least
 *    min(minimum, their submitted reviews) reviews selected.
 * 2. Assignment: each selected review gets `perReview` distinct moderators (fewer only when fewer are eligible),
 *    never one with a conflict of interest (an author in the review's objective, or the review's own author), each
 *    pick taking a least-loaded eligible moderator. The most constrained reviews go first, so the free ones level
 *    the loads out after them: the spread of loads (max − min) is ≤ 1 wherever conflicts don't bind.
 * All random choices come from a PRNG seeded with the moderation seed: the same inputs give the same allocation.
 *
 * Cost: O(selected × moderators) comparisons over typed arrays (100,000 × 500 in a few seconds). No database here.
 */

export interface ModerationReview {
  id: number;
  /** The reviewer (user id) who wrote it: their reviews are spot-checked together. */
  reviewer: number;
  /** The objective (category) of the review's proposal, or null. */
  category: number | null;
  flagged: boolean;
}

export interface ModerationModerator {
  /** The moderator's user id. */
  id: number;
  /** Categories in which the moderator authored a proposal (conflict of interest); null for an uncategorised one. */
  conflicts: readonly (number | null)[];
}

export interface ModerationAllocationInput {
  reviews: readonly ModerationReview[];
  moderators: readonly ModerationModerator[];
  perReview: number;
  minSpotChecks: number;
  seed: number;
}

/** Spec §3 result of the moderation allocation. */
export interface ModerationAllocationStats {
  tot: number;
  nr_of_moderators: number;
  per_reviewer: Averages;
  per_review: Averages;
  per_moderator: Averages;
}

export interface ModerationAllocationResult {
  /** Pair i is (reviewIds[i], moderatorIds[i]). */
  reviewIds: Int32Array;
  moderatorIds: Int32Array;
  /** The selected reviews, flagged first then spot checks, each once. */
  selected: number[];
  spotChecks: number;
  stats: ModerationAllocationStats;
  /** Allocations per moderator (in input order) and per selected review, for the histograms. */
  perModerator: Int32Array;
  perReview: Int32Array;
}

const NO_CATEGORY = NO_OBJECTIVE;
const categoryKey = (category: number | null) => category ?? NO_CATEGORY;

/** Step 1: flagged ∪ spot checks; returns indexes into `reviews`, and how many are spot checks. */
function selectReviews(input: ModerationAllocationInput, prng: ReturnType<typeof createPrng>) {
  const byReviewer = new Map<number, number[]>();
  input.reviews.forEach((review, index) => {
    const list = byReviewer.get(review.reviewer);
    if (list) list.push(index);
    else byReviewer.set(review.reviewer, [index]);
  });
  const selected: number[] = [];
  let spotChecks = 0;
  input.reviews.forEach((review, index) => {
    if (review.flagged) selected.push(index);
  });
  const reviewers = [...byReviewer.keys()].sort((a, b) => a - b);
  for (const reviewer of reviewers) {
    const own = byReviewer.get(reviewer)!;
    const flagged = own.filter((index) => input.reviews[index]!.flagged).length;
    const need = Math.min(input.minSpotChecks, own.length) - flagged;
    if (need <= 0) continue;
    const candidates = shuffleInPlace(
      own.filter((index) => !input.reviews[index]!.flagged).sort((a, b) => input.reviews[a]!.id - input.reviews[b]!.id),
      prng,
    );
    selected.push(...candidates.slice(0, need));
    spotChecks += need;
  }
  return { selected, spotChecks };
}

export function allocateModerations(input: ModerationAllocationInput): ModerationAllocationResult {
  const prng = createPrng(input.seed);
  const { selected, spotChecks } = selectReviews(input, prng);
  const moderatorCount = input.moderators.length;
  const perReviewTarget = Math.max(0, Math.floor(input.perReview));

  // Conflicts as sets of category keys; a moderator never moderates their own review either.
  const conflictSets = input.moderators.map((moderator) => new Set(moderator.conflicts.map(categoryKey)));
  const eligibleCount = new Map<number, number>();
  const eligibleIn = (category: number) => {
    let count = eligibleCount.get(category);
    if (count === undefined) {
      count = conflictSets.filter((set) => !set.has(category)).length;
      eligibleCount.set(category, count);
    }
    return count;
  };

  // Most constrained first (fewest eligible moderators); ties in a seeded random order.
  const order = shuffleInPlace([...selected], prng);
  const rank = new Map(order.map((index, position) => [index, position]));
  order.sort(
    (a, b) =>
      eligibleIn(categoryKey(input.reviews[a]!.category)) - eligibleIn(categoryKey(input.reviews[b]!.category)) ||
      rank.get(a)! - rank.get(b)!,
  );

  const loads = new Int32Array(moderatorCount);
  // How many moderators carry each load, and the lowest load: a scan may stop at a moderator with that load.
  const atLoad: number[] = [moderatorCount];
  let minLoad = 0;
  const reviewIds: number[] = [];
  const moderatorIds: number[] = [];
  const perReview = new Int32Array(selected.length);
  const selectedPosition = new Map(selected.map((index, position) => [index, position]));
  const chosen = new Int32Array(Math.max(perReviewTarget, 1));

  for (const index of order) {
    const review = input.reviews[index]!;
    const category = categoryKey(review.category);
    let picked = 0;
    // Pick the least-loaded eligible moderator, perReview times; the scan starts at a random moderator so that
    // equal loads are broken at random (deterministically for the seed).
    for (let round = 0; round < perReviewTarget; round += 1) {
      const start = moderatorCount ? prng.below(moderatorCount) : 0;
      let best = -1;
      for (let step = 0; step < moderatorCount; step += 1) {
        const m = (start + step) % moderatorCount;
        if (best >= 0 && loads[m]! >= loads[best]!) continue;
        const moderator = input.moderators[m]!;
        if (moderator.id === review.reviewer || conflictSets[m]!.has(category)) continue;
        let taken = false;
        for (let c = 0; c < picked; c += 1) if (chosen[c] === m) taken = true;
        if (taken) continue;
        best = m;
        // Nobody has a lower load than the lowest: stop scanning.
        if (loads[m] === minLoad) break;
      }
      if (best < 0) break;
      chosen[picked++] = best;
      const load = loads[best]!;
      loads[best] = load + 1;
      atLoad[load] = atLoad[load]! - 1;
      atLoad[load + 1] = (atLoad[load + 1] ?? 0) + 1;
      while (atLoad[minLoad] === 0) minLoad += 1;
      reviewIds.push(review.id);
      moderatorIds.push(input.moderators[best]!.id);
    }
    perReview[selectedPosition.get(index)!] = picked;
  }

  const perReviewer = new Map<number, number>();
  for (const index of selected) {
    const reviewer = input.reviews[index]!.reviewer;
    perReviewer.set(reviewer, (perReviewer.get(reviewer) ?? 0) + 1);
  }
  return {
    reviewIds: Int32Array.from(reviewIds),
    moderatorIds: Int32Array.from(moderatorIds),
    selected: selected.map((index) => input.reviews[index]!.id),
    spotChecks,
    perModerator: loads,
    perReview,
    stats: {
      tot: reviewIds.length,
      nr_of_moderators: moderatorCount,
      per_reviewer: averages([...perReviewer.values()]),
      per_review: averages(perReview),
      per_moderator: averages(loads),
    },
  };
}
