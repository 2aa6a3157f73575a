import type { Db, DbOrTx } from '../../db/client';
import type { AuditChainStatus } from '@cr/contract/open-data';
import {
  insertAuditEntry as insertEntry,
  listAuditActions,
  listAuditEntries,
  verifyAuditChain,
  type AuditEntry,
  type AuditFilter,
} from './audit.repository';

export type { AuditEntry };

/** Records one change inside the caller's transaction, so the entry exists exactly when the change does; answers its id. */
export function recordAudit(tx: DbOrTx, entry: AuditEntry): Promise<number> {
  return insertEntry(tx, entry);
}

/** Reads the audit log: an event's history (or everything), newest first, with the actor's Catalyst ID. */
export function createAuditService(db: Db) {
  // A walk of the whole log reads every entry (seconds for a million): requests that arrive during one share it (its
  // answer is never served after it finished: a stale "verified" is what this must not say).
  let walking: Promise<AuditChainStatus> | null = null;
  return {
    /** Issue 48: `GET admin/audit/chain/`, whether the log's hash chain verifies, and its head. */
    chain: () =>
      (walking ??= (async () => {
        const report = await verifyAuditChain(db);
        return {
          verified: report.verified,
          entries: report.entries,
          legacy: report.legacy,
          redacted: report.redacted,
          head: report.head ? { entry_id: report.head.id, hash: report.head.hash } : null,
          broken: report.broken ? { entry_id: report.broken.entryId, reason: report.broken.reason } : null,
          checked_at: new Date().toISOString(),
        };
      })().finally(() => {
        walking = null;
      })),

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
