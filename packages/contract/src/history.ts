import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, pageQuery, rowId } from './common';
import { text } from './rules';

/**
 * Issue 28 items 3 and 4: the versions of a review (every create, edit and delete, with the whole content) and the
 * admin audit log's filters.
 */

export const VERSION_ACTIONS = ['create', 'edit', 'delete'] as const;
export type VersionAction = (typeof VERSION_ACTIONS)[number];

/** A review's content as a version keeps it: the ratings and notes, under the review answer's names. */
export const reviewVersionContent = z.object({
  impact_alignment_rating_given: z.number().int(),
  impact_alignment_note: z.string(),
  feasibility_rating_given: z.number().int(),
  feasibility_note: z.string(),
  auditability_rating_given: z.number().int(),
  auditability_note: z.string(),
});
export type ReviewVersionContent = z.infer<typeof reviewVersionContent>;

export const reviewVersion = z.object({
  version: z.number().int(),
  action: z.enum(VERSION_ACTIONS),
  created_at: z.string(),
  /**
   * Who made the change: to an admin the actor's Catalyst ID; to the review's author the review's anonymous id (the
   * only one who changes a review is its author). Null when the account is gone.
   */
  actor: z.string().nullable(),
  /** Whether the change was made by the review's author (and not, say, by an operator). */
  by_author: z.boolean(),
  /** The review after the change (before it, for a delete). */
  content: reviewVersionContent,
});
export type ReviewVersion = z.infer<typeof reviewVersion>;

/** `GET proposal-reviews/{id}/versions/`: oldest first; `deleted` when the review is gone (admins only then). */
export const reviewVersions = z.object({
  review_id: z.number().int(),
  deleted: z.boolean(),
  versions: z.array(reviewVersion),
});
export type ReviewVersions = z.infer<typeof reviewVersions>;

/** A moderation's content as a version keeps it. */
export const moderationVersionContent = z.object({
  classification: z.number().int(),
  rationale: z.string(),
  predefined_reason: z.string().nullable(),
  custom_rationale: z.string().nullable(),
});
export type ModerationVersionContent = z.infer<typeof moderationVersionContent>;

export const moderationVersion = z.object({
  version: z.number().int(),
  action: z.enum(VERSION_ACTIONS),
  created_at: z.string(),
  /** To an admin the actor's Catalyst ID; to the moderator the moderation's anonymous id. Null when unknown. */
  actor: z.string().nullable(),
  /** The moderation after the change (before it, for a delete). */
  content: moderationVersionContent,
});
export type ModerationVersion = z.infer<typeof moderationVersion>;

/**
 * `GET moderations/by-review/{review_id}/versions/`: the versions of the review's moderations, oldest moderation
 * first. Admins get every moderation's (a deleted one's too, and a deleted review's); a moderator gets those of their
 * own moderations still there.
 */
export const moderationVersionsOfReview = z.object({
  review_id: z.number().int(),
  moderations: z.array(
    z.object({
      moderation_id: z.number().int(),
      /** The moderator's anonymous id for the event. */
      moderator: z.string().nullable(),
      deleted: z.boolean(),
      versions: z.array(moderationVersion),
    }),
  ),
});
export type ModerationVersionsOfReview = z.infer<typeof moderationVersionsOfReview>;

/** "edited N times": the versions less the create, never counting a delete. */
export const editCount = (versions: { action: VersionAction }[]) => versions.filter((version) => version.action === 'edit').length;

/** The admin audit log (issue 28 item 4): 25 entries a page. */
export const AUDIT_PAGE_SIZE = DEFAULT_PAGE_SIZE;

/** Pages of `size` (default 25). */
export const auditQuery = pageQuery.extend({
  event_id: rowId.optional(),
  /** An audited action exactly, e.g. `review_outcomes_generated`. */
  action: text()
    .trim()
    .max(80)
    .regex(/^[a-z0-9_.:-]*$/i, { error: 'Unknown action' })
    .optional()
    .transform((value) => value || undefined),
  /** The actor's Catalyst ID exactly (case aside). */
  actor: text()
    .trim()
    .max(200)
    .optional()
    .transform((value) => value || undefined),
});
export type AuditQuery = z.infer<typeof auditQuery>;

/** `GET admin/audit/actions/`: the actions the log holds, for the filter's choices. */
export const auditActions = z.array(z.string());
