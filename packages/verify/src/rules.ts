/**
 * The published rules of a Community Review round, written from the product's rules (spec §3 "Outcome parameters"
 * and "Score parameters", §5, the domain rules "Review outcomes" and "Proposal scores", and the appeals rules of
 * docs/decisions.md "Issue 28 item 2"), not from the server's code: pure functions over plain figures, with no
 * dependency on anything. Ratios are compared exactly (a threshold is a decimal with at most six places), so that a
 * tie such as 1 included of 2 at 0.5 is never lost to a rounding error.
 */

const SCALE = 1_000_000;
/** part ÷ total ≥ threshold, in integers. */
export function atLeast(part: number, total: number, threshold: number): boolean {
  return part * SCALE >= Math.round(threshold * SCALE) * total;
}

export type Outcome = 'pending' | 'included' | 'excluded_moderation' | 'excluded_threshold';

export interface OutcomeParams {
  validity_threshold: number;
  acceptance_threshold: number;
  minimum_sample: number;
}

/**
 * A moderated review is valid when its included moderations are at least the validity threshold of its moderations
 * (simple majority at 0.5, a tie included); a review nobody moderated is valid.
 */
export function isValid(included: number, moderations: number, params: OutcomeParams): boolean {
  return moderations === 0 || atLeast(included, moderations, params.validity_threshold);
}

/**
 * A reviewer is excluded when they have at least the minimum sample of moderated reviews and their approval rate
 * (valid ÷ moderated) is below the acceptance threshold; then all their reviews are excluded by threshold.
 */
export function reviewerExcluded(moderated: number, valid: number, params: OutcomeParams): boolean {
  return moderated >= params.minimum_sample && !atLeast(valid, moderated, params.acceptance_threshold);
}

/** A review's outcome from the outcomes run: by threshold first, then by moderation, else included. */
export function reviewOutcome(valid: boolean, writerExcluded: boolean): Outcome {
  if (writerExcluded) return 'excluded_threshold';
  return valid ? 'included' : 'excluded_moderation';
}

export type AppealResult = 'upheld' | 'rejected' | 'undecided';

/**
 * An appeal needs N decisions: upheld once more than half of N uphold it, rejected once at least half of N reject it
 * (overturning an exclusion needs a majority); otherwise undecided (closed when the scores run).
 */
export function appealResult(upholds: number, rejects: number, needed: number): AppealResult {
  if (upholds * 2 > needed) return 'upheld';
  if (rejects * 2 >= needed) return 'rejected';
  return 'undecided';
}

export interface ScoreParams {
  allocation_weights: { allocated: number; not_allocated: number };
  level_weights: { level_0: number; level_1: number };
}

export interface ScoredReview {
  allocated: boolean;
  level: number;
  impact: number;
  feasibility: number;
  valueForMoney: number;
}

export interface Scores {
  overall: number;
  impact: number;
  feasibility: number;
  value_for_money: number;
}

/**
 * A proposal's scores over its included reviews: per criterion the weighted mean, each review weighing its group's
 * allocation weight shared among the group's reviews (allocated, or not allocated), times its writer's level weight.
 * A group with no review leaves the whole weight to the other; no included review (or no weight at all), no score.
 * Overall is the mean of the three criteria. Unrounded: the published scores are rounded to four decimals.
 */
export function proposalScores(included: readonly ScoredReview[], params: ScoreParams): Scores | null {
  const groupSize = { allocated: 0, notAllocated: 0 };
  for (const review of included) {
    if (review.allocated) groupSize.allocated += 1;
    else groupSize.notAllocated += 1;
  }
  let weights = 0;
  let impact = 0;
  let feasibility = 0;
  let valueForMoney = 0;
  for (const review of included) {
    const share = review.allocated
      ? params.allocation_weights.allocated / groupSize.allocated
      : params.allocation_weights.not_allocated / groupSize.notAllocated;
    // The rules weigh LV1 reviews with level_1 and LV0 reviews with level_0 (reviews are written at LV0 or LV1).
    const weight = share * (review.level === 1 ? params.level_weights.level_1 : params.level_weights.level_0);
    weights += weight;
    impact += weight * review.impact;
    feasibility += weight * review.feasibility;
    valueForMoney += weight * review.valueForMoney;
  }
  if (!(weights > 0)) return null;
  const scores = { impact: impact / weights, feasibility: feasibility / weights, value_for_money: valueForMoney / weights };
  return { overall: (scores.impact + scores.feasibility + scores.value_for_money) / 3, ...scores };
}

/** A published score (four decimals) reproduces a recomputed one when it is that one rounded. */
export const sameScore = (published: number, recomputed: number) => Math.abs(published - recomputed) <= 0.00005 + 1e-9;
