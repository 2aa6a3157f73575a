import { and, asc, eq, sql } from 'drizzle-orm';
import { ReviewerLevel, SubscriptionStatus } from '@cr/contract/subscriptions';
import type { DbOrTx } from '../../db/client';
import { perDatabase, preparedRows } from '../../db/named-statements';
import {
  mineCte,
  moderationCtes,
  moderationLateral,
  moderatorReviews,
  reviewModerationColumns,
  type ReviewModerationRow,
} from '../../db/review-moderation';
import { catalystIds, moderationAllocations, moderations, proposals, reviews, subscriptions, users } from '../../db/schema/index';

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

/**
 * The page statement of one list: the review ids allocated to the user's active LV2 subscriptions, or moderated by any
 * of their LV2 subscriptions, in review order (the order the moderator works in), a page of them and their total, both
 * read from the (subscription_id, review_id) unique index. Built once with placeholders and run by name
 * (db/named-statements): neither its text nor its plan is made again per request.
 */
const pageStatement = (db: DbOrTx, which: 'allocated' | 'moderated') => {
  const joined = moderatorReviews(which);
  return preparedRows<{ total: number; ids: number[] }>(
    db,
    `moderator_page_${which}`,
    sql`with ${mineCte(sql.placeholder('user'))}
    select (select count(*)::int from ${joined}) as total,
      array(select t.review_id from ${joined} order by t.review_id limit ${sql.placeholder('limit')} offset ${sql.placeholder('offset')}) as ids`,
  );
};
const pageStatements = perDatabase((db) => ({ allocated: pageStatement(db, 'allocated'), moderated: pageStatement(db, 'moderated') }));

async function pageOfReviewIds(db: DbOrTx, which: 'allocated' | 'moderated', userId: number, page: { size: number; page: number }) {
  const [row] = await pageStatements(db)[which]({ user: userId, limit: page.size, offset: page.size * page.page });
  return { ids: row?.ids ?? [], total: row?.total ?? 0 };
}

/** A page of the review ids allocated to the user's active LV2 subscriptions, and their total. */
export const allocatedReviewIds = (db: DbOrTx, userId: number, page: { size: number; page: number }) =>
  pageOfReviewIds(db, 'allocated', userId, page);

/** A page of the review ids the user's LV2 subscriptions moderated, and their total. */
export const moderatedReviewIds = (db: DbOrTx, userId: number, page: { size: number; page: number }) =>
  pageOfReviewIds(db, 'moderated', userId, page);

// ---------- what a review answer carries about moderation (batched for lists) ----------

export type { ReviewModerationRow };

const reviewModerationStatement = perDatabase((db) =>
  preparedRows<ReviewModerationRow>(
    db,
    'review_moderation',
    sql`with ${mineCte(sql.placeholder('user'))},
    ${moderationCtes((id) => sql`${id} = any(${sql.placeholder('ids')}::int[])`)}
    select r.id, r.event_id as "eventId", ${reviewModerationColumns}
    from ${reviews} r ${moderationLateral}
    where r.id = any(${sql.placeholder('ids')}::int[])`,
  ),
);

/**
 * In one statement, what each of these reviews carries about moderation for a viewer (`userId`, or null for an
 * anonymous one): db/review-moderation.ts.
 */
export async function reviewModerationOf(db: DbOrTx, reviewIds: number[], userId: number | null) {
  if (reviewIds.length === 0) return [];
  return reviewModerationStatement(db)({ ids: reviewIds, user: userId ?? 0 });
}
