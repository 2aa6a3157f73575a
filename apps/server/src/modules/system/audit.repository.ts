import type { DbOrTx } from '../../db/client';
import { auditLog } from '../../db/schema/index';

export interface AuditEntry {
  /** Null for changes made by an operator command rather than a logged-in user. */
  actorUserId: number | null;
  action: string;
  entity: string;
  entityId: string;
  before: unknown;
  after: unknown;
}

export async function insertAuditEntry(tx: DbOrTx, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values(entry);
}
