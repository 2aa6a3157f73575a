import { and, asc, count, desc, eq, gt, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { auditHeads, auditLog, catalystIds, users } from '../../db/schema/index';
import { asStored, createChainWalker, dataDigest, entryHash, type ChainHead, type ChainReport, type StoredEntry } from './audit-chain';
import { rowsOf } from '../../db/rows';

export interface AuditEntry {
  /** Null for changes made by an operator command rather than a logged-in user. */
  actorUserId: number | null;
  action: string;
  entity: string;
  entityId: string | null;
  /** The event the change belongs to, when it belongs to one. */
  eventId?: number | null;
  before: unknown;
  after: unknown;
}

/**
 * The audit chain's lock (a transaction-level advisory lock; its first key names it among the app's advisory locks,
 * see runs.repository): held from an append until its transaction ends, so that appends from any number of instances
 * take the heads in turn and make one chain.
 */
const AUDIT_LOCK_SPACE = 0x43520003;
const GLOBAL_CHAIN = 0;

/**
 * Appends one entry to the log and to its hash chains (issue 48 item 3; audit-chain.ts), in the caller's transaction
 * (a savepoint of it; a transaction of its own when given the database): takes the chain's lock, reads the heads
 * (the log's, and its event's), takes the next id and the transaction's time (to the millisecond, as stored and read
 * back), hashes and inserts the entry and moves the heads. Answers the entry's id.
 */
export async function insertAuditEntry(db: DbOrTx, entry: AuditEntry): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${AUDIT_LOCK_SPACE}::int, 0)`);
    const eventId = entry.eventId ?? null;
    const [next] = rowsOf<{ id: string; ms: number }>(
      await tx.execute(
        sql`select nextval(pg_get_serial_sequence('audit_log', 'id'))::text as id, floor(extract(epoch from now()) * 1000)::float8 as ms`,
      ),
    );
    const heads = await tx
      .select()
      .from(auditHeads)
      .where(inArray(auditHeads.chain, eventId === null ? [GLOBAL_CHAIN] : [GLOBAL_CHAIN, eventId]));
    const headOf = (chain: number) => heads.find((head) => head.chain === chain)?.hash ?? null;
    const before = asStored(entry.before);
    const after = asStored(entry.after);
    const header = {
      id: Number(next!.id),
      createdAt: new Date(Number(next!.ms)),
      actorUserId: entry.actorUserId,
      action: entry.action,
      entity: entry.entity,
      entityId: entry.entityId,
      eventId,
      dataSha256: dataDigest(before, after),
      prevHash: headOf(GLOBAL_CHAIN),
      eventPrevHash: eventId === null ? null : headOf(eventId),
    };
    const hash = entryHash(header);
    await tx.insert(auditLog).values({ ...header, before, after, hash });
    for (const chain of eventId === null ? [GLOBAL_CHAIN] : [GLOBAL_CHAIN, eventId])
      await tx
        .insert(auditHeads)
        .values({ chain, entryId: header.id, hash })
        .onConflictDoUpdate({ target: auditHeads.chain, set: { entryId: header.id, hash } });
    return header.id;
  });
}

/** Entries read per page by the verification. */
const VERIFY_PAGE = 10_000;

interface VerifyRow {
  id: string;
  ms: number;
  actor_user_id: number | null;
  action: string;
  entity: string;
  entity_id: string | null;
  event_id: number | null;
  before: string | null;
  after: string | null;
  data_sha256: string | null;
  prev_hash: string | null;
  event_prev_hash: string | null;
  hash: string | null;
  redacted: boolean;
}

/** One page of the log in id order, as the driver gives it (no ORM mapping: a million rows are read). */
const verifyPage = async (db: DbOrTx, after: number) =>
  rowsOf<VerifyRow>(
    await db.execute(
      sql`select id::text as id, extract(epoch from created_at)::float8 * 1000 as ms, actor_user_id, action, entity, entity_id, event_id,
          before::text as before, after::text as after, data_sha256, prev_hash, event_prev_hash, hash,
          redacted_at is not null as redacted
          from audit_log where audit_log.id > ${after} order by audit_log.id limit ${VERIFY_PAGE}`,
    ),
  );

/**
 * Walks the whole log in id order and checks every link (audit-chain.ts createChainWalker), then the heads: answers
 * whether the chain verifies, how many entries it checked, its head and the first broken link. The next page is read
 * while one is checked. `onPage` reports progress (the CLI's).
 */
export async function verifyAuditChain(db: DbOrTx, options: { onPage?: (checked: number) => void } = {}): Promise<ChainReport> {
  const walker = createChainWalker();
  let seen = 0;
  let next = verifyPage(db, 0);
  for (;;) {
    const rows = await next;
    if (rows.length === VERIFY_PAGE) next = verifyPage(db, Number(rows.at(-1)!.id));
    const entries: StoredEntry[] = rows.map((row) => ({
      id: Number(row.id),
      createdAt: new Date(Math.round(Number(row.ms))),
      actorUserId: row.actor_user_id,
      action: row.action,
      entity: row.entity,
      entityId: row.entity_id,
      eventId: row.event_id,
      before: row.before === null ? null : (JSON.parse(row.before) as unknown),
      after: row.after === null ? null : (JSON.parse(row.after) as unknown),
      dataSha256: row.data_sha256,
      prevHash: row.prev_hash,
      eventPrevHash: row.event_prev_hash,
      hash: row.hash,
      redacted: row.redacted,
    }));
    seen += entries.length;
    if (!walker.feed(entries)) {
      if (rows.length === VERIFY_PAGE) await next.catch(() => undefined);
      break;
    }
    options.onPage?.(seen);
    if (rows.length < VERIFY_PAGE) break;
  }
  const heads: ChainHead[] = await db.select().from(auditHeads);
  return walker.finish(heads);
}

/** The chains' heads (the log's is chain 0). */
export function readAuditHeads(db: DbOrTx): Promise<ChainHead[]> {
  return db.select().from(auditHeads).orderBy(asc(auditHeads.chain));
}

/**
 * An event's entries in id order with their chain fields, for the open data (page by page, `after` an id).
 */
export function eventAuditPage(db: DbOrTx, eventId: number, after: number, size: number) {
  return db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.eventId, eventId), gt(auditLog.id, after)))
    .orderBy(asc(auditLog.id))
    .limit(size);
}

export interface AuditFilter {
  eventId?: number | undefined;
  /** With eventId: also the changes that belong to no event. */
  includeGlobal?: boolean;
  /** The action exactly. */
  action?: string | undefined;
  /** The actor's Catalyst ID, case aside. */
  actor?: string | undefined;
}

function auditWhere(filter: AuditFilter): SQL | undefined {
  const event =
    filter.eventId === undefined
      ? undefined
      : filter.includeGlobal
        ? or(eq(auditLog.eventId, filter.eventId), sql`${auditLog.eventId} is null`)
        : eq(auditLog.eventId, filter.eventId);
  const actor =
    filter.actor === undefined
      ? undefined
      : sql`${auditLog.actorUserId} in (select ${users.id} from ${users} join ${catalystIds} on ${catalystIds.id} = ${users.catalystIdRef}
          where lower(${catalystIds.catalystId}) = ${filter.actor.toLowerCase()})`;
  return and(event, filter.action === undefined ? undefined : eq(auditLog.action, filter.action), actor);
}

/**
 * The audit log, newest first, with the actor's Catalyst ID, filtered by event, action and actor. The log holds admin
 * changes and runs only (hundreds a round), so the action and actor filters need no index of their own.
 */
export async function listAuditEntries(db: DbOrTx, filter: AuditFilter, page: { size: number; page: number }) {
  const where = auditWhere(filter);
  const [rows, totals] = await Promise.all([
    db
      .select({ entry: auditLog, actor: catalystIds.catalystId })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorUserId))
      .leftJoin(catalystIds, eq(catalystIds.id, users.catalystIdRef))
      .where(where)
      .orderBy(desc(auditLog.id))
      .limit(page.size)
      .offset(page.size * page.page),
    db.select({ total: count() }).from(auditLog).where(where),
  ]);
  return { rows, total: totals[0]?.total ?? 0 };
}

/** The actions the log holds, in name order (the audit tab's filter choices). */
export async function listAuditActions(db: DbOrTx): Promise<string[]> {
  const rows = await db.selectDistinct({ action: auditLog.action }).from(auditLog).orderBy(auditLog.action);
  return rows.map((row) => row.action);
}
