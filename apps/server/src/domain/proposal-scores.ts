import { ReviewRanking } from '@cr/contract/reviews';

/**
 * Proposal scores (DOMAIN.md "Proposal scores", spec §3 "Score parameters"), pure.
 *
 * Per proposal and criterion, over its included reviews: the weighted mean of the ratings, a review weighing
 * allocation_weight(group) ÷ n(group) × level_weight(its level), where group is "allocated" or "not allocated" and
 * n(group) the number of the proposal's included reviews in that group. Dividing by the sum of the weights means an
 * empty group leaves the whole weight to the other. No included review (or only zero weights) → no score (null).
 * `overall` is the mean of the three criteria. Scores are rounded to four decimals.
 */
export interface ScoreReview {
  proposal: number;
  allocated: boolean;
  level: number;
  ranking: number | null;
  impact: number;
  feasibility: number;
  valueForMoney: number;
}

export interface ScoreParams {
  allocationWeights: { allocated: number; not_allocated: number };
  levelWeights: { level_0: number; level_1: number };
}

export interface ScoreAverages {
  overall: number;
  impact: number;
  feasibility: number;
  value_for_money: number;
}

export interface ProposalScore {
  proposal: number;
  score_weighted_avg: ScoreAverages | null;
  nr_reviews: number;
  nr_allocated_reviews: number;
  nr_included_reviews: number;
  nr_excluded_reviews: number;
  nr_excluded_by_moderation_reviews: number;
  nr_excluded_by_threshold_reviews: number;
}

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

export function computeProposalScores(proposals: readonly number[], reviews: readonly ScoreReview[], params: ScoreParams): ProposalScore[] {
  const byProposal = new Map<number, ScoreReview[]>(proposals.map((id) => [id, []]));
  for (const review of reviews) byProposal.get(review.proposal)?.push(review);
  const levelWeight = (level: number) => (level === 1 ? params.levelWeights.level_1 : params.levelWeights.level_0);

  return proposals.map((proposal) => {
    const own = byProposal.get(proposal)!;
    const included = own.filter((review) => review.ranking === ReviewRanking.included);
    const groupSize = { allocated: 0, not_allocated: 0 };
    for (const review of included) groupSize[review.allocated ? 'allocated' : 'not_allocated'] += 1;
    let total = 0;
    const sums = { impact: 0, feasibility: 0, value_for_money: 0 };
    for (const review of included) {
      const group = review.allocated ? 'allocated' : 'not_allocated';
      const weight = (params.allocationWeights[group] / groupSize[group]) * levelWeight(review.level);
      total += weight;
      sums.impact += weight * review.impact;
      sums.feasibility += weight * review.feasibility;
      sums.value_for_money += weight * review.valueForMoney;
    }
    let score: ScoreAverages | null = null;
    if (total > 0) {
      const impact = sums.impact / total;
      const feasibility = sums.feasibility / total;
      const valueForMoney = sums.value_for_money / total;
      score = {
        overall: round4((impact + feasibility + valueForMoney) / 3),
        impact: round4(impact),
        feasibility: round4(feasibility),
        value_for_money: round4(valueForMoney),
      };
    }
    const byModeration = own.filter((review) => review.ranking === ReviewRanking.excluded_moderation).length;
    const byThreshold = own.filter((review) => review.ranking === ReviewRanking.excluded_threshold).length;
    return {
      proposal,
      score_weighted_avg: score,
      nr_reviews: own.length,
      nr_allocated_reviews: own.filter((review) => review.allocated).length,
      nr_included_reviews: included.length,
      nr_excluded_reviews: byModeration + byThreshold,
      nr_excluded_by_moderation_reviews: byModeration,
      nr_excluded_by_threshold_reviews: byThreshold,
    };
  });
}
