import { z } from 'zod';
import { bodyRowId, fromDecimalText, pageQuery, rowId } from './common';
import { NOTE_MAX, NOTE_MIN, RATING_MAX } from './plain';
import { messages, nonWhitespaceLength, text, missingOr } from './rules';

/**
 * Reviews (spec §2.12 own-review form, §2.13, §2.15, §3 "Review", §4 "Review ranking", §5 "Review", §7 "Reviews";
 * DOMAIN.md "Reviews").
 */

// The ranking and its label live in plain.ts (no zod: the reviewer's pages read them).
export { rankingLabel, ReviewRanking } from './plain';

// In plain.ts (no zod: the web app's first load reads them); here for the schemas and their importers.
export { NOTE_MAX, NOTE_MIN, RATING_MAX };

export const reviewMessages = {
  rating: 'Rating must be between 1 and 5',
  noteMin: 'Please provide at least 200 characters',
  contentMin: (minLength: number) => `Content must be at least ${minLength} characters long (excluding spaces)`,
  contentMax: (maxLength: number, current: number) =>
    `Content must not exceed ${maxLength} characters (excluding spaces), currently ${current}`,
};

/** A rating: a whole number from 1 to 5 (a new form starts at 0, which is not yet a rating). */
export const rating = z
  .number({ error: missingOr(messages.number) })
  .int({ error: reviewMessages.rating })
  .min(1, { error: reviewMessages.rating })
  .max(RATING_MAX, { error: reviewMessages.rating });

/** A note: 200 to 3000 characters, white space not counted (spec §5; the same rule on client and server). */
/** White space is not counted, but a note of megabytes of it is refused all the same. */
export const NOTE_RAW_MAX = NOTE_MAX * 4;
export const note = text({ error: missingOr(messages.expectedText) })
  .max(NOTE_RAW_MAX, { error: messages.maxLength })
  .superRefine((value, context) => {
    const length = nonWhitespaceLength(value);
    if (length === 0) context.addIssue({ code: 'custom', message: messages.required });
    else if (length < NOTE_MIN) context.addIssue({ code: 'custom', message: reviewMessages.noteMin });
    else if (length > NOTE_MAX) context.addIssue({ code: 'custom', message: reviewMessages.contentMax(NOTE_MAX, length) });
  });

/**
 * A text counted without white space between `min` and `max` characters, with the generic messages of spec §5
 * (E-022, E-023): the review note above keeps its own message under the minimum; a moderation rationale, say, uses
 * these.
 */
export const countedText = (min: number, max: number) =>
  z
    .string({ error: missingOr(messages.expectedText) })
    .max(max * 4, { error: messages.maxLength })
    .superRefine((value, context) => {
      const length = nonWhitespaceLength(value);
      if (length < min) context.addIssue({ code: 'custom', message: reviewMessages.contentMin(min) });
      else if (length > max) context.addIssue({ code: 'custom', message: reviewMessages.contentMax(max, length) });
    });

export const reviewFields = z.object({
  impact_alignment_rating_given: rating,
  impact_alignment_note: note,
  feasibility_rating_given: rating,
  feasibility_note: note,
  auditability_rating_given: rating,
  auditability_note: note,
});
export type ReviewFields = z.infer<typeof reviewFields>;

export const newProposalReview = reviewFields.extend({ proposal_id: bodyRowId });
export type NewProposalReview = z.infer<typeof newProposalReview>;
export const newProposalReviewBody = z.object({ new_proposal_review: newProposalReview });

export const proposalReviewUpdate = reviewFields.extend({ row_id: bodyRowId });
export type ProposalReviewUpdate = z.infer<typeof proposalReviewUpdate>;
/** The API body: `row_id` may be left out, the path names the review (the reference API has none, issue 17). */
export const proposalReviewUpdateBody = z.object({ proposal_review_update: reviewFields.extend({ row_id: bodyRowId.optional() }) });

/** Spec §3 "Review". Moderation and flags arrive with the moderation issue; until then null and empty. */
export const reviewPublic = z.object({
  row_id: z.number().int(),
  proposal_id: z.number().int(),
  /** `row_id` and `pr_id`: what the reference API's `ProposalPublic` requires (issue 17). */
  proposal: z.object({
    row_id: z.number().int(),
    pr_id: z.string(),
    title: z.string(),
    url: z.string().nullable(),
    category: z.string().nullable(),
    objective_title: z.string().nullable(),
    event_id: z.number().int(),
  }),
  assessor: z.string(),
  assessor_level: z.number().int(),
  allocated: z.boolean(),
  allocated_for_moderation: z.boolean(),
  next_allocation: z.number().int().nullable(),
  ranking: z.number().int().nullable(),
  /** `review_id`: the reference API's `ModerationPublic` (issue 17). */
  moderation: z
    .object({ row_id: z.number().int(), review_id: z.number().int(), classification: z.number().int(), rationale: z.string() })
    .nullable(),
  moderated: z.boolean(),
  flags: z.array(
    z.object({
      flag_type: z.number().int(),
      score: z.number(),
      related_reviews: z.array(z.number().int()),
      related_criteria: z.array(z.string()).nullable(),
    }),
  ),
  impact_alignment_rating_given: z.number().int(),
  impact_alignment_note: z.string(),
  feasibility_rating_given: z.number().int(),
  feasibility_note: z.string(),
  auditability_rating_given: z.number().int(),
  auditability_note: z.string(),
  overall_score: z.number(),
  event: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Issue 28 item 3, the detail answer only: how many times the review was edited (its versions less the create). */
  edit_count: z.number().int().optional(),
  /**
   * Issue 28 item 3, the detail answer only, to the moderator who moderated it: whether the review changed after
   * their moderation (its last version is newer than their moderation's last change).
   */
  changed_after_moderation: z.boolean().optional(),
});
export type ReviewPublic = z.infer<typeof reviewPublic>;

/** The mean of the three ratings, to one decimal (spec §5: displayed ratings round to one decimal). */
export const overallScore = (
  review: Pick<ReviewFields, 'impact_alignment_rating_given' | 'feasibility_rating_given' | 'auditability_rating_given'>,
) =>
  Math.round(((review.impact_alignment_rating_given + review.feasibility_rating_given + review.auditability_rating_given) / 3) * 10) / 10;

const arrayParam = <T extends z.ZodType>(item: T) =>
  z.preprocess((value) => (value === undefined || Array.isArray(value) ? value : [value]), z.array(item).max(100).optional());
const boolParam = z.preprocess(
  (value) => (value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value),
  z.boolean().optional(),
);

/** Spec §2.13 filters (array filters repeat the key, docs/architecture.md). */
export const reviewsFilterQuery = pageQuery.extend({
  proposal_id: rowId.optional(),
  /** With rankings: also the pending ones. */
  include_pending: boolParam,
  /** Part of the proposal's title. */
  proposal: text()
    .max(200)
    .optional()
    .transform((value) => value?.trim() || undefined),
  /** The objective (category): its id, or (as the reference API sends it) its title. */
  objective: text()
    .trim()
    .max(200)
    .optional()
    .transform((value) => (value ? (/^[1-9]\d{0,9}$/.test(value) && Number(value) <= 2_147_483_647 ? Number(value) : value) : undefined)),
  /** Only the caller's own reviews (logged in). */
  my_reviews: boolParam,
  assessors: arrayParam(text().trim().min(1).max(40)),
  rankings: arrayParam(fromDecimalText(z.number().int().min(0).max(3))),
  /** The reference API's names for `assessors` and `rankings` (issue 17). */
  assessor: arrayParam(text().trim().min(1).max(40)),
  rankings_included: arrayParam(fromDecimalText(z.number().int().min(0).max(3))),
  event_id: rowId.optional(),
});
/** The same filters for a count (`…/count/`): no page. */
export const reviewsCountQuery = reviewsFilterQuery.omit({ size: true, page: true });
export type ReviewsCountQuery = z.infer<typeof reviewsCountQuery>;
export type ReviewsFilterQuery = z.infer<typeof reviewsFilterQuery>;

export const byIdsQuery = z.object({
  /** No ids: no reviews (the reference API's `ids` is optional). */
  ids: z.preprocess((value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]), z.array(rowId).max(500)),
});
export const reviewIdParams = z.object({ id: rowId });
