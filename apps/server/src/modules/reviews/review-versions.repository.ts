import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { namedRows } from '../../db/named-statements';
import { moderationContent, reviewContent } from '../../db/version-content';
import { catalystIds, moderations, reviews, reviewVersions, subscriptions, users } from '../../db/schema/index';
import type { ReviewInsert } from './reviews.repository';

/*
 * Issue 28 item 3: every create, edit and delete of a review writes a version (who, when, the whole content) in the
 * statement of the change itself: a data-modifying CTE is one statement, so the version exists exactly when the
 * change does, at the cost of no extra round trip (the submit is the hot path of a round's last hour). A delete also
 * keeps a 'delete' version of each moderation the review's delete takes with it.
 */

const versionColumns = sql.raw('(review_id, event_id, proposal_id, subscription_id, version, action, actor_user_id, content, created_at)');

/** The next version number of the review in `alias`'s row: one more than its last (1 when it has none). */
const nextVersion = (alias: string) =>
  sql.raw(`coalesce((select max(v.version) from review_versions v where v.review_id = ${alias}.id), 0) + 1`);

interface WrittenRow {
  id: number;
  ranking: number;
  created_at: Date | string;
  updated_at: Date | string;
}
const asReview = (values: ReviewInsert, row: WrittenRow) => ({
  ...values,
  categoryId: values.categoryId ?? null,
  id: row.id,
  ranking: row.ranking,
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

/** Inserts a review and its version 1 ('create', by `actorUserId`) in one statement; answers the review's row. */
export async function insertReviewWithVersion(db: DbOrTx, values: ReviewInsert, actorUserId: number | null) {
  const [row] = await namedRows<WrittenRow>(
    db,
    'review_insert_versioned',
    sql`with r as (insert into ${reviews} (event_id, proposal_id, category_id, subscription_id, impact_alignment_rating_given,
        impact_alignment_note, feasibility_rating_given, feasibility_note, auditability_rating_given, auditability_note)
      values (${values.eventId}, ${values.proposalId}, ${values.categoryId ?? null}, ${values.subscriptionId}, ${values.impactRating},
        ${values.impactNote}, ${values.feasibilityRating}, ${values.feasibilityNote}, ${values.auditabilityRating}, ${values.auditabilityNote})
      returning *),
    v as (insert into ${reviewVersions} ${versionColumns}
      select r.id, r.event_id, r.proposal_id, r.subscription_id, 1, 'create', ${actorUserId}::int, ${reviewContent('r')}, r.created_at from r)
    select r.id, r.ranking, r.created_at, r.updated_at from r`,
  );
  return asReview(values, row!);
}

/** The six fields a review's edit changes. */
export type ReviewChange = Pick<
  ReviewInsert,
  'impactRating' | 'impactNote' | 'feasibilityRating' | 'feasibilityNote' | 'auditabilityRating' | 'auditabilityNote'
>;

/**
 * Changes a review and writes its next version ('edit') in one statement. Two edits of one review at the same instant
 * may compute the same number: the unique (review_id, version) key refuses the second (the service answers 409).
 */
export async function updateReviewWithVersion(db: DbOrTx, id: number, change: ReviewChange, actorUserId: number | null) {
  await namedRows(
    db,
    'review_update_versioned',
    sql`with u as (update ${reviews} set impact_alignment_rating_given = ${change.impactRating}, impact_alignment_note = ${change.impactNote},
        feasibility_rating_given = ${change.feasibilityRating}, feasibility_note = ${change.feasibilityNote},
        auditability_rating_given = ${change.auditabilityRating}, auditability_note = ${change.auditabilityNote}, updated_at = now()
      where id = ${id} returning *)
    insert into ${reviewVersions} ${versionColumns}
      select u.id, u.event_id, u.proposal_id, u.subscription_id, ${nextVersion('u')}, 'edit', ${actorUserId}::int, ${reviewContent('u')}, u.updated_at
      from u`,
  );
}

/**
 * Deletes a review and writes its last version ('delete', the content as it was) in one statement, with a 'delete'
 * version of each moderation the delete cascades to (every part of the statement reads the rows as they were before).
 */
export async function deleteReviewWithVersion(db: DbOrTx, id: number, actorUserId: number | null) {
  await namedRows(
    db,
    'review_delete_versioned',
    sql`with d as (delete from ${reviews} where id = ${id} returning *),
    mv as (insert into moderation_versions (moderation_id, review_id, event_id, subscription_id, version, action, actor_user_id, content, created_at)
      select m.id, m.review_id, m.event_id, m.subscription_id,
        coalesce((select max(v.version) from moderation_versions v where v.moderation_id = m.id), 0) + 1, 'delete', ${actorUserId}::int,
        ${moderationContent('m')}, now()
      from ${moderations} m join d on d.id = m.review_id)
    insert into ${reviewVersions} ${versionColumns}
      select d.id, d.event_id, d.proposal_id, d.subscription_id, ${nextVersion('d')}, 'delete', ${actorUserId}::int, ${reviewContent('d')}, now()
      from d`,
  );
}

/**
 * Writes a version 1 ('create', by the author) for each review of the event that has none: for writers that insert
 * review rows in bulk (the demo's rounds), as migration 0014 backfilled them.
 */
export async function recordMissingReviewVersions(db: DbOrTx, eventId: number) {
  await db.execute(sql`insert into ${reviewVersions} ${versionColumns}
    select r.id, r.event_id, r.proposal_id, r.subscription_id, 1, 'create', s.user_id, ${reviewContent('r')}, r.created_at
    from ${reviews} r join ${subscriptions} s on s.id = r.subscription_id
    where r.event_id = ${eventId} and not exists (select 1 from ${reviewVersions} v where v.review_id = r.id)`);
}

/** A review's versions, oldest first, with the actor's Catalyst ID and the review's anonymous id. */
export async function listReviewVersions(db: DbOrTx, reviewId: number) {
  return db
    .select({
      version: reviewVersions,
      actorCatalystId: catalystIds.catalystId,
      authorUserId: subscriptions.userId,
      anonymousId: subscriptions.anonymousId,
    })
    .from(reviewVersions)
    .leftJoin(users, eq(users.id, reviewVersions.actorUserId))
    .leftJoin(catalystIds, eq(catalystIds.id, users.catalystIdRef))
    .leftJoin(subscriptions, eq(subscriptions.id, reviewVersions.subscriptionId))
    .where(eq(reviewVersions.reviewId, reviewId))
    .orderBy(asc(reviewVersions.version));
}
