import { z } from 'zod';
import { bodyRowId, pageQuery, paged, rowId } from './common';
import { averages, requiredInt } from './proposals';
import { messages } from './rules';

/**
 * Moderation coverage (issue 28 item 1): for a round whose moderation allocation ran, the reviews with fewer done
 * moderations than the allocation asked for (its `nr_of_moderations_per_review`), the ties (as many includes as
 * excludes), the moderators with unfinished allocations, and the top-up run that allocates what is missing.
 */

export const coverageQuery = z.object({ event_id: rowId });

/** `GET moderations/coverage?event_id`: the round's figures. */
export const coverageSummary = z.object({
  event_id: z.number().int(),
  /** Moderations per review the allocation asked for. */
  per_review: z.number().int(),
  /** false when no allocation run was recorded (rows written by an operator command): `per_review` is the default. */
  per_review_from_run: z.boolean(),
  /** Reviews allocated for moderation. */
  allocated_reviews: z.number().int(),
  /** Allocated reviews with fewer done moderations than `per_review`, and how many moderations they lack. */
  short_reviews: z.number().int(),
  missing_moderations: z.number().int(),
  /** Reviews whose done moderations are as many includes as excludes. */
  ties: z.number().int(),
  /** Moderators with allocations they have not moderated, and how many such allocations there are. */
  moderators_unfinished: z.number().int(),
  unfinished_allocations: z.number().int(),
  /** Moderations a top-up would allocate now (before eligibility), with a tie-breaker for each tie. */
  to_top_up: z.number().int(),
  /** Top-up runs made so far, and the allocations they added. */
  top_up_runs: z.number().int(),
  topped_up_allocations: z.number().int(),
});
export type CoverageSummary = z.infer<typeof coverageSummary>;

export const COVERAGE_REVIEW_KINDS = ['short', 'ties'] as const;
export type CoverageReviewKind = (typeof COVERAGE_REVIEW_KINDS)[number];

export const coverageReviewsQuery = pageQuery.extend({
  event_id: rowId,
  kind: z.enum(COVERAGE_REVIEW_KINDS).default('short'),
});
export type CoverageReviewsQuery = z.infer<typeof coverageReviewsQuery>;

/** One review of the short or tied list; the writer by anonymous id only. */
export const coverageReview = z.object({
  review_id: z.number().int(),
  proposal_title: z.string(),
  assessor: z.string(),
  allocated: z.number().int(),
  moderations: z.number().int(),
  includes: z.number().int(),
  excludes: z.number().int(),
  /** Allocations of earlier top-ups not moderated yet. */
  topped_up_pending: z.number().int(),
  /** What a top-up would add now. */
  to_top_up: z.number().int(),
});
export type CoverageReview = z.infer<typeof coverageReview>;
export const coverageReviewsPage = paged(coverageReview);

export const coverageModeratorsQuery = pageQuery.extend({ event_id: rowId });
/** A moderator with unfinished allocations, by anonymous id as elsewhere in the admin area. */
export const coverageModerator = z.object({
  assessor: z.string(),
  allocated: z.number().int(),
  moderated: z.number().int(),
  unfinished: z.number().int(),
});
export type CoverageModerator = z.infer<typeof coverageModerator>;
export const coverageModeratorsPage = paged(coverageModerator);

// ---------- the top-up run ----------

export const TOP_UP_DEFAULTS = { top_up_seed: 1, break_ties: true } as const;

export const topUpParams = z.object({
  event_id: bodyRowId,
  top_up_seed: requiredInt.min(1, { error: messages.atLeast1 }),
  /** One more moderator for each tie whose review has its asked moderations (so that a majority decides it). */
  break_ties: z.boolean(),
  dry_run: z.boolean().default(true),
});
export type TopUpParams = z.infer<typeof topUpParams>;
export type TopUpParamsInput = z.input<typeof topUpParams>;
export const topUpParamsBody = z.object({
  top_up_params: topUpParams.extend({
    top_up_seed: topUpParams.shape.top_up_seed.default(TOP_UP_DEFAULTS.top_up_seed),
    break_ties: topUpParams.shape.break_ties.default(TOP_UP_DEFAULTS.break_ties),
  }),
});

/** The run's statistics: what was needed, what was allocated, and how the new allocations spread. */
export const topUpStats = z.object({
  event_id: z.number().int(),
  per_review: z.number().int(),
  reviews: z.number().int(),
  needed: z.number().int(),
  tot: z.number().int(),
  reviews_unfilled: z.number().int(),
  nr_of_moderators: z.number().int(),
  per_moderator: averages,
  per_review_added: averages,
  histograms: z.object({ per_moderator: z.array(z.tuple([z.number().int(), z.number().int()])) }),
  dry_run: z.boolean(),
});
export type TopUpStats = z.infer<typeof topUpStats>;

export const coverageMessages = {
  allocationFirst: 'Run the moderation allocation first: a top-up adds to it.',
  outcomesGenerated: 'The review outcomes have been generated for this event: its moderation coverage can no longer be topped up.',
} as const;
