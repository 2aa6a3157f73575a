import { MAIL_STATUSES, type MailQueueKind, type MailQueueOverview, type RetryFailedMails } from '@cr/contract/mail';
import type { Db } from '../../db/client';
import { notFound } from '../../errors';
import { recordAudit } from '../system/audit.service';
/** Other modules register how their bulk mails render through this service (issue 27). */
export { registerMailTemplate } from './mail-templates';
import { countMailsByKindAndStatus, latestFailedMails, oldestQueuedAge, requeueFailedMails } from './mail-queue.repository';

/** Failures the admin's queue view lists. */
const FAILURES_SHOWN = 20;

const zeroCounts = () => Object.fromEntries(MAIL_STATUSES.map((status) => [status, 0])) as Omit<MailQueueKind, 'kind'>;

/** The admin's view of the mail queue and its "retry failed" (issue 27 item 1). */
export function createMailQueueService(deps: { db: Db; wakeWorker: () => void }) {
  const { db } = deps;
  return {
    async overview(): Promise<MailQueueOverview> {
      const [counts, oldest, failures] = await Promise.all([
        countMailsByKindAndStatus(db),
        oldestQueuedAge(db),
        latestFailedMails(db, FAILURES_SHOWN),
      ]);
      const kinds = new Map<string, MailQueueKind>();
      const totals = zeroCounts();
      for (const { kind, status, count } of counts) {
        const row = kinds.get(kind) ?? { kind, ...zeroCounts() };
        if (MAIL_STATUSES.includes(status)) {
          row[status] += count;
          totals[status] += count;
        }
        kinds.set(kind, row);
      }
      return {
        kinds: [...kinds.values()],
        totals,
        oldest_queued_seconds: oldest === null ? null : Math.max(0, Math.round(oldest)),
        failures: failures.map((failure) => ({
          id: failure.id,
          kind: failure.kind,
          recipient: failure.recipient,
          error: failure.error,
          attempts: failure.attempts,
          failed_at: failure.failedAt.toISOString(),
          created_at: failure.createdAt.toISOString(),
        })),
      };
    },

    /** Failed mails back to the queue, attempts from zero; audited. A given id that is not a failed mail is 404. */
    async retryFailed(actorUserId: number, filter: RetryFailedMails): Promise<{ retried: number }> {
      const ids = await db.transaction(async (tx) => {
        const requeued = await requeueFailedMails(tx, filter);
        if (filter.id !== undefined && requeued.length === 0) throw notFound('There is no failed mail with this id.');
        await recordAudit(tx, {
          actorUserId,
          action: 'mail.retry_failed',
          entity: 'outbox',
          entityId: filter.id === undefined ? null : String(filter.id),
          before: null,
          after: { kind: filter.kind ?? null, id: filter.id ?? null, retried: requeued.length },
        });
        return requeued;
      });
      if (ids.length > 0) deps.wakeWorker();
      return { retried: ids.length };
    },
  };
}
export type MailQueueService = ReturnType<typeof createMailQueueService>;
