import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { historyOf, reviewHistorySql, type HistoryCounts } from '../../db/review-history';
import { users } from '../../db/schema/index';

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
  const history = reviewHistorySql(sql`${userId}`, exceptEventId);
  const [row] = await db
    .select({
      counts: sql<HistoryCounts>`${history.counts}`,
      moderations: sql<{ submitted: number; active_funds: number }>`${history.moderations}`,
    })
    .from(users)
    .where(eq(users.id, userId));
  return historyOf(row);
}
