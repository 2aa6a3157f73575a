import { ReviewerLevel, SubscriptionStatus } from '@cr/contract/subscriptions';
import type { AppealStatusName } from '@cr/contract/appeals';
import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { inModeratorPool } from '../../db/rules';
import {
  appealAllocations,
  appealDecisions,
  appeals,
  auditLog,
  configs,
  moderationAllocations,
  moderations,
  proposals,
  reviews,
  subscriptions,
} from '../../db/schema/index';

/** The review an appeal is about, with its author (user id) and its proposal's title and objective. */
export async function findReview(db: DbOrTx, reviewId: number) {
  const rows = await db
    .select({
      id: reviews.id,
      eventId: reviews.eventId,
      categoryId: reviews.categoryId,
      ranking: reviews.ranking,
      subscriptionId: reviews.subscriptionId,
      authorUserId: subscriptions.userId,
    })
    .from(reviews)
    .innerJoin(subscriptions, eq(subscriptions.id, reviews.subscriptionId))
    .where(eq(reviews.id, reviewId))
    .limit(1);
  return rows[0];
}

/** When the event's review outcomes ran (their audit entry, written in the run's transaction), or undefined. */
export async function outcomesRanAt(db: DbOrTx, eventId: number): Promise<Date | undefined> {
  const rows = await db
    .select({ at: auditLog.createdAt })
    .from(auditLog)
    .where(and(eq(auditLog.eventId, eventId), eq(auditLog.action, 'reviews.outcomes')))
    .orderBy(desc(auditLog.id))
    .limit(1);
  return rows[0]?.at;
}

/** The event's run flags (the admin runs' record of what ran). */
export async function runFlags(db: DbOrTx, eventId: number): Promise<Record<string, boolean>> {
  const rows = await db
    .select({ value: configs.value })
    .from(configs)
    .where(and(eq(configs.kind, 'allocations'), eq(configs.eventId, eventId)))
    .limit(1);
  return (rows[0]?.value as Record<string, boolean> | undefined) ?? {};
}

/** The appeal's id, always qualified: drizzle leaves a lone table's columns unqualified, and `id` in a subquery is its own. */
const appealId = sql.raw('"appeals"."id"');
/**
 * N (the appeal's own), and the upholds and rejects of the moderators who are still in the event's moderator pool
 * (a banned moderator's decision no longer counts: the next allocation run replaces them).
 */
const counted = {
  needed: sql<number>`${appeals.decisionsNeeded}::int`,
  upholds: sql<number>`(select count(*)::int from ${appealDecisions} ad where ad.appeal_id = ${appealId} and ad.decision = 1
    and ${inModeratorPool(sql`ad.subscription_id`)})`,
  rejects: sql<number>`(select count(*)::int from ${appealDecisions} ad where ad.appeal_id = ${appealId} and ad.decision = 0
    and ${inModeratorPool(sql`ad.subscription_id`)})`,
};

/** Appeals with what their answer shows: the review's ranking and author, the proposal's title, the counts. */
function appealQuery(db: DbOrTx) {
  return db
    .select({
      appeal: appeals,
      ranking: reviews.ranking,
      authorUserId: subscriptions.userId,
      proposalTitle: proposals.title,
      ...counted,
    })
    .from(appeals)
    .innerJoin(reviews, eq(reviews.id, appeals.reviewId))
    .innerJoin(proposals, eq(proposals.id, reviews.proposalId))
    .innerJoin(subscriptions, eq(subscriptions.id, appeals.subscriptionId));
}

export async function findAppeal(db: DbOrTx, where: { id: number } | { reviewId: number }) {
  const rows = await appealQuery(db)
    .where('id' in where ? eq(appeals.id, where.id) : eq(appeals.reviewId, where.reviewId))
    .limit(1);
  return rows[0];
}
export type AppealRow = NonNullable<Awaited<ReturnType<typeof findAppeal>>>;

async function pageOf(db: DbOrTx, where: SQL, page: { size: number; page: number }) {
  const [rows, [total]] = await Promise.all([
    appealQuery(db)
      .where(where)
      .orderBy(desc(appeals.id))
      .limit(page.size)
      .offset(page.page * page.size),
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(appeals)
      .innerJoin(subscriptions, eq(subscriptions.id, appeals.subscriptionId))
      .where(where),
  ]);
  return { rows, total: total?.count ?? 0 };
}

/** The user's own appeals (any event), newest first. */
export const appealsOfAuthor = (db: DbOrTx, userId: number, page: { size: number; page: number }) =>
  pageOf(db, eq(subscriptions.userId, userId), page);

/** The appeals allocated to any of the user's subscriptions, newest first. */
export const appealsAllocatedTo = (db: DbOrTx, userId: number, page: { size: number; page: number }) =>
  pageOf(
    db,
    sql`${appeals.id} in (select aa.appeal_id from ${appealAllocations} aa join ${subscriptions} s on s.id = aa.subscription_id
      where s.user_id = ${userId})`,
    page,
  );

/** An event's appeals, newest first (admins). */
export const appealsOfEvent = (db: DbOrTx, eventId: number, page: { size: number; page: number }) =>
  pageOf(db, eq(appeals.eventId, eventId), page);

/** Every decision on an appeal (no moderator named), oldest first. */
export function decisionsOf(db: DbOrTx, appealIds: number[]) {
  if (appealIds.length === 0) return Promise.resolve([]);
  return db.select().from(appealDecisions).where(inArray(appealDecisions.appealId, appealIds)).orderBy(asc(appealDecisions.id));
}

/** The user's allocations to appeals: their subscription allocated to each, whether it is active LV2, and their decision. */
export async function allocationsOf(db: DbOrTx, userId: number, appealIds: number[]) {
  if (appealIds.length === 0) return [];
  return db
    .select({
      appealId: appealAllocations.appealId,
      subscriptionId: subscriptions.id,
      active: sql<boolean>`${subscriptions.status} = ${SubscriptionStatus.active} and ${subscriptions.role} = ${ReviewerLevel.level_2}`,
      decision: appealDecisions,
    })
    .from(appealAllocations)
    .innerJoin(subscriptions, eq(subscriptions.id, appealAllocations.subscriptionId))
    .leftJoin(
      appealDecisions,
      and(eq(appealDecisions.appealId, appealAllocations.appealId), eq(appealDecisions.subscriptionId, subscriptions.id)),
    )
    .where(and(inArray(appealAllocations.appealId, appealIds), eq(subscriptions.userId, userId)));
}

/** The user's allocation to one appeal (see allocationsOf). */
export async function allocationOf(db: DbOrTx, userId: number, appealId: number) {
  return (await allocationsOf(db, userId, [appealId]))[0];
}

export async function insertAppeal(
  tx: DbOrTx,
  values: { eventId: number; reviewId: number; subscriptionId: number; rationale: string; rankingBefore: number; decisionsNeeded: number },
) {
  const [row] = await tx.insert(appeals).values(values).returning();
  return row!;
}

/** Locks an appeal's row for a decision; answers its status. */
export async function lockAppeal(tx: DbOrTx, id: number) {
  const rows = await tx.select({ status: appeals.status }).from(appeals).where(eq(appeals.id, id)).for('update');
  return rows[0]?.status;
}

export async function upsertDecision(
  tx: DbOrTx,
  values: {
    appealId: number;
    subscriptionId: number;
    decision: number;
    rationale: string;
    predefinedReason: string;
    customRationale: string | null;
  },
) {
  const { appealId: _a, subscriptionId: _s, ...change } = values;
  await tx
    .insert(appealDecisions)
    .values(values)
    .onConflictDoUpdate({ target: [appealDecisions.appealId, appealDecisions.subscriptionId], set: { ...change, updatedAt: new Date() } });
}

export async function countDecisions(tx: DbOrTx, appealId: number) {
  const [row] = await tx.select(counted).from(appeals).where(eq(appeals.id, appealId));
  return row!;
}

export async function setStatus(tx: DbOrTx, id: number, status: AppealStatusName, decided: boolean) {
  await tx
    .update(appeals)
    .set({ status, ...(decided ? { decidedAt: new Date() } : {}) })
    .where(eq(appeals.id, id));
}

export async function setReviewRanking(tx: DbOrTx, reviewId: number, ranking: number) {
  await tx.update(reviews).set({ ranking }).where(eq(reviews.id, reviewId));
}

// ---------- the allocation run ----------

/**
 * The event's undecided appeals with fewer allocated moderators in the pool than their N: open ones, those allocated
 * to fewer (too few were eligible then), and those whose moderator left the pool. With each: its review's author
 * (user id) and objective, how many more moderators it needs, and the moderators (user ids) never fresh for it: who
 * moderated the review or was allocated to moderate it, and who was allocated to the appeal already.
 */
export function appealsToAllocate(db: DbOrTx, eventId: number) {
  const allocatedInPool = sql`(select count(*)::int from ${appealAllocations} aa where aa.appeal_id = ${appealId}
    and ${inModeratorPool(sql`aa.subscription_id`)})`;
  return db
    .select({
      id: appeals.id,
      reviewer: subscriptions.userId,
      category: reviews.categoryId,
      need: sql<number>`(${appeals.decisionsNeeded} - ${allocatedInPool})::int`,
      excluded: sql<number[]>`array(select s2.user_id from ${subscriptions} s2 where s2.id in (
        select ma.subscription_id from ${moderationAllocations} ma where ma.review_id = ${appeals.reviewId}
        union select m.subscription_id from ${moderations} m where m.review_id = ${appeals.reviewId}
        union select aa.subscription_id from ${appealAllocations} aa where aa.appeal_id = ${appealId}))`,
    })
    .from(appeals)
    .innerJoin(reviews, eq(reviews.id, appeals.reviewId))
    .innerJoin(subscriptions, eq(subscriptions.id, appeals.subscriptionId))
    .where(
      and(
        eq(appeals.eventId, eventId),
        inArray(appeals.status, ['open', 'allocated']),
        sql`${allocatedInPool} < ${appeals.decisionsNeeded}`,
      ),
    )
    .orderBy(asc(appeals.id));
}

export async function insertAllocations(tx: DbOrTx, pairs: { appealId: number; subscriptionId: number }[]) {
  if (pairs.length === 0) return;
  await tx.insert(appealAllocations).values(pairs);
  await tx
    .update(appeals)
    .set({ status: 'allocated' })
    .where(and(inArray(appeals.id, [...new Set(pairs.map((pair) => pair.appealId))]), eq(appeals.status, 'open')));
}

/** Closes the event's undecided appeals (proposal scores ran); answers their ids. */
export async function closeUndecided(tx: DbOrTx, eventId: number) {
  const rows = await tx
    .update(appeals)
    .set({ status: 'closed', decidedAt: new Date() })
    .where(and(eq(appeals.eventId, eventId), inArray(appeals.status, ['open', 'allocated'])))
    .returning({ id: appeals.id });
  return rows.map((row) => row.id);
}
