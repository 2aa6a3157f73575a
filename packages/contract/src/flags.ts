import { z } from 'zod';
import { FlagType } from './plain';
import { MAX_ROW_ID } from './common';

/** An id inside a JSON body: a number, never coerced from a string. */
const bodyId = z.number().int().min(1).max(MAX_ROW_ID);

/**
 * Flags on reviews (spec §3 "Flag", §2.15; DOMAIN.md "Flags"; reference schema `ProposalReviewFlag`).
 * On the wire a flag type is an integer: 0 profanity, 1 similarity, 2 ai_generated.
 */
export { FlagType, flagTypeName } from './plain';
export const flagTypes = Object.values(FlagType);

/** The three notes of a review, in the order of the review form; `related_criteria` names one per related review. */
export const NOTE_CRITERIA = ['impact_note', 'feasibility_note', 'auditability_note'] as const;
export type NoteCriterion = (typeof NOTE_CRITERIA)[number];

export const flagTypeSchema = z.union([z.literal(0), z.literal(1), z.literal(2)]);

/** One flag as the reviews carry it. `related_criteria[i]` is the note of `related_reviews[i]` that matched. */
export const reviewFlag = z
  .object({
    flag_type: flagTypeSchema,
    score: z.number().min(0).max(1),
    related_reviews: z.array(bodyId).max(1000),
    related_criteria: z.array(z.enum(NOTE_CRITERIA)).max(1000).nullable(),
  })
  .refine((flag) => flag.related_criteria === null || flag.related_criteria.length === flag.related_reviews.length, {
    message: 'related_criteria must name one criterion per related review',
    path: ['related_criteria'],
  });
export type ReviewFlag = z.infer<typeof reviewFlag>;

/** Defaults of the flag computation (DOMAIN.md "Flags"); an admin may change them per run. */
export const SIMILARITY_THRESHOLD_DEFAULT = 0.8;
export const AI_GENERATED_THRESHOLD_DEFAULT = 0.6;

/** Parameters of the "Compute flags" admin run. */
export const computeFlagsParams = z.strictObject({
  event_id: bodyId,
  similarity_threshold: z.number().min(0.5).max(1).default(SIMILARITY_THRESHOLD_DEFAULT),
  ai_generated_threshold: z.number().min(0).max(1).default(AI_GENERATED_THRESHOLD_DEFAULT),
  dry_run: z.boolean().default(true),
});
export type ComputeFlagsParams = z.infer<typeof computeFlagsParams>;

/** The answer of a flag run: how many reviews carry each type (a dry run writes nothing). */
export const flagRunStats = z.object({
  reviews: z.number().int(),
  flagged: z.number().int(),
  per_type: z.object({ profanity: z.number().int(), similarity: z.number().int(), ai_generated: z.number().int() }),
});
export type FlagRunStats = z.infer<typeof flagRunStats>;

/**
 * Flags computed by an outside tool, loaded by an admin: a JSON array of these. Loading a file replaces the flags of
 * each type it contains, for that event.
 */
export const externalFlag = z.strictObject({
  review_id: bodyId,
  flag_type: flagTypeSchema,
  score: z.number().min(0).max(1),
  related_reviews: z.array(bodyId).max(1000).default([]),
  related_criteria: z.array(z.enum(NOTE_CRITERIA)).max(1000).nullable().default(null),
});
export type ExternalFlag = z.infer<typeof externalFlag>;
export const externalFlagsFile = z.array(externalFlag).max(1_000_000);
