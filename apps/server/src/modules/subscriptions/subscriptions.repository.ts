import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { categories, events, subscriptions } from '../../db/schema/index';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type NewSubscriptionRow = typeof subscriptions.$inferInsert;
/** What a subscription answer tells of its event. */
export interface SubscriptionEvent {
  name: string;
  description: string;
  active: boolean;
}

export async function insertSubscription(db: DbOrTx, values: NewSubscriptionRow) {
  const rows = await db.insert(subscriptions).values(values).returning();
  return rows[0]!;
}

export async function listForUserEvent(db: DbOrTx, userId: number, eventId: number) {
  return db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.eventId, eventId)))
    .orderBy(asc(subscriptions.id));
}

export async function findEventName(db: DbOrTx, eventId: number) {
  const rows = await db.select({ name: events.name }).from(events).where(eq(events.id, eventId)).limit(1);
  return rows[0]?.name;
}

export async function categoryTitles(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return new Map<number, string>();
  const rows = await db.select({ id: categories.id, title: categories.title }).from(categories).where(inArray(categories.id, ids));
  return new Map(rows.map((row) => [row.id, row.title]));
}

/** Category ids for ids or category document ids of the event; an unknown document id answers 0 (no category). */
export async function categoryIdsOf(db: DbOrTx, eventId: number, refs: (number | string)[]): Promise<number[]> {
  const documentIds = refs.filter((ref): ref is string => typeof ref === 'string');
  if (documentIds.length === 0) return refs as number[];
  const rows = await db
    .select({ id: categories.id, externalId: categories.externalId })
    .from(categories)
    .where(and(eq(categories.eventId, eventId), inArray(categories.externalId, documentIds)));
  const byDocument = new Map(rows.map((row) => [row.externalId, row.id]));
  return refs.map((ref) => (typeof ref === 'number' ? ref : (byDocument.get(ref) ?? 0)));
}

export async function eventCategoryIds(db: DbOrTx, eventId: number) {
  const rows = await db.select({ id: categories.id }).from(categories).where(eq(categories.eventId, eventId));
  return new Set(rows.map((row) => row.id));
}

export async function updateSubscription(db: DbOrTx, id: number, values: Partial<NewSubscriptionRow>) {
  const rows = await db.update(subscriptions).set(values).where(eq(subscriptions.id, id)).returning();
  return rows[0]!;
}

/** Locks the user's subscriptions to an event, so two answers to one invitation run one after the other. */
export async function lockForUserEvent(db: DbOrTx, userId: number, eventId: number) {
  return db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.eventId, eventId)))
    .orderBy(asc(subscriptions.id))
    .for('update');
}
