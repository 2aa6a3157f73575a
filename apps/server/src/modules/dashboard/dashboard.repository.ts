import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

/**
 * The dashboard's aggregate queries (SQL only), one per figure group, each read from an index of the event's rows:
 * subscriptions (event_id, role, status), proposals (event_id, category_id, id), reviews (event_id, ranking, id) and
 * (event_id, created_at), proposal and moderation allocations by event, proposal scores (event_id, proposal_id).
 */

async function rows<Row>(db: DbOrTx, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows?: Row[] } | Row[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}

export const subscriptionCounts = (db: DbOrTx, eventId: number) =>
  rows<{ level: number; status: number; n: number }>(
    db,
    sql`select role as level, status, count(*)::int as n from subscriptions where event_id = ${eventId} group by role, status`,
  );

export const proposalsPerCategory = (db: DbOrTx, eventId: number) =>
  rows<{ category_id: number | null; title: string | null; n: number }>(
    db,
    sql`select p.category_id, c.title, p.n
        from (select category_id, count(*)::int as n from proposals where event_id = ${eventId} group by category_id) p
        left join categories c on c.id = p.category_id
        order by c.title nulls last`,
  );

/** Allocation pairs and those reviewed (a review by the allocated reviewer of the allocated proposal). */
export async function allocationTotals(db: DbOrTx, eventId: number) {
  const [totals] = await rows<{ allocations: number; reviews_done: number }>(
    db,
    sql`select count(*)::int as allocations, count(r.subscription_id)::int as reviews_done
        from proposal_allocations pa
        left join reviews r on r.subscription_id = pa.subscription_id and r.proposal_id = pa.proposal_id
        where pa.event_id = ${eventId}`,
  );
  return totals!;
}

/** The event's proposals and reviewers with at least one allocation (a probe of each in the allocations' indexes). */
export async function allocatedCounts(db: DbOrTx, eventId: number) {
  const [counts] = await rows<{ proposals: number; reviewers: number }>(
    db,
    sql`select
          (select count(*)::int from proposals p where p.event_id = ${eventId}
             and exists (select 1 from proposal_allocations pa where pa.proposal_id = p.id)) as proposals,
          (select count(*)::int from subscriptions s where s.event_id = ${eventId}
             and exists (select 1 from proposal_allocations pa where pa.subscription_id = s.id)) as reviewers`,
  );
  return counts!;
}

export const reviewsPerRanking = (db: DbOrTx, eventId: number) =>
  rows<{ ranking: number; n: number }>(
    db,
    sql`select ranking, count(*)::int as n from reviews where event_id = ${eventId} group by ranking`,
  );

/** Reviews per UTC day of submission, oldest first. */
export const reviewsPerDay = (db: DbOrTx, eventId: number) =>
  rows<{ day: string; n: number }>(
    db,
    sql`select to_char(d.day, 'YYYY-MM-DD') as day, d.n
        from (select (created_at at time zone 'UTC')::date as day, count(*)::int as n
              from reviews where event_id = ${eventId} group by 1) d
        order by d.day`,
  );

/** Per moderator with a moderation allocation: the reviews allocated to them and those they moderated. */
export const moderationPerModerator = (db: DbOrTx, eventId: number) =>
  rows<{ allocated: number; moderated: number }>(
    db,
    sql`select count(*)::int as allocated, count(m.id)::int as moderated
        from moderation_allocations ma
        left join moderations m on m.subscription_id = ma.subscription_id and m.review_id = ma.review_id
        where ma.event_id = ${eventId}
        group by ma.subscription_id`,
  );

export async function moderationCount(db: DbOrTx, eventId: number) {
  const [count] = await rows<{ n: number }>(db, sql`select count(*)::int as n from moderations where event_id = ${eventId}`);
  return count!.n;
}

/** Proposal scores per bucket of `width` from 1 (bucket 0) to `buckets − 1` (5 falls in the last); null: no overall. */
export const scoreBuckets = (db: DbOrTx, eventId: number, width: number, buckets: number) =>
  rows<{ bucket: number | null; n: number }>(
    db,
    sql`select case when overall is null then null
                    else least(greatest(floor((overall - 1) / ${width}), 0), ${buckets - 1})::int end as bucket,
               count(*)::int as n
        from proposal_scores where event_id = ${eventId} group by 1`,
  );
