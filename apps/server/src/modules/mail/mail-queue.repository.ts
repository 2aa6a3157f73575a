import { and, count, desc, eq, inArray, isNotNull, lt, lte, min, or, sql } from 'drizzle-orm';
import type { RenderedMail } from '../../adapters/mail';
import type { Db, DbOrTx } from '../../db/client';
import { outbox } from '../../db/schema/index';

export type OutboxRow = typeof outbox.$inferSelect;

/** The rendered fields a delivery stores on its row (a mail queued with params only). */
const renderedColumns = (rendered: RenderedMail | undefined) =>
  rendered
    ? {
        subject: rendered.subject,
        textBody: rendered.text,
        htmlBody: rendered.html,
        link: rendered.link ?? null,
        headers: rendered.headers ?? null,
      }
    : {};

/**
 * Claims up to `limit` due mails for this worker and commits at once: queued mails whose time has come, and mails
 * whose sender's lease ran out (it died mid-send). Rows other workers hold are skipped (FOR UPDATE SKIP LOCKED), so
 * each row goes to one worker. A claimed row is `sending` until `leaseSeconds` from now, its attempts counted up.
 * Rows queued without a subject are claimed only for the kinds this process can render.
 */
export function claimDueMails(db: Db, options: { limit: number; leaseSeconds: number; kinds: string[] }): Promise<OutboxRow[]> {
  const renderable =
    options.kinds.length > 0 ? or(isNotNull(outbox.subject), inArray(outbox.kind, options.kinds)) : isNotNull(outbox.subject);
  const due = db.$with('due').as(
    db
      .select({ id: outbox.id })
      .from(outbox)
      .where(
        and(
          inArray(outbox.status, ['queued', 'sending']),
          or(
            and(eq(outbox.status, 'queued'), lte(outbox.nextAttemptAt, sql`now()`)),
            and(eq(outbox.status, 'sending'), lt(outbox.claimedUntil, sql`now()`)),
          ),
          renderable,
        ),
      )
      .orderBy(outbox.nextAttemptAt, outbox.id)
      .limit(options.limit)
      .for('update', { skipLocked: true }),
  );
  return db
    .with(due)
    .update(outbox)
    .set({
      status: 'sending',
      attempts: sql`${outbox.attempts} + 1`,
      claimedUntil: sql`now() + make_interval(secs => ${options.leaseSeconds})`,
    })
    .where(inArray(outbox.id, db.select({ id: due.id }).from(due)))
    .returning();
}

/** The row as this worker claimed it: still sending, with the attempt count of its claim (no one took it over since). */
const ours = (row: Pick<OutboxRow, 'id' | 'attempts'>) =>
  and(eq(outbox.id, row.id), eq(outbox.status, 'sending'), eq(outbox.attempts, row.attempts));

export async function markMailSent(db: Db, row: OutboxRow, rendered?: RenderedMail): Promise<void> {
  await db
    .update(outbox)
    .set({ status: 'sent', sentAt: sql`now()`, claimedUntil: null, error: null, ...renderedColumns(rendered) })
    .where(ours(row));
}

/** A temporary failure: queued again for `delaySeconds` from now, with the error. */
export async function markMailRetry(db: Db, row: OutboxRow, delaySeconds: number, error: string, rendered?: RenderedMail): Promise<void> {
  await db
    .update(outbox)
    .set({
      status: 'queued',
      claimedUntil: null,
      nextAttemptAt: sql`now() + make_interval(secs => ${delaySeconds})`,
      error,
      ...renderedColumns(rendered),
    })
    .where(ours(row));
}

/** A permanent failure (or the last attempt): kept with its reason; `next_attempt_at` says when it failed. */
export async function markMailFailed(db: Db, row: OutboxRow, error: string, rendered?: RenderedMail): Promise<void> {
  await db
    .update(outbox)
    .set({ status: 'failed', claimedUntil: null, nextAttemptAt: sql`now()`, error, ...renderedColumns(rendered) })
    .where(ours(row));
}

/** A claimed mail the worker did not start sending (it is stopping): queued again as it was. */
export async function releaseMail(db: Db, row: OutboxRow): Promise<void> {
  await db
    .update(outbox)
    .set({ status: 'queued', claimedUntil: null, attempts: sql`${outbox.attempts} - 1` })
    .where(ours(row));
}

/** Mails per kind and status. */
export function countMailsByKindAndStatus(db: DbOrTx) {
  return db
    .select({ kind: outbox.kind, status: outbox.status, count: count() })
    .from(outbox)
    .groupBy(outbox.kind, outbox.status)
    .orderBy(outbox.kind);
}

/** How long the oldest queued mail has waited, in seconds (null: none queued). */
export async function oldestQueuedAge(db: DbOrTx): Promise<number | null> {
  const [row] = await db
    .select({ seconds: sql<number | null>`extract(epoch from now() - ${min(outbox.createdAt)})::float8` })
    .from(outbox)
    .where(eq(outbox.status, 'queued'));
  return row?.seconds ?? null;
}

/** The latest failed mails, newest first. */
export function latestFailedMails(db: DbOrTx, limit: number) {
  return db
    .select({
      id: outbox.id,
      kind: outbox.kind,
      recipient: outbox.recipient,
      error: outbox.error,
      attempts: outbox.attempts,
      failedAt: outbox.nextAttemptAt,
      createdAt: outbox.createdAt,
    })
    .from(outbox)
    .where(eq(outbox.status, 'failed'))
    .orderBy(desc(outbox.nextAttemptAt), desc(outbox.id))
    .limit(limit);
}

/** Failed mails (all, of one kind, or one) queued again from scratch; answers their ids. */
export async function requeueFailedMails(tx: DbOrTx, filter: { kind?: string | undefined; id?: number | undefined }): Promise<number[]> {
  const rows = await tx
    .update(outbox)
    .set({ status: 'queued', attempts: 0, nextAttemptAt: sql`now()`, claimedUntil: null })
    .where(
      and(
        eq(outbox.status, 'failed'),
        filter.kind === undefined ? undefined : eq(outbox.kind, filter.kind),
        filter.id === undefined ? undefined : eq(outbox.id, filter.id),
      ),
    )
    .returning({ id: outbox.id });
  return rows.map((row) => row.id);
}
