import { NO_OBJECTIVE } from './rules';
import { createPrng, shuffleInPlace } from './prng';
import { averages, type Averages } from './stats';

/**
 * Moderation coverage top-up (issue 28 item 1): the reviews that still need moderations (fewer done than the
 * allocation asked for, or a tie to break) get that many more moderators, each pick taking the eligible moderator with
 * the fewest allocations of this run; among equal loads, the one with the fewest unfinished allocations (a moderator
 * who has not finished is the likely reason a review is short), then a seeded random order. Eligible for a review: not
 * conflicted (an author in the review's objective, as in the moderation allocation), not its writer, not already
 * allocated to it or one who moderated it (`excluded`), and not picked for it twice.
 *
 * Load spread: every pick takes a least-loaded eligible moderator, so among the moderators eligible for every review
 * the loads of this run differ by at most one (proof: the picked one had the lowest load among the eligible, and one
 * picked earlier for the same review had a load no higher than it). The most constrained reviews go first, so the
 * others level the loads out after them.
 *
 * Cost: O(picks + moderators × load levels) in the usual case (a cursor on the lowest load), O(moderators) for a pick
 * where no least-loaded moderator is eligible. 200,000 picks over 500 moderators take well under a second. No database.
 */

export interface TopUpReview {
  id: number;
  /** The review's writer (user id): never their own moderator. */
  reviewer: number;
  /** The objective of the review's proposal, or null. */
  category: number | null;
  /** Moderators (user ids) already allocated to the review or who moderated it. */
  excluded: readonly number[];
  /** How many more moderators it needs. */
  need: number;
}

export interface TopUpModerator {
  /** The moderator's user id. */
  id: number;
  /** Objectives in which the moderator authored a proposal; null for an uncategorised one. */
  conflicts: readonly (number | null)[];
  /** Allocations the moderator has not moderated yet (the tie-break among equal loads). */
  unfinished: number;
}

export interface TopUpInput {
  reviews: readonly TopUpReview[];
  moderators: readonly TopUpModerator[];
  seed: number;
}

export interface TopUpStats {
  /** Reviews that needed moderators, and how many moderations they needed. */
  reviews: number;
  needed: number;
  /** Allocations made (≤ needed: fewer when too few moderators are eligible). */
  tot: number;
  /** Reviews left with fewer new moderators than they needed. */
  reviews_unfilled: number;
  nr_of_moderators: number;
  /** New allocations per moderator of the pool (input order), and per review that needed some. */
  per_moderator: Averages;
  per_review: Averages;
}

export interface TopUpResult {
  /** Pair i is (reviewIds[i], moderatorIds[i]). */
  reviewIds: Int32Array;
  moderatorIds: Int32Array;
  /** New allocations per moderator, in input order. */
  perModerator: Int32Array;
  /** New allocations per review, in input order. */
  perReview: Int32Array;
  stats: TopUpStats;
}

const categoryKey = (category: number | null) => category ?? NO_OBJECTIVE;

export function topUpModerations(input: TopUpInput): TopUpResult {
  const prng = createPrng(input.seed);
  const moderatorCount = input.moderators.length;

  // Moderators in the order a pick prefers them among equal loads: fewest unfinished first, ties in seeded order.
  const order = shuffleInPlace(
    Array.from({ length: moderatorCount }, (_, i) => i),
    prng,
  );
  const shuffledRank = new Int32Array(moderatorCount);
  order.forEach((m, position) => (shuffledRank[m] = position));
  order.sort((a, b) => input.moderators[a]!.unfinished - input.moderators[b]!.unfinished || shuffledRank[a]! - shuffledRank[b]!);
  const positionOf = new Map<number, number>();
  order.forEach((m, position) => positionOf.set(input.moderators[m]!.id, position));
  const conflictSets = order.map((m) => new Set(input.moderators[m]!.conflicts.map(categoryKey)));

  const eligibleCount = new Map<number, number>();
  const eligibleIn = (category: number) => {
    let count = eligibleCount.get(category);
    if (count === undefined) {
      count = conflictSets.filter((set) => !set.has(category)).length;
      eligibleCount.set(category, count);
    }
    return count;
  };

  // Reviews: most constrained first (fewest eligible moderators), ties in a seeded random order.
  const reviewOrder = shuffleInPlace(
    input.reviews.flatMap((review, index) => (review.need > 0 ? [index] : [])),
    prng,
  );
  const room = (index: number) => {
    const review = input.reviews[index]!;
    return eligibleIn(categoryKey(review.category)) - review.excluded.length;
  };
  const reviewRank = new Map(reviewOrder.map((index, position) => [index, position]));
  reviewOrder.sort((a, b) => room(a) - room(b) || reviewRank.get(a)! - reviewRank.get(b)!);

  // Loads by position in `order`; `cursor` is the first position holding the lowest load.
  const loads = new Int32Array(moderatorCount);
  let minLoad = 0;
  let cursor = 0;
  // `blocked[p] === stamp`: position p may not take the current review (excluded, or already picked for it).
  const blocked = new Int32Array(moderatorCount);
  const reviewIds: number[] = [];
  const moderatorIds: number[] = [];
  const perReview = new Int32Array(input.reviews.length);
  let needed = 0;
  let stamp = 0;

  const eligible = (p: number, category: number) => blocked[p] !== stamp && !conflictSets[p]!.has(category);

  for (const index of reviewOrder) {
    const review = input.reviews[index]!;
    const category = categoryKey(review.category);
    needed += review.need;
    stamp += 1;
    for (const id of review.excluded) {
      const p = positionOf.get(id);
      if (p !== undefined) blocked[p] = stamp;
    }
    const own = positionOf.get(review.reviewer);
    if (own !== undefined) blocked[own] = stamp;

    for (let k = 0; k < review.need; k += 1) {
      let best = -1;
      // A least-loaded eligible moderator at or after the cursor is the best (none before it has the lowest load).
      for (let p = cursor; p < moderatorCount; p += 1) {
        if (loads[p] === minLoad && eligible(p, category)) {
          best = p;
          break;
        }
      }
      if (best < 0) {
        for (let p = 0; p < moderatorCount; p += 1) if (eligible(p, category) && (best < 0 || loads[p]! < loads[best]!)) best = p;
      }
      if (best < 0) break;
      blocked[best] = stamp;
      loads[best] = loads[best]! + 1;
      reviewIds.push(review.id);
      moderatorIds.push(input.moderators[order[best]!]!.id);
      perReview[index] = perReview[index]! + 1;
      if (best === cursor) {
        // The cursor moves to the next lowest-loaded position; when there is none, the lowest load went up by one.
        let next = cursor + 1;
        while (next < moderatorCount && loads[next] !== minLoad) next += 1;
        if (next < moderatorCount) cursor = next;
        else {
          cursor = 0;
          for (let p = 1; p < moderatorCount; p += 1) if (loads[p]! < loads[cursor]!) cursor = p;
          minLoad = loads[cursor]!;
        }
      }
    }
  }

  const perModerator = new Int32Array(moderatorCount);
  order.forEach((m, position) => (perModerator[m] = loads[position]!));
  const asked = input.reviews.filter((review) => review.need > 0);
  const given = input.reviews.flatMap((review, index) => (review.need > 0 ? [perReview[index]!] : []));
  return {
    reviewIds: Int32Array.from(reviewIds),
    moderatorIds: Int32Array.from(moderatorIds),
    perModerator,
    perReview,
    stats: {
      reviews: asked.length,
      needed,
      tot: reviewIds.length,
      reviews_unfilled: input.reviews.filter((review, index) => review.need > 0 && perReview[index]! < review.need).length,
      nr_of_moderators: moderatorCount,
      per_moderator: averages(perModerator),
      per_review: averages(given),
    },
  };
}
