import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { moderationAllocations, reviews, subscriptions } from '../../db/schema/index';

/** The event's reviews with their writer (user id) and objective: the moderation allocation's reviews. */
export function allocationReviews(db: DbOrTx, eventId: number) {
  return db
    .select({ id: reviews.id, reviewer: subscriptions.userId, category: reviews.categoryId })
    .from(reviews)
    .innerJoin(subscriptions, eq(subscriptions.id, reviews.subscriptionId))
    .where(eq(reviews.eventId, eventId))
    .orderBy(asc(reviews.id));
}

export async function insertModerationAllocations(tx: DbOrTx, eventId: number, reviewIds: Int32Array, subscriptionIds: number[]) {
  const rows = Array.from(reviewIds, (reviewId, i) => ({ eventId, reviewId, subscriptionId: subscriptionIds[i]! }));
  for (let i = 0; i < rows.length; i += 5_000) await tx.insert(moderationAllocations).values(rows.slice(i, i + 5_000));
}
