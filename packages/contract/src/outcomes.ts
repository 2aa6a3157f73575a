import { z } from 'zod';
import { bodyRowId } from './common';
import { messages, missingOr } from './rules';

/**
 * Review outcomes and proposal scores (spec §3 "Outcome parameters", "Score parameters", §5, §7
 * `POST proposal-reviews/generate-results`, `POST proposals/generate-results`; DOMAIN.md "Review outcomes",
 * "Proposal scores"). Both are irreversible admin runs with a dry run.
 */

/** §5, §9 defaults (G-003, G-004, G-010..G-012). */
export const OUTCOME_DEFAULTS = { validity_threshold: 1, acceptance_threshold: 1, minimum_sample: 10 } as const;
export const SCORE_DEFAULTS = {
  allocation_weights: { allocated: 0.8, not_allocated: 0.2 },
  level_weights: { level_0: 1, level_1: 1 },
} as const;
/** §5: the minimum sample is at least 10. */
export const MINIMUM_SAMPLE_MIN = 10;

/** A required ratio from 0 to 1 (G-003, G-013). */
const ratio = z
  .number({ error: missingOr(messages.number) })
  .min(0, { error: messages.ratio })
  .max(1, { error: messages.ratio });

export const outcomeParams = z.object({
  event_id: bodyRowId,
  validity_threshold: ratio,
  acceptance_threshold: ratio,
  minimum_sample: z
    .number({ error: missingOr(messages.integer) })
    .int({ error: messages.integer })
    .min(MINIMUM_SAMPLE_MIN, { error: messages.atLeast10 })
    .max(1_000_000, { error: messages.integer }),
  dry_run: z.boolean().default(true),
});
export type OutcomeParams = z.infer<typeof outcomeParams>;
export type OutcomeParamsInput = z.input<typeof outcomeParams>;
/** The API body: `minimum_sample` left out is the spec's default (the reference API has it too, issue 17). */
export const outcomeParamsBody = z.object({
  results_params: outcomeParams.extend({ minimum_sample: outcomeParams.shape.minimum_sample.default(OUTCOME_DEFAULTS.minimum_sample) }),
});

/** §3 "Outcome parameters" result (G-006), plus the excluded reviewers by anonymous id with their approval rate. */
export const outcomeStats = z.object({
  /** The reference API's `ProposalReviewResults` names the event (issue 17). */
  event_id: z.number().int(),
  nr_of_reviewers: z.number().int(),
  nr_of_accepted_reviewers: z.number().int(),
  nr_of_excluded_reviewers: z.number().int(),
  nr_of_reviews: z.number().int(),
  nr_of_accepted_reviews: z.number().int(),
  nr_of_excluded_reviews: z.number().int(),
  nr_of_excluded_reviews_by_moderation: z.number().int(),
  nr_of_excluded_reviews_by_threshold: z.number().int(),
  excluded_reviewers: z.array(z.object({ assessor: z.string(), moderated: z.number().int(), approval_rate: z.number() })),
  dry_run: z.boolean(),
});
export type OutcomeStats = z.infer<typeof outcomeStats>;

export const scoreParams = z.object({
  event_id: bodyRowId,
  allocation_weights: z.object({ allocated: ratio, not_allocated: ratio }),
  level_weights: z.object({ level_0: ratio, level_1: ratio }),
  dry_run: z.boolean().default(true),
});
export type ScoreParams = z.infer<typeof scoreParams>;
export type ScoreParamsInput = z.input<typeof scoreParams>;
/** The API body: a weight left out is the spec's default (the reference API has defaults too, issue 17). */
export const scoreParamsBody = z.object({
  results_params: scoreParams.extend({
    allocation_weights: z.object({
      allocated: ratio.default(SCORE_DEFAULTS.allocation_weights.allocated),
      not_allocated: ratio.default(SCORE_DEFAULTS.allocation_weights.not_allocated),
    }),
    level_weights: z.object({
      level_0: ratio.default(SCORE_DEFAULTS.level_weights.level_0),
      level_1: ratio.default(SCORE_DEFAULTS.level_weights.level_1),
    }),
  }),
});

export const scoreAverages = z.object({
  overall: z.number(),
  impact: z.number(),
  feasibility: z.number(),
  value_for_money: z.number(),
});
export type ScoreAverages = z.infer<typeof scoreAverages>;

/** §3 "Score parameters" result (G-015): one row per proposal; no included review → score_weighted_avg null. */
export const proposalScoreRow = z.object({
  proposal: z.object({ row_id: z.number().int(), pr_id: z.string(), title: z.string() }),
  score_weighted_avg: scoreAverages.nullable(),
  nr_reviews: z.number().int(),
  nr_allocated_reviews: z.number().int(),
  nr_included_reviews: z.number().int(),
  nr_excluded_reviews: z.number().int(),
  nr_excluded_by_moderation_reviews: z.number().int(),
  nr_excluded_by_threshold_reviews: z.number().int(),
});
export type ProposalScoreRow = z.infer<typeof proposalScoreRow>;
export const scoreResult = z.array(proposalScoreRow);
export type ScoreResult = z.infer<typeof scoreResult>;

export const outcomeMessages = {
  /** Scores are computed over included reviews: they need the outcomes first. */
  outcomesFirst: 'Generate the review outcomes first: proposal scores are computed over the included reviews.',
} as const;

/** §3 "Export for the vote system", §5 defaults (G-019..G-023). */
export const VOTE_EXPORT_DEFAULTS = { threshold: 25, chain_vote_options: 'blank,yes,no', chain_vote_type: 'private' } as const;
export const voteExportConfig = z.object({
  fund_id: z
    .number({ error: missingOr(messages.integer) })
    .int({ error: messages.integer })
    .min(0, { error: messages.atLeast0 }),
  fund_name: z
    .string({ error: missingOr(messages.expectedText) })
    .trim()
    .min(1, { error: messages.required })
    .max(200, { error: messages.maxLength }),
  events_id: z.array(bodyRowId).min(1, { error: messages.required }).max(100),
  threshold: z
    .number({ error: messages.integer })
    .int({ error: messages.integer })
    .min(0, { error: messages.atLeast0 })
    .default(VOTE_EXPORT_DEFAULTS.threshold),
  chain_vote_options: z.string().trim().min(1, { error: messages.required }).max(200).default(VOTE_EXPORT_DEFAULTS.chain_vote_options),
  chain_vote_type: z.enum(['private', 'public'], { error: messages.required }).default(VOTE_EXPORT_DEFAULTS.chain_vote_type),
  themes: z.array(z.string().max(200)).max(200).default([]),
});
export type VoteExportConfig = z.infer<typeof voteExportConfig>;
export const voteExportBody = z.object({ export_config: voteExportConfig });

/** `GET moderations/stats/` (the reference's ModerationStatsPublic): how far moderation has come. */
export const moderationStatsPublic = z.object({
  moderations: z.number().int(),
  allocations: z.number().int(),
  flagged_reviews: z.number().int(),
  reviews_moderated: z.object({
    by_0: z.number().int(),
    by_1: z.number().int(),
    by_2: z.number().int(),
    by_3: z.number().int(),
    by_more: z.number().int(),
  }),
});
export type ModerationStatsPublic = z.infer<typeof moderationStatsPublic>;
