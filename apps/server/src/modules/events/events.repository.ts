import { asc, count, desc, eq, sql } from 'drizzle-orm';
import type { EventPublic } from '@cr/contract/events';
import type { DbOrTx } from '../../db/client';
import { categories, events } from '../../db/schema/index';
import { eventsOrConfigsChanged } from '../../db/read-cache';

export type EventRow = typeof events.$inferSelect;

export function toEventPublic(row: EventRow): EventPublic {
  return {
    row_id: row.id,
    name: row.name,
    description: row.description,
    active: row.active,
    start_time: row.startTime?.toISOString() ?? null,
    end_time: row.endTime?.toISOString() ?? null,
  };
}

/** Current (active) events first, then newest first: the rounds an admin works on stay on the first page. */
export async function listEvents(db: DbOrTx, page: { size: number; page: number }) {
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(events)
      .orderBy(desc(events.active), desc(events.id))
      .limit(page.size)
      .offset(page.size * page.page),
    db.select({ total: count() }).from(events),
  ]);
  return { rows, total: totals[0]?.total ?? 0 };
}

export async function listActiveEvents(db: DbOrTx) {
  return db.select().from(events).where(eq(events.active, true)).orderBy(asc(events.id));
}

export async function findEvent(db: DbOrTx, id: number, options: { forUpdate?: boolean } = {}) {
  const query = db.select().from(events).where(eq(events.id, id)).limit(1);
  const rows = options.forUpdate ? await query.for('update') : await query;
  return rows[0];
}

/** Locks an event's row against a second run without blocking foreign-key checks of writes that reference it. */
export async function lockEventNoWait(db: DbOrTx, id: number) {
  const rows = await db.select().from(events).where(eq(events.id, id)).limit(1).for('no key update', { noWait: true });
  return rows[0];
}

export async function findEventByName(db: DbOrTx, name: string) {
  const rows = await db
    .select()
    .from(events)
    .where(sql`lower(${events.name}) = lower(${name})`)
    .limit(1);
  return rows[0];
}

type EventValues = { name: string; description: string; active: boolean; startTime: Date | null; endTime: Date | null };

export async function insertEvent(db: DbOrTx, values: EventValues) {
  const rows = await db.insert(events).values(values).returning();
  eventsOrConfigsChanged();
  return rows[0]!;
}

export async function updateEvent(db: DbOrTx, id: number, values: EventValues) {
  const rows = await db
    .update(events)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(events.id, id))
    .returning();
  eventsOrConfigsChanged();
  return rows[0];
}

export async function listCategories(db: DbOrTx, eventId?: number) {
  const query = db.select().from(categories);
  return eventId === undefined
    ? query.orderBy(asc(categories.eventId), asc(categories.title))
    : query.where(eq(categories.eventId, eventId)).orderBy(asc(categories.title));
}

/** Finds or creates categories by title for an event; answers all of them in the given order. */
export async function ensureCategories(
  db: DbOrTx,
  eventId: number,
  items: { title: string; description?: string | null; externalId?: string | null }[],
) {
  if (items.length === 0) return [];
  await db
    .insert(categories)
    .values(
      items.map((item) => ({ eventId, title: item.title, description: item.description ?? null, externalId: item.externalId ?? null })),
    )
    .onConflictDoNothing();
  eventsOrConfigsChanged();
  const rows = await db.select().from(categories).where(eq(categories.eventId, eventId));
  const byTitle = new Map(rows.map((row) => [row.title.toLowerCase(), row]));
  return items.map((item) => byTitle.get(item.title.toLowerCase())!);
}
