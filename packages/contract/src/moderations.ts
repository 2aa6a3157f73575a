import { z } from 'zod';
import { CUSTOM_REASON_MAX, moderationMessages, RATIONALE_MAX, reasonsFor, type ModerationReason } from './plain';
import { bodyRowId, rowId } from './common';
import { averages, requiredInt } from './proposals';
import { messages, nonWhitespaceLength } from './rules';

/**
 * Moderation (spec §2.14, §2.15, §3 "Moderation", §4, §5, §7 "Moderations"; DOMAIN.md "Moderation allocation",
 * "Moderation").
 */

export {
  APPROVAL_REASONS,
  CUSTOM_REASON_MAX,
  EXCLUSION_REASONS,
  ModerationClassification,
  moderationMessages,
  RATIONALE_MAX,
  reasonsFor,
  type ModerationReason,
} from './plain';

/**
 * The fields a moderator sends. The reference sends review_id, classification and rationale; we add the chosen reason
 * and the custom text so that §3's "predefined reason" and "custom rationale" are kept. The rationale is the reason's
 * text, or the custom text for 'other'.
 */
export const moderationFields = z
  .object({
    review_id: bodyRowId,
    classification: z.union([z.literal(0), z.literal(1)], { error: moderationMessages.classificationRequired }),
    rationale: z
      .string({ error: moderationMessages.rationaleRequired })
      .refine((text) => nonWhitespaceLength(text) > 0, { error: moderationMessages.rationaleRequired })
      .refine((text) => nonWhitespaceLength(text) <= RATIONALE_MAX, { error: moderationMessages.rationaleMax }),
    predefined_reason: z.string().max(64).nullable().default(null),
    custom_rationale: z
      .string()
      .max(CUSTOM_REASON_MAX - 1, { error: moderationMessages.maxLength })
      .nullable()
      .default(null),
  })
  .superRefine((value, context) => {
    if (value.predefined_reason === null) return;
    if (!reasonsFor(value.classification).includes(value.predefined_reason as ModerationReason))
      context.addIssue({ code: 'custom', path: ['predefined_reason'], message: moderationMessages.reasonRequired });
    else if (value.predefined_reason === 'other' && !value.custom_rationale?.trim())
      context.addIssue({ code: 'custom', path: ['custom_rationale'], message: moderationMessages.customRationaleRequired });
  });
export type ModerationFields = z.infer<typeof moderationFields>;
export const newModerationBody = z.object({ new_moderation: moderationFields });
export const moderationUpdateBody = z.object({ record_update: moderationFields });
export const moderationIdParams = z.object({ id: rowId });
export const reviewIdParams = z.object({ review_id: rowId });

/** §3 "Moderation"; the moderator's public contact only once moderation is closed and outcomes exist (DOMAIN.md). */
export const moderationPublic = z.object({
  row_id: z.number().int(),
  review_id: z.number().int(),
  classification: z.number().int(),
  rationale: z.string(),
  predefined_reason: z.string().nullable(),
  custom_rationale: z.string().nullable(),
  public_contact: z.string().nullable(),
});
export type ModerationPublic = z.infer<typeof moderationPublic>;

// ---------- moderation allocation ----------

/** §5, §9 defaults. */
export const MODERATION_ALLOCATION_DEFAULTS = {
  moderation_seed: 1,
  nr_of_moderations_per_review: 4,
  min_spot_check_per_reviewer: 10,
} as const;
/** Beyond any real round, so that a typo cannot ask for millions of rows. */
export const MAX_MODERATIONS_PER_REVIEW = 50;
export const MAX_SPOT_CHECKS = 1000;

export const moderationAllocationParams = z.object({
  event_id: bodyRowId,
  moderation_seed: requiredInt.min(1, { error: messages.atLeast1 }),
  nr_of_moderations_per_review: requiredInt.min(0, { error: messages.atLeast0 }).max(MAX_MODERATIONS_PER_REVIEW),
  min_spot_check_per_reviewer: requiredInt.min(0, { error: messages.atLeast0 }).max(MAX_SPOT_CHECKS),
  dry_run: z.boolean().default(true),
});
export type ModerationAllocationParams = z.infer<typeof moderationAllocationParams>;
/** The API body: a parameter left out takes the spec's default (the reference API has defaults too, issue 17). */
export const moderationAllocationParamsBody = z.object({
  allocation_params: moderationAllocationParams.extend({
    moderation_seed: moderationAllocationParams.shape.moderation_seed.default(MODERATION_ALLOCATION_DEFAULTS.moderation_seed),
    nr_of_moderations_per_review: moderationAllocationParams.shape.nr_of_moderations_per_review.default(
      MODERATION_ALLOCATION_DEFAULTS.nr_of_moderations_per_review,
    ),
    min_spot_check_per_reviewer: moderationAllocationParams.shape.min_spot_check_per_reviewer.default(
      MODERATION_ALLOCATION_DEFAULTS.min_spot_check_per_reviewer,
    ),
  }),
});

/** §3 result, plus the histograms and how many reviews were flagged and spot-checked. */
export const moderationAllocationStats = z.object({
  tot: z.number().int(),
  nr_of_moderators: z.number().int(),
  per_reviewer: averages,
  per_review: averages,
  per_moderator: averages,
  selected: z.object({ flagged: z.number().int(), spot_checks: z.number().int() }),
  histograms: z.object({
    per_moderator: z.array(z.tuple([z.number().int(), z.number().int()])),
    per_review: z.array(z.tuple([z.number().int(), z.number().int()])),
  }),
  dry_run: z.boolean(),
});
export type ModerationAllocationStats = z.infer<typeof moderationAllocationStats>;
