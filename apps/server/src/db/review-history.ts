import { ReviewRanking } from '@cr/contract/reviews';
import { approvalRate } from '@cr/contract/subscriptions';
import { sql, type SQL } from 'drizzle-orm';
import { configs, moderations, reviews, subscriptions } from './schema/index';

/**
 * The history's two figures as SQL of the user `user` (a value or a placeholder): `counts` (submitted, blank, valid,
 * active_funds) and `moderations` (submitted, active_funds), each one JSON object. Shared by subscriptions'
 * `reviewHistory` (the level decision) and the profile's one statement (accounts/user-info.repository).
 */
export function reviewHistorySql(user: SQL, exceptEventId?: number) {
  const past = sql`(select c.event_id from ${configs} c where c.kind = 'allocations' and c.event_id is not null
    and (c.value ->> 'review_outcomes_generated') = 'true'${exceptEventId === undefined ? sql`` : sql` and c.event_id <> ${exceptEventId}`})`;
  const mine = sql`(select s.id from ${subscriptions} s where s.user_id = ${user})`;
  const written = sql`(select r.event_id, r.ranking, false as blank from ${reviews} r
    where r.subscription_id in ${mine} and r.event_id in ${past}) w`;
  const moderated = sql`(select m.event_id from ${moderations} m where m.subscription_id in ${mine} and m.event_id in ${past}) m`;
  return {
    counts: sql`(select json_build_object(
        'submitted', count(*), 'blank', count(*) filter (where w.blank),
        'valid', count(*) filter (where w.ranking = ${sql.raw(String(ReviewRanking.included))}), 'active_funds', count(distinct w.event_id))
        from ${written})`,
    moderations: sql`(select json_build_object(
        'submitted', count(*), 'active_funds', count(distinct m.event_id)) from ${moderated})`,
  };
}

/** What `reviewHistorySql` answers, as the figures. */
export function historyOf(row: { counts: HistoryCounts; moderations: { submitted: number; active_funds: number } } | undefined) {
  const counts = row?.counts ?? { submitted: 0, blank: 0, valid: 0, active_funds: 0 };
  const submitted = Number(counts.submitted);
  const blank = Number(counts.blank);
  const valid = Number(counts.valid);
  return {
    submitted,
    blank,
    valid,
    activeFunds: Number(counts.active_funds),
    approvalRate: approvalRate({ submitted, blank, valid }),
    moderations: Number(row?.moderations.submitted ?? 0),
    moderationFunds: Number(row?.moderations.active_funds ?? 0),
  };
}
export type HistoryCounts = { submitted: number; blank: number; valid: number; active_funds: number };
