import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { ReviewPublic } from '@cr/contract/reviews';
import { ReviewerLevel, SubscriptionStatus } from '@cr/contract/subscriptions';
import { moderationAllocations, moderations, reviewFlags, reviews } from './schema/index';

/*
 * What a review answer carries about moderation for one viewer, as SQL pieces: the moderations module reads it for any
 * reviews (moderations.repository `reviewModerationOf`), the reviews module in the same statement as a list's rows, so
 * that a list page is one statement (issue 30 item 6). The moderations service turns the rows into answers.
 */

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
 * The user's LV2 subscriptions (`mine`: id, event_id, active), read once at the head of a statement: all of them count
 * for their moderations, the active ones for their allocations. `userId`: a value or a placeholder (0: nobody's).
 */
export const mineCte = (userId: SQL | Placeholder | number) =>
  sql`mine as materialized (select s.id, s.event_id, s.status = ${SubscriptionStatus.active} as active
    from subscriptions s where s.user_id = ${userId} and s.role = ${ReviewerLevel.level_2})`;

/**
 * The moderator's lists (spec §2.14) over `mine`, as `t` with its `review_id`: the allocations of their active LV2
 * subscriptions, or the moderations of any of their LV2 subscriptions, both read from the (subscription_id, review_id)
 * unique index.
 */
export const moderatorReviews = (which: 'allocated' | 'moderated') =>
  which === 'allocated'
    ? sql`mine s join ${moderationAllocations} t on t.subscription_id = s.id where s.active`
    : sql`mine s join ${moderations} t on t.subscription_id = s.id`;

/**
 * The common table expressions the moderation columns need, after `mine` (mineCte): the viewer's queue (their
 * allocations less their moderations, read once from both tables' (subscription_id, review_id) index, only when a
 * review is allocated to them) and, for the reviews whose id `isListed` accepts, the next queued id after each. The
 * page and the queue go through one sort, each review taking the smallest queued id after it; walking the
 * allocations' index from each review instead costs the moderated run after it, which a moderator working in order
 * makes long. A subscription's allocations are all of its event, so "the same event" is the subscription's.
 */
export const moderationCtes = (isListed: (id: SQL) => SQL) =>
  sql`queue as materialized (select s.event_id, q.review_id from mine s cross join lateral (
        select a.review_id from ${moderationAllocations} a where a.subscription_id = s.id
        except select m.review_id from ${moderations} m where m.subscription_id = s.id) q
      where s.active),
    after as materialized (select id, next_id from (select id, is_page, min(queued) over (partition by event_id
        order by id desc, is_page desc rows between unbounded preceding and 1 preceding) as next_id
      from (select r.id, r.event_id, true as is_page, null::int as queued from ${reviews} r where ${isListed(sql`r.id`)}
        union all select q.review_id, q.event_id, false, q.review_id from queue q) merged) sorted where is_page)`;

/*
 * The parts of review `r`'s moderation fields that both forms below share. `score + 0`: a loaded flag's -0 is written 0,
 * as JSON.stringify writes it (a score under 1e-4 is written with an exponent, `5e-05`, where JavaScript writes
 * 0.00005: the same number to any JSON reader).
 */
const flagsJson = sql`coalesce((select array_to_json(array_agg(f order by f.flag_type)) from (
      select fl.flag_type, fl.score + 0 as score, fl.related_reviews, fl.related_criteria from ${reviewFlags} fl
      where fl.review_id = r.id) f), '[]'::json)`;
const anyModeration = sql`exists (select 1 from ${moderations} m where m.review_id = r.id)`;
const nextAllocation = sql`case when allocation.allocated then coalesce(
      (select n.next_id from after n where n.id = r.id),
      (select min(q.review_id) from queue q where q.event_id = r.event_id and q.review_id <> r.id)) end`;

/**
 * The moderation columns of review `r` (ReviewModerationRow but its id and event): flags, allocation and moderation
 * by the viewer, whether anyone moderated it, and the viewer's next allocation. Flags, moderations and allocations are
 * index look-ups per review (review_flags (review_id, flag_type), moderations (review_id), moderation_allocations
 * (subscription_id, review_id)). Needs `mine`, `queue` and `after`, and `moderationLateral` in the from list.
 */
export const reviewModerationColumns = sql`${flagsJson} as flags,
      allocation.allocated,
      (select json_build_object('id', m.id, 'classification', m.classification, 'rationale', m.rationale)
        from ${moderations} m join mine s on s.id = m.subscription_id where m.review_id = r.id order by m.id limit 1) as own,
      ${anyModeration} as "anyModeration",
      ${nextAllocation} as "nextAllocation"`;

/** Whether review `r` is allocated to one of the viewer's active LV2 subscriptions (`allocation.allocated`). */
export const moderationLateral = sql`cross join lateral (select exists (select 1 from mine s join ${moderationAllocations} a
      on a.subscription_id = s.id and a.review_id = r.id where s.active) as allocated) allocation`;

/**
 * The moderation fields of review `r`'s wire answer (contract `reviewPublic`) as columns named as its fields, for a
 * statement that writes the answers as JSON text (reviews.repository `wireReviewColumns`); the same rules as the
 * moderations service's `moderationFromRows`. `moderated` is true for the viewer's own moderation, and for anyone's
 * when `seeAll` (SQL: an admin, or the review's event's moderations are public). Needs what reviewModerationColumns
 * needs, and `ownModerationLateral` in the from list.
 */
export const wireModerationColumns = (seeAll: SQL) => ({
  allocatedForModeration: sql`allocation.allocated as allocated_for_moderation`,
  nextAllocation: sql`${nextAllocation} as next_allocation`,
  moderation: sql`own_moderation.moderation`,
  moderated: sql`(own_moderation.moderation is not null or (${seeAll} and ${anyModeration})) as moderated`,
  flags: sql`${flagsJson} as flags`,
});

/** The viewer's own moderation of review `r` as its wire object (`own_moderation.moderation`), or null. */
export const ownModerationLateral = sql`left join lateral (select row_to_json(o) as moderation from (
      select m.id as row_id, m.review_id, m.classification, m.rationale from ${moderations} m join mine s on s.id = m.subscription_id
      where m.review_id = r.id order by m.id limit 1) o) own_moderation on true`;
