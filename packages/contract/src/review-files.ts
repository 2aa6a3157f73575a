import { z } from 'zod';

/**
 * Offline review files (issue 29 item 2): "Download my allocation" gives a file with each allocated proposal and an
 * empty review form (or the reviewer's review as it stands, with its version); the filled file comes back through a
 * dry run, then a confirmed run. A review changed online since the file was made is never overwritten: the upload
 * reports a conflict.
 *
 * The JSON file (`format` and `version` name it):
 * ```json
 * { "format": "community-review/review-file", "version": 1, "generated_at": "2026-11-27T10:00:00.000Z",
 *   "reviews": [ { "proposal_id": 12, "proposal_title": "…", "proposal_url": "https://…/proposal/12", "summary": "…",
 *     "review_id": null, "base_version": null,
 *     "impact_alignment_rating_given": null, "impact_alignment_note": "",
 *     "feasibility_rating_given": null, "feasibility_note": "",
 *     "auditability_rating_given": null, "auditability_note": "" } ] }
 * ```
 * Ratings are 1–5 and notes 200–5,000 characters (the review form's rules); an entry left empty is skipped.
 */
export const REVIEW_FILE_FORMAT = 'community-review/review-file';
export const REVIEW_FILE_VERSION = 1;
export const REVIEW_FILE_MAX_ENTRIES = 2000;

const nullableRating = z.number().int().nullable();
const noteText = z.string().max(20_000);

export const reviewFileEntry = z.object({
  proposal_id: z.number().int().min(1),
  proposal_title: z.string().max(2000).optional(),
  proposal_url: z.string().max(2000).nullable().optional(),
  summary: z.string().max(100_000).nullable().optional(),
  /** The review the entry edits (null: a new review). */
  review_id: z.number().int().min(1).nullable(),
  /** The review's version when the file was made: an upload changes the review only if it is still that version. */
  base_version: z.number().int().min(1).nullable(),
  impact_alignment_rating_given: nullableRating,
  impact_alignment_note: noteText,
  feasibility_rating_given: nullableRating,
  feasibility_note: noteText,
  auditability_rating_given: nullableRating,
  auditability_note: noteText,
});
export type ReviewFileEntry = z.infer<typeof reviewFileEntry>;

export const reviewFile = z.object({
  format: z.literal(REVIEW_FILE_FORMAT),
  version: z.literal(REVIEW_FILE_VERSION),
  generated_at: z.string().max(100).optional(),
  reviews: z.array(reviewFileEntry).max(REVIEW_FILE_MAX_ENTRIES),
});
export type ReviewFile = z.infer<typeof reviewFile>;

export const reviewFileQuery = z.object({ format: z.enum(['json', 'markdown']).default('json') });

export const reviewFileUploadBody = z.object({ review_file: reviewFile, dry_run: z.boolean().default(true) });

const named = z.object({ proposal_id: z.number().int(), proposal_title: z.string() });
export const reviewFileResult = z.object({
  dry_run: z.boolean(),
  /** What the run did (a dry run: would do). */
  created: z.array(named.extend({ review_id: z.number().int().nullable() })),
  updated: z.array(named.extend({ review_id: z.number().int() })),
  unchanged: z.array(named),
  skipped: z.array(named),
  /** Changed online since the file was made (or gone): not written. */
  conflicts: z.array(named.extend({ message: z.string() })),
  /** The entries' errors, each naming its proposal and field; a real run with any writes nothing. */
  errors: z.array(named.extend({ field: z.string(), message: z.string() })),
  /** A write the server refused during the real run (the window closed meanwhile, say). */
  refused: z.array(named.extend({ message: z.string() })),
});
export type ReviewFileResult = z.infer<typeof reviewFileResult>;

export const reviewFileMessages = {
  notAllocated: 'This proposal is not allocated to you in a current round.',
  changedOnline: (current: number, base: number | null) =>
    `The review was changed online since the file was made (it is at version ${current}; the file has ${base ?? 'none'}). Download the file again.`,
  deletedOnline: 'The review was deleted online since the file was made.',
  existsOnline: 'You reviewed this proposal online since the file was made. Download the file again.',
  hasErrors: 'The file has errors: nothing was written. Correct them and upload it again.',
};
