import type { AllocationConfig } from '@cr/contract/events';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import * as records from '../../db/config-records';

/**
 * An event's run flags: which admin runs have written their results (`proposal_allocation_generated`,
 * `moderation_allocation_generated`, and the keys later runs name). They live in the event's `allocations`
 * configuration record, which `GET configs/allocations/{event}` answers (spec §3 "Allocation config").
 */
export type RunFlags = Record<string, boolean>;

/** The flags the spec's allocation config always shows, false until their run writes. */
export const DEFAULT_RUN_FLAGS: AllocationConfig = { moderation_allocation_generated: false, proposal_allocation_generated: false };

const withDefaults = (value: unknown): RunFlags & AllocationConfig => ({ ...DEFAULT_RUN_FLAGS, ...((value as RunFlags | null) ?? {}) });

/** The event's flags, with the defaults where nothing was written; `row` is the stored record, if any. */
export async function readRunFlags(db: DbOrTx, eventId: number) {
  const row = await records.findConfig(db, 'allocations', eventId);
  return { row, value: withDefaults(row?.value) };
}

/** Creates the event's flags record if missing; outside any run's transaction, so that runs can lock it. */
export const ensureRunFlags = (db: DbOrTx, eventId: number) => records.ensureConfig(db, 'allocations', eventId, DEFAULT_RUN_FLAGS);

/** Locks the event's flags record without waiting (the driver's lock_not_available when another holds it). */
export async function lockRunFlagsNoWait(tx: DbOrTx, eventId: number) {
  const row = await records.findConfig(tx, 'allocations', eventId, { forUpdate: true, noWait: true });
  if (!row) throw new Error('ensureRunFlags first');
  return { id: row.id, value: withDefaults(row.value) };
}

export const setRunFlags = (tx: DbOrTx, id: number, value: RunFlags) => records.updateConfig(tx, id, value);

/** The events whose run flag `flag` is set (e.g. review_outcomes_generated: their reviews are public). */
export async function eventIdsWithRunFlag(db: DbOrTx, flag: string) {
  const rows = await records.cachedAllConfigs(db, 'allocations');
  return rows.filter((row) => row.eventId !== null && (row.value as RunFlags | null)?.[flag] === true).map((row) => row.eventId!);
}

/**
 * The event's run lock (a transaction-scoped advisory lock; its first key names it among the app's advisory locks).
 * A real admin run holds it exclusively, after its flags lock; a write that must not interleave with a run (an appeal,
 * an appeal decision) holds it shared: it waits for a run in progress and then reads what it wrote, and a run waits
 * for such writes in flight (milliseconds) instead of failing with "another run in progress", as a share lock on the
 * flags row made it do.
 */
const RUN_LOCK_SPACE = 0x43520001;
export async function lockRunExclusive(tx: DbOrTx, eventId: number) {
  await tx.execute(sql`select pg_advisory_xact_lock(${RUN_LOCK_SPACE}::int, ${eventId}::int)`);
}
export async function lockRunShared(tx: DbOrTx, eventId: number) {
  await tx.execute(sql`select pg_advisory_xact_lock_shared(${RUN_LOCK_SPACE}::int, ${eventId}::int)`);
}
