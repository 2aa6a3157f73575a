import { and, count, desc, eq, inArray, isNotNull, lt, lte, min, or, sql } from 'drizzle-orm';
import { AccountStatus } from '@cr/contract/users';
import type { RenderedMail } from '../../adapters/mail';
import type { Db, DbOrTx } from '../../db/client';
import { catalystIds, outbox, users } from '../../db/schema/index';

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

/**
 * The row as this worker holds it: claimed (`sending`) with the attempt count of its claim, so no one took it over
 * since; or, after the worker recorded it `sent` before ending the message, `sent` by that same attempt.
 */
const ours = (row: Pick<OutboxRow, 'id' | 'attempts'>, status: 'sending' | 'sent' = 'sending') =>
  and(eq(outbox.id, row.id), eq(outbox.status, status), eq(outbox.attempts, row.attempts));

/**
 * Records a claimed mail as sent; answers false when the row is no longer this worker's (its lease ran out and
 * another worker claimed it: that one sends it, this one must drop its message).
 */
export async function markMailSent(db: DbOrTx, row: OutboxRow, rendered?: RenderedMail): Promise<boolean> {
  const updated = await db
    .update(outbox)
    .set({ status: 'sent', sentAt: sql`now()`, claimedUntil: null, error: null, ...renderedColumns(rendered) })
    .where(ours(row))
    .returning({ id: outbox.id });
  return updated.length > 0;
}

/**
 * Whose a failure is: a claimed row (`sending`, the server refused before the end of the message), or a row the
 * worker already recorded as sent before ending the message, which the server then refused.
 */
export type HeldAs = 'sending' | 'sent';

/** A temporary failure: queued again for `delaySeconds` from now, with the error. */
export async function markMailRetry(
  db: Db,
  row: OutboxRow,
  delaySeconds: number,
  error: string,
  rendered?: RenderedMail,
  heldAs: HeldAs = 'sending',
): Promise<void> {
  await db
    .update(outbox)
    .set({
      status: 'queued',
      claimedUntil: null,
      sentAt: null,
      nextAttemptAt: sql`now() + make_interval(secs => ${delaySeconds})`,
      error,
      ...renderedColumns(rendered),
    })
    .where(ours(row, heldAs));
}

/** A permanent failure (or the last attempt): kept with its reason; `next_attempt_at` says when it failed. */
export async function markMailFailed(
  db: Db,
  row: OutboxRow,
  error: string,
  rendered?: RenderedMail,
  heldAs: HeldAs = 'sending',
): Promise<void> {
  await db
    .update(outbox)
    .set({ status: 'failed', claimedUntil: null, sentAt: null, nextAttemptAt: sql`now()`, error, ...renderedColumns(rendered) })
    .where(ours(row, heldAs));
}

/**
 * Of the claimed notifications, those that must not go out now, with why: the account is gone or no longer active
 * (banned, deactivated since the mail was queued), or its owner turned the kind off. Account mails and mails
 * without an account are not looked at.
 */
export async function undeliverableNotifications(db: DbOrTx, rows: OutboxRow[], kinds: readonly string[]): Promise<Map<number, string>> {
  const notifications = rows.filter((row) => kinds.includes(row.kind));
  const reasons = new Map<number, string>();
  if (notifications.length === 0) return reasons;
  const ids = notifications.map((row) => row.id);
  const found = await db
    .select({
      id: outbox.id,
      status: catalystIds.status,
      optedOut: sql<boolean>`exists (select 1 from notification_opt_outs o where o.user_id = ${outbox.userId} and o.kind = ${outbox.kind})`,
    })
    .from(outbox)
    .innerJoin(users, eq(users.id, outbox.userId))
    .innerJoin(catalystIds, eq(catalystIds.id, users.catalystIdRef))
    .where(inArray(outbox.id, ids));
  const byId = new Map(found.map((row) => [row.id, row]));
  for (const row of notifications) {
    const account = byId.get(row.id);
    // user_id is set null when the account is deleted.
    if (!account) reasons.set(row.id, 'recipient account no longer exists');
    else if (account.status !== AccountStatus.active) reasons.set(row.id, 'recipient account no longer active');
    else if (account.optedOut) reasons.set(row.id, 'recipient opted out');
  }
  return reasons;
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
