import { and, asc, eq, sql } from 'drizzle-orm';
import type { ReviewPublic } from '@cr/contract/reviews';
import { ReviewerLevel, SubscriptionStatus } from '@cr/contract/subscriptions';
import type { DbOrTx } from '../../db/client';
import { namedRows } from '../../db/named-statements';
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
 * The user's LV2 subscriptions (`mine`: id, event_id, active), read once at the head of a statement: all of them
 * count for their moderations, the active ones for their allocations.
 */
const mineCte = (userId: number) =>
  sql`with mine as materialized (select s.id, s.event_id, s.status = ${SubscriptionStatus.active} as active
    from ${subscriptions} s where s.user_id = ${userId} and s.role = ${ReviewerLevel.level_2})`;

/**
 * A page of the review ids allocated to the user's active LV2 subscriptions, or moderated by any of their LV2
 * subscriptions, in review order (the order the moderator works in), and their total: one statement, both read from
 * the (subscription_id, review_id) unique index.
 */
async function pageOfReviewIds(db: DbOrTx, which: 'allocated' | 'moderated', userId: number, page: { size: number; page: number }) {
  const joined =
    which === 'allocated'
      ? sql`mine s join ${moderationAllocations} t on t.subscription_id = s.id where s.active`
      : sql`mine s join ${moderations} t on t.subscription_id = s.id`;
  const [row] = await namedRows<{ total: number; ids: number[] }>(
    db,
    `moderator_page_${which}`,
    sql`${mineCte(userId)}
    select (select count(*)::int from ${joined}) as total,
      array(select t.review_id from ${joined} order by t.review_id limit ${page.size} offset ${page.size * page.page}) as ids`,
  );
  return { ids: row?.ids ?? [], total: row?.total ?? 0 };
}

/** A page of the review ids allocated to the user's active LV2 subscriptions, and their total. */
export const allocatedReviewIds = (db: DbOrTx, userId: number, page: { size: number; page: number }) =>
  pageOfReviewIds(db, 'allocated', userId, page);

/** A page of the review ids the user's LV2 subscriptions moderated, and their total. */
export const moderatedReviewIds = (db: DbOrTx, userId: number, page: { size: number; page: number }) =>
  pageOfReviewIds(db, 'moderated', userId, page);

// ---------- what a review answer carries about moderation (batched for lists) ----------

export interface ReviewModerationRow {
  id: number;
  eventId: number;
  /** As the answer carries them (spec §3 flag shape), by flag type. */
  flags: ReviewPublic['flags'];
  /** Allocated to one of the viewer's active LV2 subscriptions. */
  allocated: boolean;
  /** The viewer's own moderation of the review, if any. */
  own: { id: number; classification: number; rationale: string } | null;
  /** Someone moderated the review. */
  anyModeration: boolean;
  /**
   * When allocated: the viewer's next allocation of the same event not yet moderated by them, after this review in
   * review order, wrapping round; null when none.
   */
  nextAllocation: number | null;
}

/**
 * In one statement, what each of these reviews carries about moderation for a viewer (`userId`, or null for an
 * anonymous one): its flags, its allocation to and moderation by the viewer, whether anyone moderated it, and the
 * viewer's next allocation. Flags, moderations and allocations are index look-ups per review (review_flags
 * (review_id, flag_type), moderations (review_id), moderation_allocations (subscription_id, review_id)). The next
 * allocation is searched in the viewer's queue (their allocations less their moderations, read once from both
 * tables' (subscription_id, review_id) index, only when a review is allocated to them): the page and the queue in one
 * sort, each review takes the smallest queued id after it; walking the allocations' index from each review instead
 * costs the moderated run after it, which a moderator working in order makes long. A subscription's allocations are
 * all of its event, so "the same event" is the subscription's.
 */
export async function reviewModerationOf(db: DbOrTx, reviewIds: number[], userId: number | null) {
  if (reviewIds.length === 0) return [];
  const ids = sql`${sql.param(reviewIds)}::int[]`;
  return namedRows<ReviewModerationRow>(
    db,
    'review_moderation',
    sql`${mineCte(userId ?? 0)},
    queue as materialized (select s.event_id, q.review_id from mine s cross join lateral (
        select a.review_id from ${moderationAllocations} a where a.subscription_id = s.id
        except select m.review_id from ${moderations} m where m.subscription_id = s.id) q
      where s.active),
    after as materialized (select id, next_id from (select id, is_page, min(queued) over (partition by event_id
        order by id desc, is_page desc rows between unbounded preceding and 1 preceding) as next_id
      from (select r.id, r.event_id, true as is_page, null::int as queued from ${reviews} r where r.id = any(${ids})
        union all select q.review_id, q.event_id, false, q.review_id from queue q) merged) sorted where is_page)
    select r.id, r.event_id as "eventId",
      coalesce((select json_agg(json_build_object('flag_type', f.flag_type, 'score', f.score, 'related_reviews', f.related_reviews,
          'related_criteria', f.related_criteria) order by f.flag_type)
        from ${reviewFlags} f where f.review_id = r.id), '[]'::json) as flags,
      allocation.allocated,
      (select json_build_object('id', m.id, 'classification', m.classification, 'rationale', m.rationale)
        from ${moderations} m join mine s on s.id = m.subscription_id where m.review_id = r.id order by m.id limit 1) as own,
      exists (select 1 from ${moderations} m where m.review_id = r.id) as "anyModeration",
      case when allocation.allocated then coalesce(
        (select n.next_id from after n where n.id = r.id),
        (select min(q.review_id) from queue q where q.event_id = r.event_id and q.review_id <> r.id)) end as "nextAllocation"
    from ${reviews} r
    cross join lateral (select exists (select 1 from mine s join ${moderationAllocations} a on a.subscription_id = s.id and a.review_id = r.id
      where s.active) as allocated) allocation
    where r.id = any(${ids})`,
  );
}
