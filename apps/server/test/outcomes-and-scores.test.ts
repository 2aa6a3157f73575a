import { ReviewRanking } from '@cr/contract/reviews';
import { describe, expect, it } from 'vitest';
import { computeProposalScores, type ScoreReview } from '../src/domain/proposal-scores';
import { computeReviewOutcomes, isValidReview } from '../src/domain/review-outcomes';

// Issue 15; DOMAIN.md "Review outcomes" and "Proposal scores"; spec §3 "Outcome parameters", "Score parameters".

describe('review outcomes', () => {
  it('a moderated review is valid when included ÷ moderations ≥ v (a tie at 0.5 is included); unmoderated is valid', () => {
    expect(isValidReview([], 1)).toBe(true);
    expect(isValidReview([1, 0], 0.5)).toBe(true);
    expect(isValidReview([1, 0, 0], 0.5)).toBe(false);
    expect(isValidReview([1, 1, 1], 1)).toBe(true);
    expect(isValidReview([1, 1, 0], 1)).toBe(false);
    // 0.7 × 10 is 7.000000000000001 in floating point: 7 of 10 must still meet it
    expect(isValidReview([1, 1, 1, 1, 1, 1, 1, 0, 0, 0], 0.7)).toBe(true);
  });

  it('excludes all reviews of a reviewer below the acceptance threshold with at least the minimum sample', () => {
    const reviews = [
      // reviewer 1: 3 moderated, 1 valid → rate 1/3 < 0.5, sample 3 ≥ 3 → all four excluded by threshold
      { id: 1, reviewer: 1, moderations: [0, 0] },
      { id: 2, reviewer: 1, moderations: [0] },
      { id: 3, reviewer: 1, moderations: [1] },
      { id: 4, reviewer: 1, moderations: [] },
      // reviewer 2: 2 moderated (below the sample), one invalid → only that one excluded by moderation
      { id: 5, reviewer: 2, moderations: [0, 0] },
      { id: 6, reviewer: 2, moderations: [1, 1] },
      { id: 7, reviewer: 2, moderations: [] },
    ];
    const { rankings, stats } = computeReviewOutcomes(reviews, { validityThreshold: 0.5, acceptanceThreshold: 0.5, minimumSample: 3 });
    expect([...rankings.entries()]).toEqual([
      [1, ReviewRanking.excluded_threshold],
      [2, ReviewRanking.excluded_threshold],
      [3, ReviewRanking.excluded_threshold],
      [4, ReviewRanking.excluded_threshold],
      [5, ReviewRanking.excluded_moderation],
      [6, ReviewRanking.included],
      [7, ReviewRanking.included],
    ]);
    expect(stats).toEqual({
      nr_of_reviewers: 2,
      nr_of_accepted_reviewers: 1,
      nr_of_excluded_reviewers: 1,
      nr_of_reviews: 7,
      nr_of_accepted_reviews: 2,
      nr_of_excluded_reviews: 5,
      nr_of_excluded_reviews_by_moderation: 1,
      nr_of_excluded_reviews_by_threshold: 4,
    });
  });
});

describe('proposal scores', () => {
  const params = { allocationWeights: { allocated: 0.8, not_allocated: 0.2 }, levelWeights: { level_0: 1, level_1: 1 } };
  const review = (over: Partial<ScoreReview>): ScoreReview => ({
    proposal: 1,
    allocated: true,
    level: 0,
    ranking: ReviewRanking.included,
    impact: 5,
    feasibility: 5,
    valueForMoney: 5,
    ...over,
  });

  it('weighs the allocated group 0.8 and the rest 0.2, over included reviews only', () => {
    const [score] = computeProposalScores(
      [1],
      [
        review({ impact: 5, feasibility: 4, valueForMoney: 3 }),
        review({ impact: 3, feasibility: 4, valueForMoney: 5 }),
        review({ allocated: false, impact: 1, feasibility: 1, valueForMoney: 1 }),
        review({ ranking: ReviewRanking.excluded_moderation, impact: 1 }),
        review({ ranking: ReviewRanking.excluded_threshold, allocated: false, impact: 1 }),
      ],
      params,
    );
    // impact: 0.8 × mean(5, 3) + 0.2 × 1 = 3.4; feasibility 0.8 × 4 + 0.2 = 3.4; value 0.8 × 4 + 0.2 = 3.4
    expect(score!.score_weighted_avg).toEqual({ overall: 3.4, impact: 3.4, feasibility: 3.4, value_for_money: 3.4 });
    expect(score).toMatchObject({
      nr_reviews: 5,
      nr_allocated_reviews: 3,
      nr_included_reviews: 3,
      nr_excluded_reviews: 2,
      nr_excluded_by_moderation_reviews: 1,
      nr_excluded_by_threshold_reviews: 1,
    });
  });

  it('lets one group carry the whole weight when the other is empty, applies level weights, and gives no score without included reviews', () => {
    const scores = computeProposalScores(
      [1, 2, 3],
      [
        review({ proposal: 1, allocated: false, impact: 4, feasibility: 4, valueForMoney: 4 }),
        review({ proposal: 2, level: 1, impact: 5, feasibility: 5, valueForMoney: 5 }),
        review({ proposal: 2, level: 0, impact: 2, feasibility: 2, valueForMoney: 2 }),
        review({ proposal: 3, ranking: ReviewRanking.excluded_moderation }),
      ],
      { ...params, levelWeights: { level_0: 0.5, level_1: 1 } },
    );
    expect(scores[0]!.score_weighted_avg!.overall).toBe(4);
    // (1 × 5 + 0.5 × 2) / 1.5 = 4
    expect(scores[1]!.score_weighted_avg!.impact).toBe(4);
    expect(scores[2]!.score_weighted_avg).toBeNull();
  });
});
