import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { reviewFlags, reviews } from '../../db/schema/index';

export type FlagRowInsert = typeof reviewFlags.$inferInsert;

/** An event's reviews with their three notes, in id order: the flag run's input. */
export function reviewNotes(db: DbOrTx, eventId: number) {
  return db
    .select({
      id: reviews.id,
      impact: reviews.impactNote,
      feasibility: reviews.feasibilityNote,
      auditability: reviews.auditabilityNote,
    })
    .from(reviews)
    .where(eq(reviews.eventId, eventId))
    .orderBy(asc(reviews.id));
}

/** Which of these ids are reviews of the event. */
export async function reviewIdsOfEvent(db: DbOrTx, eventId: number, ids: number[]) {
  const found = new Set<number>();
  for (let i = 0; i < ids.length; i += 10_000) {
    const rows = await db
      .select({ id: reviews.id })
      .from(reviews)
      .where(and(eq(reviews.eventId, eventId), inArray(reviews.id, ids.slice(i, i + 10_000))));
    for (const row of rows) found.add(row.id);
  }
  return found;
}

/** Replaces the event's flags of the given types with these rows (inserted in batches). */
export async function replaceFlags(tx: DbOrTx, eventId: number, types: number[], rows: FlagRowInsert[]) {
  if (types.length > 0) await tx.delete(reviewFlags).where(and(eq(reviewFlags.eventId, eventId), inArray(reviewFlags.flagType, types)));
  for (let i = 0; i < rows.length; i += 2_000) await tx.insert(reviewFlags).values(rows.slice(i, i + 2_000));
}

/** The ids of the event's flagged reviews. */
export async function flaggedReviewIds(db: DbOrTx, eventId: number): Promise<Set<number>> {
  const rows = await db.selectDistinct({ id: reviewFlags.reviewId }).from(reviewFlags).where(eq(reviewFlags.eventId, eventId));
  return new Set(rows.map((row) => row.id));
}
