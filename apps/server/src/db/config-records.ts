import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from './client';
import { cachedRead, eventsOrConfigsChanged } from './read-cache';
import { configs, type ConfigKind } from './schema/index';

/*
 * Configuration records (table `configs`): one JSON value per kind and event (or site-wide, event null). Shared by
 * the per-event configuration (modules/events/event-config.service.ts), the site-wide status messages
 * (modules/system/status.service.ts) and the admin runs' flags (modules/runs/runs.repository.ts).
 */

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
  eventsOrConfigsChanged();
  return (await findConfig(db, kind, eventId, { forUpdate: true }))!;
}

export async function allConfigs(db: DbOrTx, kind: ConfigKind) {
  return db.select({ eventId: configs.eventId, value: configs.value }).from(configs).where(eq(configs.kind, kind));
}

/** allConfigs through the in-process read cache (db/read-cache): for list requests, never inside a transaction. */
export function cachedAllConfigs(db: DbOrTx, kind: ConfigKind) {
  return cachedRead(db, `configs:${kind}`, () => allConfigs(db, kind));
}

/** Creates the record if missing (committed at once when `db` is not a transaction). */
export async function ensureConfig(db: DbOrTx, kind: ConfigKind, eventId: number | null, initial: unknown) {
  await db.insert(configs).values({ kind, eventId, value: initial }).onConflictDoNothing();
  eventsOrConfigsChanged();
}

export async function updateConfig(db: DbOrTx, id: number, value: unknown) {
  const rows = await db.update(configs).set({ value, updatedAt: new Date() }).where(eq(configs.id, id)).returning();
  eventsOrConfigsChanged();
  return rows[0]!;
}

/** Insert or replace one configuration record; answers the stored row. */
export async function upsertConfig(db: DbOrTx, kind: ConfigKind, eventId: number | null, value: unknown) {
  const existing = await lockConfig(db, kind, eventId, value);
  return updateConfig(db, existing.id, value);
}
