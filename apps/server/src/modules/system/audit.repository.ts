import { and, count, desc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { auditLog, catalystIds, users } from '../../db/schema/index';

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

/** Answers the entry's id. */
export async function insertAuditEntry(tx: DbOrTx, entry: AuditEntry): Promise<number> {
  const [row] = await tx.insert(auditLog).values(entry).returning({ id: auditLog.id });
  return row!.id;
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
