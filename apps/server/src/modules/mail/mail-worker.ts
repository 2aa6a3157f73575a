import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { RenderedMail } from '../../adapters/mail';
import { classifySendError, type MailTransport, type PendingSend } from '../../adapters/smtp-transport';
import type { Db } from '../../db/client';
import { createTokenBucket } from '../../lib/token-bucket';
import { NOTIFICATION_KINDS } from '@cr/contract/notifications';
import {
  claimDueMails,
  markMailFailed,
  markMailRetry,
  markMailSent,
  releaseMail,
  undeliverableNotifications,
  type HeldAs,
  type OutboxRow,
} from './mail-queue.repository';
import { mailTemplateOf, renderableKinds } from './mail-templates';

/** Attempts before a mail that keeps failing for a temporary reason is given up (kept as failed). */
export const MAX_MAIL_ATTEMPTS = 8;
const RETRY_BASE_SECONDS = 60;
const RETRY_CAP_SECONDS = 3_600;
const POLL_MS = 5_000;
/** After a failed claim (the database away), wait this long before the next. */
const CLAIM_ERROR_PAUSE_MS = 5_000;

/**
 * The wait before attempt `attempts + 1` after a temporary failure: 1 min × 2^(attempts − 1), at most an hour,
 * ±20 % so that mails that failed together do not all come back together.
 */
export function retryDelaySeconds(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(RETRY_CAP_SECONDS, RETRY_BASE_SECONDS * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** The domain of MAIL_FROM's address (`Name <a@b.org>` or `a@b.org`), or `localhost`. */
export function domainOf(from: string): string {
  const match = /@([^\s<>@]+?)>?\s*$/.exec(from.trim());
  return match?.[1] ?? 'localhost';
}

/**
 * The Message-ID of a queued mail: derived from the row alone (its id and the time it was queued), so every attempt
 * of one mail carries the same one, and a mail resent after a lost lease is recognisable as the same message (mail
 * stores drop the second copy; a person can tell).
 */
export function messageIdOf(row: Pick<OutboxRow, 'id' | 'createdAt'>, from: string): string {
  const digest = createHash('sha256').update(`${row.id}|${row.createdAt.toISOString()}`).digest('hex').slice(0, 16);
  return `<outbox-${row.id}.${digest}@${domainOf(from)}>`;
}

/** A text with each e-mail address in it replaced (for the log). */
export const withoutAddresses = (text: string) => text.replace(/[^\s<>"',;:()[\]]+@[^\s<>"',;:()[\]]+/g, '[address]');

export interface MailWorkerOptions {
  db: Db;
  /** Null without SMTP_URL: the link goes to the log and the mail counts as sent (it stays in the outbox table). */
  transport: MailTransport | null;
  from: string;
  log: FastifyBaseLogger;
  ratePerSecond: number;
  leaseSeconds: number;
  pollMs?: number;
  batchSize?: number;
  maxAttempts?: number;
  /**
   * Tests only (the fault test's kill between the body and the end of DATA): awaited after a message's body was
   * written and before the mail is recorded as sent.
   */
  afterBody?: (row: OutboxRow) => Promise<void>;
}

/**
 * The mail worker (issue 27): claims due mails in batches (mail-queue.repository `claimDueMails`: committed before
 * sending), leaves out the notifications whose recipient opted out or was closed since (failed, with the reason),
 * renders those queued with params only, and hands them to the transport at most MAIL_RATE_PER_SECOND a second, a few
 * side by side, each in two phases: the message without the end of its DATA, the row committed as sent, then the end
 * (0 duplicates and 0 lost at a kill; docs/decisions.md). A refusal puts the row back: queued again with exponential
 * back-off on a temporary failure, failed with the reason on a permanent one or after the last attempt. `start` polls
 * (mails of other instances, retries whose time has come) and `wake` sends at once what this process has just
 * queued. `close` stops claiming, finishes the sends under way and puts back the rows not yet started.
 */
export function createMailWorker(options: MailWorkerOptions) {
  const { db, transport, log } = options;
  const maxAttempts = options.maxAttempts ?? MAX_MAIL_ATTEMPTS;
  const bucket = createTokenBucket(options.ratePerSecond);
  const batchSize = options.batchSize ?? (transport ? Math.max(1, Math.min(100, Math.ceil(options.ratePerSecond * 2))) : 100);
  const lanes = transport ? Math.max(1, transport.concurrency) : 1;
  let running = false;
  let stopping = false;
  let wokenDuringRun = false;
  let loop: Promise<void> | undefined;
  let wakeUp: (() => void) | undefined;
  const batches = new Set<Promise<number>>();

  async function render(row: OutboxRow): Promise<{ mail: RenderedMail; rendered?: RenderedMail }> {
    if (row.subject !== null) {
      return {
        mail: { subject: row.subject, text: row.textBody ?? '', html: row.htmlBody ?? '', link: row.link, headers: row.headers ?? {} },
      };
    }
    const template = mailTemplateOf(row.kind);
    if (!template) throw new Error(`no template for mails of kind ${row.kind}`);
    const rendered = await template(row.params ?? {}, row);
    return { mail: { ...rendered, headers: { ...row.headers, ...rendered.headers } }, rendered };
  }

  /** A failed send recorded: queued again with back-off on a temporary failure, failed on a permanent one or the last. */
  async function recordFailure(row: OutboxRow, error: unknown, rendered: RenderedMail | undefined, heldAs: HeldAs) {
    const { permanent, reason } = classifySendError(error);
    // The reason is kept whole for the admins; the log leaves out the addresses SMTP servers quote in it.
    log.warn({ mail: row.kind, id: row.id, attempts: row.attempts, permanent, reason: withoutAddresses(reason) }, 'mail delivery failed');
    if (permanent || row.attempts >= maxAttempts) {
      await markMailFailed(db, row, permanent ? reason : `${reason} (gave up after ${row.attempts} attempts)`, rendered, heldAs);
    } else {
      await markMailRetry(db, row, retryDelaySeconds(row.attempts), reason, rendered, heldAs);
    }
  }

  async function deliver(row: OutboxRow, undeliverable: string | undefined): Promise<void> {
    if (row.attempts > maxAttempts) {
      // Claimed again and again with its sender gone each time (a mail that ends the process?): given up.
      await markMailFailed(db, row, `gave up after ${maxAttempts} attempts: ${row.error ?? 'the sender stopped during delivery'}`);
      return;
    }
    if (undeliverable) {
      // A notification whose recipient opted out of its kind, or whose account was closed or banned, after it was queued.
      await markMailFailed(db, row, undeliverable);
      return;
    }
    let content: Awaited<ReturnType<typeof render>>;
    try {
      content = await render(row);
    } catch (error) {
      await markMailFailed(db, row, `could not be rendered: ${error instanceof Error ? error.message : String(error)}`.slice(0, 500));
      return;
    }
    const { mail, rendered } = content;
    if (!transport) {
      // The link is what a local operator needs; the recipient is not logged.
      log.info({ mail: row.kind, link: mail.link }, 'mail kept in the outbox (no SMTP_URL)');
      await markMailSent(db, row, rendered);
      return;
    }
    await bucket.take();
    if (stopping) {
      await releaseMail(db, row);
      return;
    }
    // Two phases (issue 27: 0 duplicates, 0 lost at a kill -9). 1: the whole message except the end of DATA.
    let pending: PendingSend;
    try {
      pending = await transport.begin({
        from: options.from,
        to: row.recipient,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: messageIdOf(row, options.from),
        headers: mail.headers ?? {},
      });
    } catch (error) {
      await recordFailure(row, error, rendered, 'sending');
      return;
    }
    // 2: the row updated as sent in a transaction, 3: the end of DATA written, 4: COMMIT, with nothing asynchronous
    // between 3 and 4 but the transaction's own promise steps (no I/O, no timer: the COMMIT goes to the database's
    // socket in the same run as the end to the SMTP socket). Killed before 3: the server discards the unended message
    // and the database rolls the update back, so the row, still `sending`, goes out again when its lease ends. Killed
    // after 4 was written: the kernel delivers both, the message is accepted and recorded as sent. (Committing before
    // the end would lose the mail at a kill while the commit's answer is on its way back; bench/README.md.) The lease
    // ran out and another worker took the row: that one sends it, this message is dropped.
    let answer: Promise<unknown> | undefined;
    try {
      if (options.afterBody) await options.afterBody(row);
      await db.transaction(async (tx) => {
        if (!(await markMailSent(tx, row, rendered))) return;
        // The outcome is read below; caught here so that a refusal arriving before the COMMIT is not unhandled.
        answer = pending.finish().then(
          () => null,
          (error: unknown) => error ?? new Error('refused'),
        );
      });
    } catch (error) {
      if (!answer) {
        pending.abort();
        throw error;
      }
      // The COMMIT failed after the end was written: the server has the message. Recorded again outside the
      // transaction; if that fails too, the row goes out again after its lease (a duplicate, same Message-ID).
      log.error({ err: error, id: row.id }, 'mail queue: could not commit a mail as sent after its end was written');
      await markMailSent(db, row, rendered);
    }
    if (!answer) {
      pending.abort();
      log.warn({ mail: row.kind, id: row.id }, 'mail taken over by another sender after its lease ran out: this copy dropped');
      return;
    }
    const refusal = await answer;
    // Refused after the commit (or the connection lost before the end was written): not delivered after all. A
    // connection lost after the end was written, without an answer, is queued again too (at least once: the server
    // may have accepted it; the copy carries the same Message-ID).
    if (refusal) await recordFailure(row, refusal, undefined, 'sent');
  }

  /** One batch: claims due mails and delivers them; answers how many were claimed. */
  async function runBatch(): Promise<number> {
    const rows = await claimDueMails(db, { limit: batchSize, leaseSeconds: options.leaseSeconds, kinds: renderableKinds() });
    const undeliverable = rows.length > 0 ? await undeliverableNotifications(db, rows, NOTIFICATION_KINDS) : new Map<number, string>();
    let next = 0;
    const lane = async () => {
      while (next < rows.length) {
        const row = rows[next++]!;
        try {
          if (stopping) await releaseMail(db, row);
          else await deliver(row, undeliverable.get(row.id));
        } catch (error) {
          // The database failed while marking it: the row stays claimed until its lease ends, then goes out again.
          log.error({ err: error, id: row.id }, 'mail queue: could not record a delivery');
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(lanes, rows.length) }, lane));
    return rows.length;
  }

  function runOnce(): Promise<number> {
    const batch = runBatch();
    batches.add(batch);
    void batch.catch(() => {}).finally(() => batches.delete(batch));
    return batch;
  }

  async function poll() {
    while (running) {
      wokenDuringRun = false;
      let claimed = 0;
      let pause = options.pollMs ?? POLL_MS;
      try {
        claimed = await runOnce();
      } catch (error) {
        log.warn({ err: error }, 'mail queue: could not claim mails');
        pause = Math.max(pause, CLAIM_ERROR_PAUSE_MS);
      }
      if (!running) break;
      if (claimed >= batchSize || wokenDuringRun) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pause);
        wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wakeUp = undefined;
    }
  }

  return {
    /** Starts polling (the server does; tests call `drain` instead). */
    start() {
      if (running || stopping) return;
      running = true;
      loop = poll();
    },
    /** Delivers at once (a mail was just queued in this process). */
    wake() {
      if (!running) return;
      wokenDuringRun = true;
      wakeUp?.();
    },
    runOnce,
    /** Delivers batches until none is due (tests): retries whose time has not come stay queued. */
    async drain(): Promise<number> {
      let total = 0;
      for (let claimed = await runOnce(); claimed > 0; claimed = await runOnce()) total += claimed;
      return total;
    },
    /** Stops claiming, finishes the sends under way, puts unstarted rows back; then closes the transport. */
    async close() {
      running = false;
      stopping = true;
      wakeUp?.();
      await loop;
      await Promise.allSettled([...batches]);
      transport?.close();
    },
  };
}
export type MailWorker = ReturnType<typeof createMailWorker>;
