import { sql } from 'drizzle-orm';

/*
 * Issue 28 item 3: the whole content a review's or a moderation's version keeps, under the API's names, built from a
 * row of `reviews` or `moderations` named `alias` in the statement (shared: a review's delete writes the versions of
 * the moderations it cascades to).
 */

/** A review's ratings and notes. */
export const reviewContent = (alias: string) =>
  sql.raw(`jsonb_build_object('impact_alignment_rating_given', ${alias}.impact_alignment_rating_given,
    'impact_alignment_note', ${alias}.impact_alignment_note, 'feasibility_rating_given', ${alias}.feasibility_rating_given,
    'feasibility_note', ${alias}.feasibility_note, 'auditability_rating_given', ${alias}.auditability_rating_given,
    'auditability_note', ${alias}.auditability_note)`);

/** A moderation's classification, rationale, predefined reason and custom rationale. */
export const moderationContent = (alias: string) =>
  sql.raw(`jsonb_build_object('classification', ${alias}.classification, 'rationale', ${alias}.rationale,
    'predefined_reason', ${alias}.predefined_reason, 'custom_rationale', ${alias}.custom_rationale)`);
