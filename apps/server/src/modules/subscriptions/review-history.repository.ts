import { ReviewRanking } from '@cr/contract/reviews';
import { approvalRate } from '@cr/contract/subscriptions';
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { configs, moderations, reviews, subscriptions, users } from '../../db/schema/index';

/** A user's figures over the past rounds (DOMAIN.md "Subscriptions and levels"), as the profile and the level read them. */
export interface ReviewHistoryRow {
  /** Reviews they submitted in those rounds. */
  submitted: number;
  /** Blank reviews among them. */
  blank: number;
  /** Reviews the outcome included (ranking 1). */
  valid: number;
  /** Rounds with at least one submitted review. */
  activeFunds: number;
  /** valid ÷ (submitted − blank), 0 when nothing counts (spec §2.16): the rule the level qualifiers read too. */
  approvalRate: number;
  /** Moderations they wrote in those rounds, and the rounds with at least one. */
  moderations: number;
  moderationFunds: number;
}

/**
 * The user's history over the past rounds: the events whose review outcomes were generated (run flag
 * review_outcomes_generated in the event's `allocations` record), except `exceptEventId` (the round being subscribed
 * to). One query, each part through an index: the user's subscriptions (user_id first in their unique key), then
 * their reviews and moderations (subscription_id first in theirs).
 *
 * A review here is never blank (each of its three notes needs 200 characters, DOMAIN.md "Reviews"), so blank counts
 * 0; it stays in the figures because the spec's approval rate and the qualifiers read it.
 */
export async function reviewHistory(db: DbOrTx, userId: number, exceptEventId?: number): Promise<ReviewHistoryRow> {
  const past = sql`(select c.event_id from ${configs} c where c.kind = 'allocations' and c.event_id is not null
    and (c.value ->> 'review_outcomes_generated') = 'true'${exceptEventId === undefined ? sql`` : sql` and c.event_id <> ${exceptEventId}`})`;
  const mine = sql`(select s.id from ${subscriptions} s where s.user_id = ${userId})`;
  const written = sql`(select r.event_id, r.ranking, false as blank from ${reviews} r
    where r.subscription_id in ${mine} and r.event_id in ${past}) w`;
  const moderated = sql`(select m.event_id from ${moderations} m where m.subscription_id in ${mine} and m.event_id in ${past}) m`;
  const [row] = await db
    .select({
      counts: sql<{ submitted: number; blank: number; valid: number; active_funds: number }>`(select json_build_object(
        'submitted', count(*), 'blank', count(*) filter (where w.blank),
        'valid', count(*) filter (where w.ranking = ${ReviewRanking.included}), 'active_funds', count(distinct w.event_id))
        from ${written})`,
      moderations: sql<{ submitted: number; active_funds: number }>`(select json_build_object(
        'submitted', count(*), 'active_funds', count(distinct m.event_id)) from ${moderated})`,
    })
    .from(users)
    .where(eq(users.id, userId));
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
