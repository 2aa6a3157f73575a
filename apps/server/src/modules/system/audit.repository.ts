import { and, count, desc, eq, or, sql } from 'drizzle-orm';
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

/** An event's history, newest first, with the actor's Catalyst ID; `includeGlobal` adds changes that belong to no event. */
export async function listAuditEntries(
  db: DbOrTx,
  filter: { eventId?: number; includeGlobal?: boolean },
  page: { size: number; page: number },
) {
  const where =
    filter.eventId === undefined
      ? undefined
      : filter.includeGlobal
        ? or(eq(auditLog.eventId, filter.eventId), sql`${auditLog.eventId} is null`)
        : eq(auditLog.eventId, filter.eventId);
  const [rows, totals] = await Promise.all([
    db
      .select({ entry: auditLog, actor: catalystIds.catalystId })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorUserId))
      .leftJoin(catalystIds, eq(catalystIds.id, users.catalystIdRef))
      .where(and(where))
      .orderBy(desc(auditLog.id))
      .limit(page.size)
      .offset(page.size * page.page),
    db.select({ total: count() }).from(auditLog).where(and(where)),
  ]);
  return { rows, total: totals[0]?.total ?? 0 };
}
