import { ReviewRanking } from '@cr/contract/reviews';

/**
 * Review outcomes (DOMAIN.md "Review outcomes", spec §3 "Outcome parameters"), pure: the run loads each submitted
 * review with its moderations' classifications and writes the rankings.
 *
 * 1. A moderated review is valid when included ÷ moderations ≥ validity threshold, else excluded by moderation.
 *    Unmoderated reviews are valid.
 * 2. A reviewer with at least `minimumSample` moderated reviews whose approval rate (valid ÷ moderated) is below
 *    the acceptance threshold has all their reviews excluded by threshold (this overrides step 1's exclusion).
 * 3. Every other review is included.
 */
export interface OutcomeReview {
  id: number;
  reviewer: number;
  /** Classifications of its moderations: 1 included, 0 excluded. */
  moderations: readonly number[];
}

export interface OutcomeParams {
  validityThreshold: number;
  acceptanceThreshold: number;
  minimumSample: number;
}

/** Spec §3 "Outcome parameters" result. */
export interface OutcomeStats {
  nr_of_reviewers: number;
  nr_of_accepted_reviewers: number;
  nr_of_excluded_reviewers: number;
  nr_of_reviews: number;
  nr_of_accepted_reviews: number;
  nr_of_excluded_reviews: number;
  nr_of_excluded_reviews_by_moderation: number;
  nr_of_excluded_reviews_by_threshold: number;
}

export interface OutcomeResult {
  rankings: Map<number, ReviewRanking>;
  stats: OutcomeStats;
}

/** included ÷ total ≥ threshold, compared without a rounding error turning a tie into an exclusion (0.5 of 2). */
export function meetsRatio(part: number, total: number, threshold: number): boolean {
  return part >= threshold * total - 1e-9;
}

export function isValidReview(moderations: readonly number[], validityThreshold: number): boolean {
  if (moderations.length === 0) return true;
  const included = moderations.filter((classification) => classification === 1).length;
  return meetsRatio(included, moderations.length, validityThreshold);
}

export function computeReviewOutcomes(reviews: readonly OutcomeReview[], params: OutcomeParams): OutcomeResult {
  const perReviewer = new Map<number, { moderated: number; valid: number }>();
  const valid = new Map<number, boolean>();
  for (const review of reviews) {
    const isValid = isValidReview(review.moderations, params.validityThreshold);
    valid.set(review.id, isValid);
    const tally = perReviewer.get(review.reviewer) ?? { moderated: 0, valid: 0 };
    if (review.moderations.length > 0) {
      tally.moderated += 1;
      if (isValid) tally.valid += 1;
    }
    perReviewer.set(review.reviewer, tally);
  }
  const excludedReviewers = new Set<number>();
  for (const [reviewer, tally] of perReviewer)
    if (tally.moderated >= params.minimumSample && !meetsRatio(tally.valid, tally.moderated, params.acceptanceThreshold))
      excludedReviewers.add(reviewer);

  const rankings = new Map<number, ReviewRanking>();
  const stats: OutcomeStats = {
    nr_of_reviewers: perReviewer.size,
    nr_of_accepted_reviewers: perReviewer.size - excludedReviewers.size,
    nr_of_excluded_reviewers: excludedReviewers.size,
    nr_of_reviews: reviews.length,
    nr_of_accepted_reviews: 0,
    nr_of_excluded_reviews: 0,
    nr_of_excluded_reviews_by_moderation: 0,
    nr_of_excluded_reviews_by_threshold: 0,
  };
  for (const review of reviews) {
    if (excludedReviewers.has(review.reviewer)) {
      rankings.set(review.id, ReviewRanking.excluded_threshold);
      stats.nr_of_excluded_reviews_by_threshold += 1;
    } else if (!valid.get(review.id)) {
      rankings.set(review.id, ReviewRanking.excluded_moderation);
      stats.nr_of_excluded_reviews_by_moderation += 1;
    } else {
      rankings.set(review.id, ReviewRanking.included);
      stats.nr_of_accepted_reviews += 1;
    }
  }
  stats.nr_of_excluded_reviews = stats.nr_of_excluded_reviews_by_moderation + stats.nr_of_excluded_reviews_by_threshold;
  return { rankings, stats };
}
