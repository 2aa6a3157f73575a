import { and, asc, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { EventPublic } from '@cr/contract/events';
import type { DbOrTx } from '../../db/client';
import { categories, configs, events, type ConfigKind } from '../../db/schema/index';

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

export async function listEvents(db: DbOrTx, page: { size: number; page: number }) {
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(events)
      .orderBy(desc(events.id))
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
  return rows[0]!;
}

export async function updateEvent(db: DbOrTx, id: number, values: EventValues) {
  const rows = await db
    .update(events)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(events.id, id))
    .returning();
  return rows[0];
}

const configScope = (kind: ConfigKind, eventId: number | null) =>
  and(eq(configs.kind, kind), eventId === null ? isNull(configs.eventId) : eq(configs.eventId, eventId));

export async function findConfig(
  db: DbOrTx,
  kind: ConfigKind,
  eventId: number | null,
  options: { forUpdate?: boolean; noWait?: boolean } = {},
) {
  const query = db.select().from(configs).where(configScope(kind, eventId)).limit(1);
  const rows = options.forUpdate ? await query.for('update', options.noWait ? { noWait: true } : {}) : await query;
  return rows[0];
}

export async function findConfigs(db: DbOrTx, kind: ConfigKind, eventIds: number[]) {
  if (eventIds.length === 0) return [];
  return db
    .select()
    .from(configs)
    .where(and(eq(configs.kind, kind), inArray(configs.eventId, eventIds)));
}

/**
 * Locks the configuration record of a kind and event for a change, first creating it with `initial` when there is
 * none. Two first saves of one record then queue up on the lock instead of both inserting (which broke the unique
 * index and answered 500 on PostgreSQL).
 */
export async function lockConfig(db: DbOrTx, kind: ConfigKind, eventId: number | null, initial: unknown) {
  await db.insert(configs).values({ kind, eventId, value: initial }).onConflictDoNothing();
  return (await findConfig(db, kind, eventId, { forUpdate: true }))!;
}

export async function allConfigs(db: DbOrTx, kind: ConfigKind) {
  return db.select({ eventId: configs.eventId, value: configs.value }).from(configs).where(eq(configs.kind, kind));
}

/** Creates the record if missing (committed at once when `db` is not a transaction). */
export async function ensureConfig(db: DbOrTx, kind: ConfigKind, eventId: number | null, initial: unknown) {
  await db.insert(configs).values({ kind, eventId, value: initial }).onConflictDoNothing();
}

export async function updateConfig(db: DbOrTx, id: number, value: unknown) {
  const rows = await db.update(configs).set({ value, updatedAt: new Date() }).where(eq(configs.id, id)).returning();
  return rows[0]!;
}

/** Insert or replace one configuration record; answers the stored row. */
export async function upsertConfig(db: DbOrTx, kind: ConfigKind, eventId: number | null, value: unknown) {
  const existing = await lockConfig(db, kind, eventId, value);
  return updateConfig(db, existing.id, value);
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
  const rows = await db.select().from(categories).where(eq(categories.eventId, eventId));
  const byTitle = new Map(rows.map((row) => [row.title.toLowerCase(), row]));
  return items.map((item) => byTitle.get(item.title.toLowerCase())!);
}
