import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { namedRows } from '../../db/named-statements';
import { catalystIds, moderations, moderationVersions, subscriptions, users } from '../../db/schema/index';
import { moderationContent } from '../../db/version-content';
import type { ModerationInsert } from './moderations.repository';

/*
 * Issue 28 item 3: every create, edit and delete of a moderation writes a version (who, when, the whole content) in
 * the statement of the change itself (a data-modifying CTE), as reviews do (reviews/review-versions.repository.ts).
 */

const versionColumns = sql.raw(
  '(moderation_id, review_id, event_id, subscription_id, version, action, actor_user_id, content, created_at)',
);
const nextVersion = (alias: string) =>
  sql.raw(`coalesce((select max(v.version) from moderation_versions v where v.moderation_id = ${alias}.id), 0) + 1`);

type ModerationRow = typeof moderations.$inferSelect;
interface RawRow {
  id: number;
  event_id: number;
  review_id: number;
  subscription_id: number;
  classification: number;
  rationale: string;
  predefined_reason: string | null;
  custom_rationale: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}
const asModeration = (row: RawRow): ModerationRow => ({
  id: row.id,
  eventId: row.event_id,
  reviewId: row.review_id,
  subscriptionId: row.subscription_id,
  classification: row.classification,
  rationale: row.rationale,
  predefinedReason: row.predefined_reason,
  customRationale: row.custom_rationale,
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});

/** Inserts a moderation and its version 1 ('create') in one statement. */
export async function insertModerationWithVersion(db: DbOrTx, values: ModerationInsert, actorUserId: number | null) {
  const [row] = await namedRows<RawRow>(
    db,
    'moderation_insert_versioned',
    sql`with m as (insert into ${moderations} (event_id, review_id, subscription_id, classification, rationale, predefined_reason, custom_rationale)
      values (${values.eventId}, ${values.reviewId}, ${values.subscriptionId}, ${values.classification}, ${values.rationale},
        ${values.predefinedReason ?? null}, ${values.customRationale ?? null}) returning *),
    v as (insert into ${moderationVersions} ${versionColumns}
      select m.id, m.review_id, m.event_id, m.subscription_id, 1, 'create', ${actorUserId}::int, ${moderationContent('m')}, m.created_at from m)
    select * from m`,
  );
  return asModeration(row!);
}

/** Changes a moderation and writes its next version ('edit') in one statement; answers the changed row. */
export async function updateModerationWithVersion(
  db: DbOrTx,
  id: number,
  change: Pick<ModerationInsert, 'classification' | 'rationale' | 'predefinedReason' | 'customRationale'>,
  actorUserId: number | null,
) {
  const [row] = await namedRows<RawRow>(
    db,
    'moderation_update_versioned',
    sql`with u as (update ${moderations} set classification = ${change.classification}, rationale = ${change.rationale},
        predefined_reason = ${change.predefinedReason ?? null}, custom_rationale = ${change.customRationale ?? null}, updated_at = now()
      where id = ${id} returning *),
    v as (insert into ${moderationVersions} ${versionColumns}
      select u.id, u.review_id, u.event_id, u.subscription_id, ${nextVersion('u')}, 'edit', ${actorUserId}::int, ${moderationContent('u')}, u.updated_at
      from u)
    select * from u`,
  );
  return asModeration(row!);
}

/** Deletes a moderation and writes its last version ('delete', the content as it was) in one statement. */
export async function deleteModerationWithVersion(db: DbOrTx, id: number, actorUserId: number | null) {
  await namedRows(
    db,
    'moderation_delete_versioned',
    sql`with d as (delete from ${moderations} where id = ${id} returning *)
    insert into ${moderationVersions} ${versionColumns}
      select d.id, d.review_id, d.event_id, d.subscription_id, ${nextVersion('d')}, 'delete', ${actorUserId}::int, ${moderationContent('d')}, now()
      from d`,
  );
}

/** A version 1 ('create', by the moderator) for each moderation of the event that has none (bulk writers: the demo). */
export async function recordMissingModerationVersions(db: DbOrTx, eventId: number) {
  await db.execute(sql`insert into ${moderationVersions} ${versionColumns}
    select m.id, m.review_id, m.event_id, m.subscription_id, 1, 'create', s.user_id, ${moderationContent('m')}, m.created_at
    from ${moderations} m join ${subscriptions} s on s.id = m.subscription_id
    where m.event_id = ${eventId} and not exists (select 1 from ${moderationVersions} v where v.moderation_id = m.id)`);
}

/**
 * The versions of a review's moderations, oldest moderation and version first, with the actor's Catalyst ID, the
 * moderator (user id, anonymous id) and whether the moderation is gone.
 */
export function listModerationVersionsOfReview(db: DbOrTx, reviewId: number) {
  return db
    .select({
      version: moderationVersions,
      actorCatalystId: catalystIds.catalystId,
      moderatorUserId: subscriptions.userId,
      anonymousId: subscriptions.anonymousId,
      deleted: sql<boolean>`not exists (select 1 from ${moderations} m where m.id = ${moderationVersions.moderationId})`,
    })
    .from(moderationVersions)
    .leftJoin(users, eq(users.id, moderationVersions.actorUserId))
    .leftJoin(catalystIds, eq(catalystIds.id, users.catalystIdRef))
    .leftJoin(subscriptions, eq(subscriptions.id, moderationVersions.subscriptionId))
    .where(eq(moderationVersions.reviewId, reviewId))
    .orderBy(asc(moderationVersions.moderationId), asc(moderationVersions.version));
}
