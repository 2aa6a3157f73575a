import type { Db, DbOrTx } from '../../db/client';
import { insertAuditEntry as insertEntry, listAuditActions, listAuditEntries, type AuditEntry, type AuditFilter } from './audit.repository';

export type { AuditEntry };

/** Records one change inside the caller's transaction, so the entry exists exactly when the change does; answers its id. */
export function recordAudit(tx: DbOrTx, entry: AuditEntry): Promise<number> {
  return insertEntry(tx, entry);
}

/** Reads the audit log: an event's history (or everything), newest first, with the actor's Catalyst ID. */
export function createAuditService(db: Db) {
  return {
    /** Issue 28 item 4: filtered by event, action and actor (the admin's audit tab). */
    async list(filter: Pick<AuditFilter, 'eventId' | 'action' | 'actor'>, page: { size: number; page: number }) {
      const { rows, total } = await listAuditEntries(db, filter, page);
      return {
        data: rows.map(({ entry, actor }) => ({
          id: entry.id,
          action: entry.action,
          entity: entry.entity,
          entity_id: entry.entityId,
          actor,
          event_id: entry.eventId,
          before: entry.before,
          after: entry.after,
          created_at: entry.createdAt.toISOString(),
        })),
        page: { total, size: page.size, page: page.page },
      };
    },

    actions: () => listAuditActions(db),
  };
}
export type AuditService = ReturnType<typeof createAuditService>;
