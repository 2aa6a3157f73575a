import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { perDatabase } from '../../db/named-statements';
import { activeReviewerSubscription } from '../../db/rules';
import { catalystIds, events, subscriptions, users } from '../../db/schema/index';

/** The user id of a Catalyst ID (normalised, without its scheme). */
export async function userIdOfCatalystId(db: DbOrTx, catalystId: string) {
  const rows = await db
    .select({ userId: users.id })
    .from(users)
    .innerJoin(catalystIds, eq(users.catalystIdRef, catalystIds.id))
    .where(eq(catalystIds.catalystId, catalystId))
    .limit(1);
  return rows[0]?.userId;
}

export async function subscriptionIdsOf(db: DbOrTx, userId: number) {
  return (await subscriptionsOf(db, userId)).map((row) => row.id);
}

/**
 * Built once per database with a placeholder and run by name (db/named-statements): a signed-in list reads the
 * viewer's subscriptions on every request, and building the query cost more than running it.
 */
const subscriptionsStatement = perDatabase((db) =>
  db
    .select({ id: subscriptions.id, eventId: subscriptions.eventId })
    .from(subscriptions)
    .where(eq(subscriptions.userId, sql.placeholder('userId')))
    .prepare('lookups_subscriptions_of'),
);

/** Every subscription of a user with its event. */
export async function subscriptionsOf(db: DbOrTx, userId: number) {
  return subscriptionsStatement(db).execute({ userId });
}

const activeReviewerStatement = perDatabase((db) =>
  db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .innerJoin(events, eq(events.id, subscriptions.eventId))
    .where(and(eq(subscriptions.userId, sql.placeholder('userId')), activeReviewerSubscription(), eq(events.active, true)))
    .prepare('lookups_active_reviewer_subscriptions'),
);

/** A user's active LV0/LV1 subscriptions to active events: whose allocations they see. */
export async function activeReviewerSubscriptionIds(db: DbOrTx, userId: number) {
  const rows = await activeReviewerStatement(db).execute({ userId });
  return rows.map((row) => row.id);
}
