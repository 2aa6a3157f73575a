import { sql } from 'drizzle-orm';
import { DEFAULT_REVIEWS_CONFIG } from '@cr/contract/events';
import type { Db } from '../../apps/server/src/db/client';
import { upsertConfig } from '../../apps/server/src/db/config-records';
import { seedScale } from '../../apps/server/src/scale-seed';

const DAY = 86_400_000;

/**
 * Takes a round made by seed-scale (`seedScale`) to its end, set-based, for the dashboard benchmark: reviews spread
 * over `days` days of a review window, four of five reviews' pairs allocated plus two unreviewed allocations per
 * reviewer, `moderators` LV2 moderators (the first reviewers' accounts) with a quarter of the reviews allocated for
 * moderation and four of five of those moderated, and a proposal score for every proposal. `moderators: 0` leaves
 * moderation to what seed-scale wrote; `moderationOpen` turns moderation submission on.
 */
export async function completeRound(
  db: Db,
  eventId: number,
  options: { days?: number; moderators?: number; moderationOpen?: boolean } = {},
) {
  const days = options.days ?? 20;
  const moderators = options.moderators ?? 500;
  const start = new Date(Date.now() - days * DAY);
  start.setUTCHours(0, 0, 0, 0);
  await upsertConfig(db, 'reviews', eventId, {
    ...DEFAULT_REVIEWS_CONFIG,
    reviewer_subscription_enabled: true,
    review_submission_enabled: true,
    review_visibility_enabled: true,
    moderation_submission_enabled: options.moderationOpen ?? false,
    review_submission_starts_at: start.toISOString(),
    review_submission_ends_at: new Date(start.getTime() + (days + 7) * DAY).toISOString(),
  });
  // More reviews in the last days of the window, as in a real round.
  await db.execute(sql`
    update reviews set created_at = ${start.toISOString()}::timestamptz
      + (floor(${days} * sqrt(((id::bigint * 7919) % 10007) / 10007.0)) * interval '1 day')
      + ((id % 86400) * interval '1 second')
    where event_id = ${eventId}`);
  await db.execute(sql`
    insert into proposal_allocations (event_id, subscription_id, proposal_id)
    select ${eventId}, subscription_id, proposal_id from reviews where event_id = ${eventId} and id % 5 <> 0
    on conflict do nothing`);
  await db.execute(sql`
    with subs as (select id, row_number() over (order by id) as rn from subscriptions where event_id = ${eventId}),
         props as (select id, row_number() over (order by id) as rn, count(*) over () as total from proposals where event_id = ${eventId})
    insert into proposal_allocations (event_id, subscription_id, proposal_id)
    select ${eventId}, subs.id, props.id from subs cross join generate_series(0, 1) as k
    join props on props.rn = 1 + (subs.rn * 7 + k * 13 + 10007) % props.total
    on conflict do nothing`);
  if (moderators > 0) await moderateRound(db, eventId, moderators);
  await db.execute(sql`
    insert into proposal_scores (proposal_id, event_id, overall, impact, feasibility, value_for_money, nr_reviews,
      nr_allocated_reviews, nr_included_reviews, nr_excluded_reviews, nr_excluded_by_moderation_reviews, nr_excluded_by_threshold_reviews)
    select id, event_id, s, s, s, s, 50, 40, 30, 20, 10, 10
    from (select id, event_id, case when id % 50 = 0 then null else 1 + ((id * 37) % 401) / 100.0 end as s
          from proposals where event_id = ${eventId}) p
    on conflict do nothing`);
  await db.execute(sql`vacuum analyze`);
}

/** completeRound's own moderators: the first reviewers' accounts as LV2, a quarter of the reviews allocated, four in five moderated. */
async function moderateRound(db: Db, eventId: number, moderators: number) {
  await db.execute(sql`
    insert into subscriptions (user_id, event_id, role, status, anonymous_id)
    select user_id, event_id, 2, 1, 'm' || anonymous_id from subscriptions
    where event_id = ${eventId} and role <> 2 order by id limit ${moderators}`);
  await db.execute(sql`
    with mods as (select id, row_number() over (order by id) - 1 as rn from subscriptions where event_id = ${eventId} and role = 2)
    insert into moderation_allocations (event_id, review_id, subscription_id)
    select ${eventId}, r.id, mods.id from reviews r join mods on mods.rn = (r.id / 4) % ${moderators}
    where r.event_id = ${eventId} and r.id % 4 = 0`);
  await db.execute(sql`
    insert into moderations (event_id, review_id, subscription_id, classification, rationale)
    select event_id, review_id, subscription_id, (case when review_id % 3 = 0 then 0 else 1 end)::smallint, 'Checked.'
    from moderation_allocations where event_id = ${eventId} and review_id % 5 <> 0`);
}

const rowsOf = <T>(result: unknown) => (result as { rows?: T[] }).rows ?? (result as T[]);

/**
 * The whole round of issue 18 (the closing bench's seed, completed): `proposals` (20,000) proposals, `reviewers` ×
 * 20 reviews, 500 LV2 moderators with 8 moderation allocations and 4 moderations per 1,000 reviews (400,000 and
 * 200,000 at 50,000 reviewers), then `completeRound` without moderators of its own: the review window around now,
 * proposal allocations (two unreviewed per reviewer), a score per proposal, moderation submission open. The first
 * reviewer is made an admin. Answers seed-scale's counts and the accounts the benches log in with.
 */
export async function seedRound(db: Db, options: { reviewers: number; proposals?: number }) {
  const scale = Math.max(1, Math.round(options.reviewers / 125));
  const seeded = await seedScale(db, {
    proposals: options.proposals ?? 20_000,
    reviewers: options.reviewers,
    categories: 40,
    reviewsPerReviewer: 20,
    moderators: 500,
    moderationAllocations: scale * 1_000,
    moderations: scale * 500,
  });
  const started = performance.now();
  await completeRound(db, seeded.eventId, { moderators: 0, moderationOpen: true });
  const completedSeconds = Math.round((performance.now() - started) / 100) / 10;
  const eventId = seeded.eventId;
  const admin = await promoteFirstReviewer(db, eventId);
  return { ...seeded, completedSeconds, admin: admin.catalystId, adminUserId: admin.userId };
}

/** Makes the round's first reviewer (by subscription) an admin, for the benches that run the admin's endpoints. */
export async function promoteFirstReviewer(db: Db, eventId: number) {
  const [row] = rowsOf<{ user_id: number; catalyst_id: string }>(
    await db.execute(
      sql`select u.id as user_id, c.catalyst_id from subscriptions s join users u on u.id = s.user_id
          join catalyst_ids c on c.id = u.catalyst_id_ref where s.event_id = ${eventId} and s.role < 2 order by s.id limit 1`,
    ),
  );
  await db.execute(sql`update users set role = 100 where id = ${row!.user_id}`);
  return { userId: row!.user_id, catalystId: row!.catalyst_id };
}

export interface RoundAccount {
  subscriptionId: number;
  userId: number;
  catalystId: string;
}

/**
 * Reviewers of the round (not the admin, no proposal authors: their allocations may fall in an objective they
 * authored in), and moderators, `count` of each at most, spread over the round.
 */
export async function roundAccounts(db: Db, eventId: number, role: 'reviewer' | 'moderator', count: number): Promise<RoundAccount[]> {
  const rows = rowsOf<{ subscription_id: number; user_id: number; catalyst_id: string }>(
    await db.execute(sql`
      select s.id as subscription_id, u.id as user_id, c.catalyst_id from subscriptions s
      join users u on u.id = s.user_id join catalyst_ids c on c.id = u.catalyst_id_ref
      where s.event_id = ${eventId} and ${role === 'moderator' ? sql`s.role = 2` : sql`s.role < 2 and u.role < 100`}
        and not exists (select 1 from proposal_authors a where a.catalyst_key = c.catalyst_id)
      order by s.id`),
  );
  const step = Math.max(1, Math.floor(rows.length / count));
  return rows
    .filter((_, i) => i % step === 0)
    .slice(0, count)
    .map((row) => ({ subscriptionId: row.subscription_id, userId: row.user_id, catalystId: row.catalyst_id }));
}
