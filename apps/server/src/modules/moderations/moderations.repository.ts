import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { ReviewerLevel, SubscriptionStatus } from '@cr/contract/subscriptions';
import type { DbOrTx } from '../../db/client';
import * as records from '../../db/config-records';
import {
  catalystIds,
  moderationAllocations,
  moderations,
  proposals,
  reviewFlags,
  reviews,
  subscriptions,
  users,
} from '../../db/schema/index';

export type ModerationInsert = typeof moderations.$inferInsert;

const moderationColumns = { moderation: moderations, publicContact: subscriptions.publicContact };

/** A moderation with its moderator's public contact (the service decides who sees it). */
export async function findModeration(db: DbOrTx, id: number) {
  const rows = await db
    .select(moderationColumns)
    .from(moderations)
    .innerJoin(subscriptions, eq(subscriptions.id, moderations.subscriptionId))
    .where(eq(moderations.id, id))
    .limit(1);
  return rows[0];
}
export type ModerationRow = NonNullable<Awaited<ReturnType<typeof findModeration>>>;

export async function moderationsOfReview(db: DbOrTx, reviewId: number) {
  return db
    .select(moderationColumns)
    .from(moderations)
    .innerJoin(subscriptions, eq(subscriptions.id, moderations.subscriptionId))
    .where(eq(moderations.reviewId, reviewId))
    .orderBy(asc(moderations.id));
}

export async function insertModeration(db: DbOrTx, values: ModerationInsert) {
  return (await db.insert(moderations).values(values).returning())[0]!;
}

export async function updateModeration(db: DbOrTx, id: number, values: Partial<ModerationInsert>) {
  return (
    await db
      .update(moderations)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(moderations.id, id))
      .returning()
  )[0]!;
}

export async function deleteModeration(db: DbOrTx, id: number) {
  await db.delete(moderations).where(eq(moderations.id, id));
}

/** The review a moderation is about: its event and proposal (for the conflict-of-interest check). */
export async function findReviewForModeration(db: DbOrTx, reviewId: number) {
  const rows = await db
    .select({ id: reviews.id, eventId: reviews.eventId, proposalId: reviews.proposalId, categoryId: proposals.categoryId })
    .from(reviews)
    .innerJoin(proposals, eq(proposals.id, reviews.proposalId))
    .where(eq(reviews.id, reviewId))
    .limit(1);
  return rows[0];
}

/**
 * In one query, what a moderation write needs to know about its writer: their active LV2 subscription to the event
 * (DOMAIN.md decision 5), their account's status, on-chain registration and Catalyst ID, and whether the review is
 * allocated to that subscription.
 */
export async function moderatorContext(db: DbOrTx, userId: number, eventId: number, reviewId: number) {
  const rows = await db
    .select({
      subscriptionId: subscriptions.id,
      publicContact: subscriptions.publicContact,
      status: catalystIds.status,
      rbacRegStatus: catalystIds.rbacRegStatus,
      catalystId: catalystIds.catalystId,
      allocated: sql<boolean>`exists (select 1 from ${moderationAllocations} a where a.subscription_id = ${subscriptions.id} and a.review_id = ${reviewId})`,
    })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .innerJoin(catalystIds, eq(catalystIds.id, users.catalystIdRef))
    .where(
      and(
        eq(subscriptions.userId, userId),
        eq(subscriptions.eventId, eventId),
        eq(subscriptions.role, ReviewerLevel.level_2),
        eq(subscriptions.status, SubscriptionStatus.active),
      ),
    )
    .limit(1);
  return rows[0];
}

/** The user's LV2 subscriptions, and whether each is active (may moderate, DOMAIN.md decision 5). */
export async function moderatorSubscriptions(db: DbOrTx, userId: number) {
  return db
    .select({ id: subscriptions.id, active: sql<boolean>`${subscriptions.status} = ${SubscriptionStatus.active}` })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.role, ReviewerLevel.level_2)));
}

// ---------- the moderator's lists (spec §2.14) ----------

/** A page of review ids allocated to these subscriptions, in review order (the order the moderator works in). */
export async function allocatedReviewIds(db: DbOrTx, subscriptionIds: number[], page: { size: number; page: number }) {
  if (subscriptionIds.length === 0) return { ids: [], total: 0 };
  const where = inArray(moderationAllocations.subscriptionId, subscriptionIds);
  const rows = await db
    .select({ id: moderationAllocations.reviewId })
    .from(moderationAllocations)
    .where(where)
    .orderBy(asc(moderationAllocations.reviewId))
    .limit(page.size)
    .offset(page.size * page.page);
  const total = (await db.select({ total: count() }).from(moderationAllocations).where(where))[0]?.total ?? 0;
  return { ids: rows.map((row) => row.id), total };
}

/** A page of review ids these subscriptions moderated, in review order. */
export async function moderatedReviewIds(db: DbOrTx, subscriptionIds: number[], page: { size: number; page: number }) {
  if (subscriptionIds.length === 0) return { ids: [], total: 0 };
  const where = inArray(moderations.subscriptionId, subscriptionIds);
  const rows = await db
    .select({ id: moderations.reviewId })
    .from(moderations)
    .where(where)
    .orderBy(asc(moderations.reviewId))
    .limit(page.size)
    .offset(page.size * page.page);
  const total = (await db.select({ total: count() }).from(moderations).where(where))[0]?.total ?? 0;
  return { ids: rows.map((row) => row.id), total };
}

// ---------- what a review answer carries about moderation (batched for lists) ----------

/** Of these reviews, those allocated to one of the subscriptions. */
export async function allocatedAmong(db: DbOrTx, reviewIds: number[], subscriptionIds: number[]) {
  if (reviewIds.length === 0 || subscriptionIds.length === 0) return new Set<number>();
  const rows = await db
    .select({ reviewId: moderationAllocations.reviewId })
    .from(moderationAllocations)
    .where(and(inArray(moderationAllocations.reviewId, reviewIds), inArray(moderationAllocations.subscriptionId, subscriptionIds)));
  return new Set(rows.map((row) => row.reviewId));
}

/** The moderations of these reviews by these subscriptions. */
export async function moderationsAmong(db: DbOrTx, reviewIds: number[], subscriptionIds: number[]) {
  if (reviewIds.length === 0 || subscriptionIds.length === 0) return [];
  return db
    .select()
    .from(moderations)
    .where(and(inArray(moderations.reviewId, reviewIds), inArray(moderations.subscriptionId, subscriptionIds)));
}

/** Of these reviews, those with at least one moderation. */
export async function moderatedAmong(db: DbOrTx, reviewIds: number[]) {
  if (reviewIds.length === 0) return new Set<number>();
  const rows = await db
    .selectDistinct({ reviewId: moderations.reviewId })
    .from(moderations)
    .where(inArray(moderations.reviewId, reviewIds));
  return new Set(rows.map((row) => row.reviewId));
}

/**
 * The reviews allocated to these subscriptions and not yet moderated by them, with their event, in review order:
 * what `next_allocation` picks from. Served by the (subscription, review) unique indexes of both tables.
 */
export async function unmoderatedAllocations(db: DbOrTx, subscriptionIds: number[]) {
  if (subscriptionIds.length === 0) return [];
  return db
    .select({ reviewId: moderationAllocations.reviewId, eventId: moderationAllocations.eventId })
    .from(moderationAllocations)
    .where(
      and(
        inArray(moderationAllocations.subscriptionId, subscriptionIds),
        sql`not exists (select 1 from ${moderations} m where m.subscription_id = ${moderationAllocations.subscriptionId} and m.review_id = ${moderationAllocations.reviewId})`,
      ),
    )
    .orderBy(asc(moderationAllocations.reviewId));
}

export async function flagsOf(db: DbOrTx, reviewIds: number[]) {
  if (reviewIds.length === 0) return [];
  return db
    .select({
      reviewId: reviewFlags.reviewId,
      flagType: reviewFlags.flagType,
      score: reviewFlags.score,
      relatedReviews: reviewFlags.relatedReviews,
      relatedCriteria: reviewFlags.relatedCriteria,
    })
    .from(reviewFlags)
    .where(inArray(reviewFlags.reviewId, reviewIds))
    .orderBy(asc(reviewFlags.reviewId), asc(reviewFlags.flagType));
}

/** The run flags (`allocations` config records) of these events, as stored. */
export async function runFlagsOf(db: DbOrTx, eventIds: number[]) {
  const rows = await records.findConfigs(db, 'allocations', eventIds);
  return new Map(rows.map((row) => [row.eventId!, (row.value ?? {}) as Record<string, unknown>]));
}
