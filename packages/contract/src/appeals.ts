import { z } from 'zod';
import { APPEAL_RATIONALE_MAX, APPEAL_RATIONALE_MIN, appealReasonsFor } from './plain';
import { bodyRowId, pageQuery, rowId } from './common';
import { CUSTOM_REASON_MAX, moderationMessages, RATIONALE_MAX, type ModerationReason } from './moderations';
import { averages, requiredInt } from './proposals';
import { countedText } from './reviews';
import { messages, missingOr, nonWhitespaceLength } from './rules';

/**
 * Appeals (issue 28 item 2): a reviewer whose review the outcomes excluded may appeal it once, within the event's
 * appeal window (from the review outcomes run; it ends at the latest when proposal scores run); an admin allocates
 * the open appeals to fresh moderators; a majority of their decisions upholds (the review becomes included) or rejects.
 */

// ---------- an event's appeal settings (configs/appeals/{eventId}) ----------

export const APPEAL_WINDOW_DAYS_DEFAULT = 7;
export const APPEAL_WINDOW_DAYS_MAX = 90;
export const APPEAL_DECISIONS_DEFAULT = 3;
export const APPEAL_DECISIONS_MAX = 15;

/** Off for a new event; when switched on, a 7-day window and 3 decisions. */
export const appealsConfig = z.object({
  appeals_enabled: z.boolean({ error: missingOr(messages.invalid) }),
  window_days: requiredInt.min(1, { error: messages.atLeast1 }).max(APPEAL_WINDOW_DAYS_MAX, { error: messages.appealWindowDays }),
  decisions_needed: requiredInt
    .min(1, { error: messages.atLeast1 })
    .max(APPEAL_DECISIONS_MAX, { error: messages.appealDecisions })
    .refine((value) => value % 2 === 1, { error: messages.appealDecisions }),
});
export type AppealsConfig = z.infer<typeof appealsConfig>;
export const DEFAULT_APPEALS_CONFIG: AppealsConfig = {
  appeals_enabled: false,
  window_days: APPEAL_WINDOW_DAYS_DEFAULT,
  decisions_needed: APPEAL_DECISIONS_DEFAULT,
};
export const appealsConfigBody = z.object({ record_update: appealsConfig });
export const appealsConfigPublic = z.object({
  row_id: z.number().int(),
  id: z.string(),
  id2: z.string(),
  config_type: z.string(),
  event: z.string(),
  value: appealsConfig,
});

// ---------- an appeal ----------

export { APPEAL_RATIONALE_MAX, APPEAL_RATIONALE_MIN, AppealDecision, appealReasonsFor } from './plain';

export const APPEAL_STATUSES = ['open', 'allocated', 'upheld', 'rejected', 'closed'] as const;
export type AppealStatusName = (typeof APPEAL_STATUSES)[number];

export const appealMessages = {
  reviewNotFound: 'The review you are looking for does not exist.',
  notFound: 'The appeal you are looking for does not exist.',
  notYours: 'You can only appeal your own review.',
  notExcluded: 'Only a review the outcomes excluded can be appealed.',
  disabled: 'Appeals are not enabled for this event.',
  notOpenYet: 'Appeals open when the review outcomes have been generated.',
  windowEnded: 'The appeal window for this event has ended.',
  scoresRan: 'Proposal scores have been generated for this event: appeals are closed.',
  already: 'You have already appealed this review; a review can be appealed once.',
  notAllocated: 'This appeal is not allocated to you.',
  decided: 'This appeal has been decided; decisions can no longer change.',
  notAllocatedYet: 'This appeal has not been allocated to moderators yet.',
  notModerator: 'You are not an active moderator of this event.',
} as const;

export const newAppeal = z.object({
  review_id: bodyRowId,
  rationale: countedText(APPEAL_RATIONALE_MIN, APPEAL_RATIONALE_MAX),
});
export type NewAppeal = z.infer<typeof newAppeal>;
export const newAppealBody = z.object({ new_appeal: newAppeal });
export const appealIdParams = z.object({ id: rowId });
export const appealReviewParams = z.object({ review_id: rowId });
export const appealListQuery = pageQuery.extend({ event_id: rowId });

export const appealDecisionFields = z
  .object({
    decision: z.union([z.literal(0), z.literal(1)], { error: moderationMessages.classificationRequired }),
    rationale: z
      .string({ error: moderationMessages.rationaleRequired })
      .refine((text) => nonWhitespaceLength(text) > 0, { error: moderationMessages.rationaleRequired })
      .refine((text) => nonWhitespaceLength(text) <= RATIONALE_MAX, { error: moderationMessages.rationaleMax }),
    predefined_reason: z.string({ error: moderationMessages.reasonRequired }).max(64),
    custom_rationale: z
      .string()
      .max(CUSTOM_REASON_MAX - 1, { error: moderationMessages.maxLength })
      .nullable()
      .default(null),
  })
  .superRefine((value, context) => {
    if (!appealReasonsFor(value.decision).includes(value.predefined_reason as ModerationReason))
      context.addIssue({ code: 'custom', path: ['predefined_reason'], message: moderationMessages.reasonRequired });
    else if (value.predefined_reason === 'other' && !value.custom_rationale?.trim())
      context.addIssue({ code: 'custom', path: ['custom_rationale'], message: moderationMessages.customRationaleRequired });
  });
export type AppealDecisionFields = z.infer<typeof appealDecisionFields>;
export const appealDecisionBody = z.object({ appeal_decision: appealDecisionFields });

export const appealDecisionPublic = z.object({
  decision: z.number().int(),
  rationale: z.string(),
  predefined_reason: z.string().nullable(),
  custom_rationale: z.string().nullable(),
  updated_at: z.string(),
});
export type AppealDecisionPublic = z.infer<typeof appealDecisionPublic>;

export const appealPublic = z.object({
  row_id: z.number().int(),
  review_id: z.number().int(),
  event_id: z.number().int(),
  proposal_title: z.string(),
  status: z.enum(APPEAL_STATUSES),
  rationale: z.string(),
  /** The review's ranking when appealed (2 or 3), and now. */
  ranking_before: z.number().int(),
  ranking: z.number().int(),
  created_at: z.string(),
  decided_at: z.string().nullable(),
  /** Moderators allocated (N), and the decisions so far. */
  decisions_needed: z.number().int(),
  upholds: z.number().int(),
  rejects: z.number().int(),
  /** The caller's own decision, when they are one of its moderators. */
  my_decision: appealDecisionPublic.nullable(),
  /** Every decision (no moderator named): to admins, and to the author once decided. */
  decisions: z.array(appealDecisionPublic).nullable(),
});
export type AppealPublic = z.infer<typeof appealPublic>;

/** Where a review stands with respect to appeals, as its author sees it. */
export const APPEAL_WINDOW_STATES = ['not_excluded', 'disabled', 'not_open_yet', 'open', 'ended', 'scores_ran'] as const;
export const appealState = z.object({
  review_id: z.number().int(),
  window: z.enum(APPEAL_WINDOW_STATES),
  /** When the window ends (or ended): the outcomes run's time plus the window's days; null before outcomes or when off. */
  ends_at: z.string().nullable(),
  can_appeal: z.boolean(),
  appeal: appealPublic.nullable(),
});
export type AppealState = z.infer<typeof appealState>;

// ---------- the allocation run ----------

export const appealAllocationParams = z.object({
  event_id: bodyRowId,
  appeal_seed: requiredInt.min(1, { error: messages.atLeast1 }),
  dry_run: z.boolean().default(true),
});
export type AppealAllocationParams = z.infer<typeof appealAllocationParams>;
export const appealAllocationParamsBody = z.object({
  allocation_params: appealAllocationParams.extend({ appeal_seed: appealAllocationParams.shape.appeal_seed.default(1) }),
});

export const appealAllocationStats = z.object({
  /**
   * Appeals that needed moderators (new ones, those left short by an earlier run, those whose moderator left the
   * pool), and how many got what they needed / fewer / none.
   */
  open_appeals: z.number().int(),
  allocated_appeals: z.number().int(),
  short_appeals: z.number().int(),
  unallocated_appeals: z.number().int(),
  decisions_needed: z.number().int(),
  tot: z.number().int(),
  nr_of_moderators: z.number().int(),
  per_moderator: averages,
  dry_run: z.boolean(),
});
export type AppealAllocationStats = z.infer<typeof appealAllocationStats>;
