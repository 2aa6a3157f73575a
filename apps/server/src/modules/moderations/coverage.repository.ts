import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { moderationTopUps } from '../../db/schema/index';

/*
 * Moderation coverage (issue 28 item 1), SQL only. Every figure is read from one per-review table (`coverage`): each
 * review allocated for moderation with its allocations, done moderations, includes, the earlier top-ups' allocations
 * still not moderated, and what a top-up would add now (`need`). Each part is an aggregate of one event's rows through
 * the event indexes of moderation_allocations, moderations and moderation_top_ups.
 */

async function rows<Row>(db: DbOrTx, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows?: Row[] } | Row[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}

/** The action of the moderation allocation's audit entry (modules/moderations/moderation-allocation.service.ts). */
const ALLOCATION_ACTION = 'moderations.allocate';
export const TOP_UP_ACTION = 'moderations.top_up';

/** The moderations per review the event's (last) moderation allocation run asked for, from its audit entry. */
export async function allocationPerReview(db: DbOrTx, eventId: number): Promise<number | null> {
  const [row] = await rows<{ per_review: number | null }>(
    db,
    sql`select (after -> 'params' ->> 'nr_of_moderations_per_review')::int as per_review from audit_log
        where event_id = ${eventId} and action = ${ALLOCATION_ACTION} order by id desc limit 1`,
  );
  return row?.per_review ?? null;
}

export interface CoverageRule {
  eventId: number;
  perReview: number;
  breakTies: boolean;
}

/** An allocation (subscription, review) with no moderation of that moderator on that review. */
const unfinished = (allocation: string) =>
  sql.raw(
    `not exists (select 1 from moderations m where m.subscription_id = ${allocation}.subscription_id and m.review_id = ${allocation}.review_id)`,
  );

/** The per-review table `coverage` as a WITH clause; `tie` and `short` are its review's state. */
function coverageTable(rule: CoverageRule): SQL {
  const { eventId, perReview, breakTies } = rule;
  return sql`with alloc as (
      select review_id, count(*)::int as allocated from moderation_allocations where event_id = ${eventId} group by review_id
    ), mods as (
      select review_id, count(*)::int as done, (count(*) filter (where classification = 1))::int as includes
      from moderations where event_id = ${eventId} group by review_id
    ), pending as (
      select ma.review_id, count(*)::int as pending
      from moderation_top_ups t join moderation_allocations ma on ma.id = t.allocation_id
      where t.event_id = ${eventId} and ${unfinished('ma')}
      group by ma.review_id
    ), base as (
      select a.review_id, a.allocated, coalesce(m.done, 0) as done, coalesce(m.includes, 0) as includes,
             coalesce(p.pending, 0) as pending
      from alloc a left join mods m on m.review_id = a.review_id left join pending p on p.review_id = a.review_id
    ), coverage as (
      select base.*, done < ${perReview} as short, done > 0 and 2 * includes = done as tie,
             greatest(case when ${breakTies} and done > 0 and 2 * includes = done then greatest(${perReview}, done + 1)
                           else ${perReview} end - done - pending, 0)::int as need
      from base
    )`;
}

export async function coverageCounts(db: DbOrTx, rule: CoverageRule) {
  const [row] = await rows<{
    allocated_reviews: number;
    short_reviews: number;
    missing_moderations: number;
    ties: number;
    to_top_up: number;
  }>(
    db,
    sql`${coverageTable(rule)}
        select count(*)::int as allocated_reviews, (count(*) filter (where short))::int as short_reviews,
               coalesce(sum(${rule.perReview} - done) filter (where short), 0)::int as missing_moderations,
               (count(*) filter (where tie))::int as ties, coalesce(sum(need), 0)::int as to_top_up
        from coverage`,
  );
  return row!;
}

/** Moderators with unfinished allocations, and those allocations. */
export async function unfinishedCounts(db: DbOrTx, eventId: number) {
  const [row] = await rows<{ moderators: number; allocations: number }>(
    db,
    sql`select count(distinct ma.subscription_id)::int as moderators, count(*)::int as allocations
        from moderation_allocations ma where ma.event_id = ${eventId} and ${unfinished('ma')}`,
  );
  return row!;
}

export async function topUpCounts(db: DbOrTx, eventId: number) {
  const [row] = await rows<{ runs: number; allocations: number }>(
    db,
    sql`select (select count(*)::int from audit_log where event_id = ${eventId} and action = ${TOP_UP_ACTION}) as runs,
               (select count(*)::int from moderation_top_ups where event_id = ${eventId}) as allocations`,
  );
  return row!;
}

/** A page of the short (or tied) reviews in id order, with their proposal's title and the writer's anonymous id. */
export async function coverageReviews(db: DbOrTx, rule: CoverageRule, kind: 'short' | 'ties', page: { size: number; page: number }) {
  const where = kind === 'short' ? sql`short` : sql`tie`;
  const list = await rows<{
    review_id: number;
    proposal_title: string;
    assessor: string;
    allocated: number;
    moderations: number;
    includes: number;
    excludes: number;
    topped_up_pending: number;
    to_top_up: number;
  }>(
    db,
    sql`${coverageTable(rule)}, chosen as (
            select * from coverage where ${where} order by review_id limit ${page.size} offset ${page.size * page.page})
          select c.review_id, p.title as proposal_title, s.anonymous_id as assessor, c.allocated, c.done as moderations,
                 c.includes, c.done - c.includes as excludes, c.pending as topped_up_pending, c.need as to_top_up
          from chosen c join reviews r on r.id = c.review_id join proposals p on p.id = r.proposal_id
          join subscriptions s on s.id = r.subscription_id
          order by c.review_id`,
  );
  const [total] = await rows<{ n: number }>(db, sql`${coverageTable(rule)} select count(*)::int as n from coverage where ${where}`);
  return { rows: list, total: total!.n };
}

/**
 * A page of the moderators with unfinished allocations, most unfinished first, by anonymous id, and their total
 * (one statement: each allocation joined to its moderation by hash, as the dashboard counts them).
 */
export async function unfinishedModerators(db: DbOrTx, eventId: number, page: { size: number; page: number }) {
  const list = await rows<{ assessor: string; allocated: number; moderated: number; unfinished: number; total: number }>(
    db,
    sql`with per as (
          select ma.subscription_id, count(*)::int as allocated, count(m.id)::int as moderated
          from moderation_allocations ma
          left join moderations m on m.subscription_id = ma.subscription_id and m.review_id = ma.review_id
          where ma.event_id = ${eventId} group by ma.subscription_id
        ), open as (
          select per.*, per.allocated - per.moderated as unfinished, count(*) over ()::int as total from per
          where per.allocated > per.moderated
          order by per.allocated - per.moderated desc, per.subscription_id limit ${page.size} offset ${page.size * page.page})
        select s.anonymous_id as assessor, open.allocated, open.moderated, open.unfinished, open.total
        from open join subscriptions s on s.id = open.subscription_id
        order by open.unfinished desc, s.anonymous_id`,
  );
  const total = list[0]?.total ?? (page.page > 0 ? await unfinishedModeratorCount(db, eventId) : 0);
  return { rows: list.map(({ total: _total, ...row }) => row), total };
}

/** How many moderators have unfinished allocations (for a page past the end, which holds no row to carry it). */
async function unfinishedModeratorCount(db: DbOrTx, eventId: number) {
  const [row] = await rows<{ n: number }>(
    db,
    sql`select count(distinct ma.subscription_id)::int as n from moderation_allocations ma
        where ma.event_id = ${eventId} and ${unfinished('ma')}`,
  );
  return row!.n;
}

/**
 * The reviews a top-up gives moderators to (need > 0), in id order, with the writer (user id), the objective, and
 * the moderator subscriptions already allocated to the review or that moderated it (read from the two review
 * indexes alone; the service maps them to the moderators' users).
 */
export function topUpReviews(db: DbOrTx, rule: CoverageRule) {
  return rows<{ id: number; reviewer: number; category: number | null; need: number; excluded: number[] }>(
    db,
    sql`${coverageTable(rule)}
        select c.review_id as id, s.user_id as reviewer, r.category_id as category, c.need,
               array(select ma2.subscription_id from moderation_allocations ma2 where ma2.review_id = c.review_id
                     union
                     select m3.subscription_id from moderations m3 where m3.review_id = c.review_id) as excluded
        from coverage c join reviews r on r.id = c.review_id join subscriptions s on s.id = r.subscription_id
        where c.need > 0 order by c.review_id`,
  );
}

/** Unfinished allocations per moderator subscription of the event. */
export function unfinishedPerSubscription(db: DbOrTx, eventId: number) {
  return rows<{ subscription_id: number; n: number }>(
    db,
    sql`select ma.subscription_id, count(*)::int as n from moderation_allocations ma
        where ma.event_id = ${eventId} and ${unfinished('ma')} group by ma.subscription_id`,
  );
}

/** Inserts the run's allocations and records each in moderation_top_ups; answers how many were written. */
export async function insertTopUps(tx: DbOrTx, eventId: number, reviewIds: Int32Array, subscriptionIds: number[]) {
  for (let start = 0; start < reviewIds.length; start += 5_000) {
    const end = Math.min(start + 5_000, reviewIds.length);
    const reviewList = `{${Array.from(reviewIds.subarray(start, end)).join(',')}}`;
    const subscriptionList = `{${subscriptionIds.slice(start, end).join(',')}}`;
    await tx.execute(sql`
      with added as (
        insert into moderation_allocations (event_id, review_id, subscription_id)
        select ${eventId}, review_id, subscription_id from unnest(${reviewList}::int[], ${subscriptionList}::int[]) as t(review_id, subscription_id)
        returning id)
      insert into ${moderationTopUps} (event_id, allocation_id) select ${eventId}, id from added`);
  }
}

/** Links the run's rows to its audit entry (written after them, in the same transaction). */
export async function linkTopUpsToAudit(tx: DbOrTx, eventId: number, auditId: number) {
  await tx.execute(sql`update moderation_top_ups set run_audit_id = ${auditId} where event_id = ${eventId} and run_audit_id is null`);
}
