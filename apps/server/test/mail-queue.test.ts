import { eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStatus } from '@cr/contract/users';
import { classifySendError, createSmtpTransport, type MailTransport, type OutgoingMail } from '../src/adapters/smtp-transport';
import { outbox } from '../src/db/schema/index';
import { createMailer } from '../src/adapters/mail';
import { buildApp } from '../src/app';
import { testConfig } from '../src/config';
import { openPostgres, type Database } from '../src/db/client';
import { createTokenBucket } from '../src/lib/token-bucket';
import type { OutboxRow } from '../src/modules/mail/mail-queue.repository';
import { registerMailTemplate } from '../src/modules/mail/mail-templates';
import {
  createMailWorker,
  domainOf,
  MAX_MAIL_ATTEMPTS,
  messageIdOf,
  retryDelaySeconds,
  withoutAddresses,
} from '../src/modules/mail/mail-worker';
import { API, databaseKinds, useTestApp, type TestContext } from './build-test-app';
import { uniqueName } from './fixtures';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

const silent = { info() {}, warn() {}, error() {} } as never;

/** Queues `n` whole mails (as the account mails are) to fresh addresses; answers their rows. */
async function queueMails(ctx: TestContext, n: number, prefix = 'mail') {
  const ids: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const to = `${uniqueName(prefix)}@example.test`;
    await ctx.app.services.mailer.enqueue(ctx.db, {
      to,
      kind: 'test_whole',
      subject: `Hello ${i}`,
      text: `Text ${i}`,
      html: `<p>${i}</p>`,
    });
    const [row] = await ctx.db.select().from(outbox).where(eq(outbox.recipient, to));
    ids.push(row!.id);
  }
  return ids;
}

const rowsOf = (ctx: TestContext, ids: number[]) => ctx.db.select().from(outbox).where(inArray(outbox.id, ids)).orderBy(outbox.id);
const rowOf = async (ctx: TestContext, id: number) => (await rowsOf(ctx, [id]))[0]!;

/** A transport that records each send and answers at once, or holds sends until released. */
function recordingTransport(concurrency = 2) {
  const sent: { mail: OutgoingMail; at: number }[] = [];
  let holding = false;
  const held: (() => void)[] = [];
  const transport: MailTransport & { sent: typeof sent; hold(): void; release(): void; held: typeof held } = {
    concurrency,
    sent,
    held,
    async begin(mail) {
      sent.push({ mail, at: performance.now() });
      return {
        async finish() {
          if (holding) await new Promise<void>((resolve) => held.push(resolve));
        },
        abort() {},
      };
    },
    close() {},
    hold: () => {
      holding = true;
    },
    release: () => {
      holding = false;
      for (const resolve of held.splice(0)) resolve();
    },
  };
  return transport;
}

async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 20_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

// Issue 27 item 1: the durable mail queue and its worker, over real SMTP to a local sink.
describe.each(databaseKinds)('mail queue worker on %s', (kind) => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink?.close();
  });
  const ctx = useTestApp(kind, () => ({
    SMTP_URL: sink.url,
    MAIL_RATE_PER_SECOND: '1000',
    MAIL_FROM: 'Community Review <no-reply@review.example.org>',
  }));
  const atSink = (to: string) => sink.messages.filter((message) => message.to.includes(to));

  it('sends a queued mail once, marks it sent, with a Message-ID derived from the row', async () => {
    const user = await ctx.register();
    const queued = await ctx.lastMail(user.email);
    expect(queued).toMatchObject({ status: 'queued', attempts: 0, sentAt: null });
    await ctx.app.services.mailWorker.drain();
    const row = await rowOf(ctx, queued!.id);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, error: null, claimedUntil: null });
    expect(row.sentAt).not.toBeNull();
    const messages = atSink(user.email);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.subject).toBe('Activate your Community Review account');
    expect(messages[0]!.messageId).toBe(messageIdOf(row, 'no-reply@review.example.org'));
    expect(messages[0]!.messageId).toMatch(new RegExp(`^<outbox-${row.id}\\.[0-9a-f]{16}@review\\.example\\.org>$`));
    // Nothing left to send: a second drain sends nothing more.
    await ctx.app.services.mailWorker.drain();
    expect(atSink(user.email)).toHaveLength(1);
  });

  it('queues a temporary failure (4xx) again with exponential back-off and its error, then sends it once due', async () => {
    const to = `${uniqueName('greylisted')}@example.test`;
    let refusals = 0;
    sink.rejectRecipient = (address) => (address === to && refusals++ === 0 ? { code: 451, message: 'Greylisted, try again later' } : null);
    await ctx.app.services.mailer.enqueue(ctx.db, { to, kind: 'test_whole', subject: 'S', text: 'T', html: '<p>T</p>' });
    const before = Date.now();
    await ctx.app.services.mailWorker.drain();
    const [row] = await ctx.db.select().from(outbox).where(eq(outbox.recipient, to));
    expect(row).toMatchObject({ status: 'queued', attempts: 1, claimedUntil: null });
    expect(row!.error).toMatch(/^451 .*Greylisted/);
    // 1 min × 2^0, ±20 %.
    const wait = (row!.nextAttemptAt.getTime() - before) / 1000;
    expect(wait).toBeGreaterThanOrEqual(47);
    expect(wait).toBeLessThanOrEqual(73);
    expect(atSink(to)).toHaveLength(0);
    // Not due yet: a drain leaves it.
    await ctx.app.services.mailWorker.drain();
    expect((await rowOf(ctx, row!.id)).status).toBe('queued');
    // Its time comes: the second attempt sends it, with the same Message-ID.
    await ctx.db
      .update(outbox)
      .set({ nextAttemptAt: sql`now()` })
      .where(eq(outbox.id, row!.id));
    await ctx.app.services.mailWorker.drain();
    const sent = await rowOf(ctx, row!.id);
    expect(sent).toMatchObject({ status: 'sent', attempts: 2, error: null });
    expect(atSink(to).map((message) => message.messageId)).toEqual([messageIdOf(sent, 'no-reply@review.example.org')]);
    sink.rejectRecipient = () => null;
  });

  it('doubles the back-off with each attempt', async () => {
    const to = `${uniqueName('down')}@example.test`;
    sink.rejectRecipient = (address) => (address === to ? { code: 421, message: 'Service not available' } : null);
    await ctx.app.services.mailer.enqueue(ctx.db, { to, kind: 'test_whole', subject: 'S', text: 'T', html: '<p>T</p>' });
    const [queued] = await ctx.db.select().from(outbox).where(eq(outbox.recipient, to));
    await ctx.db.update(outbox).set({ attempts: 3 }).where(eq(outbox.id, queued!.id));
    const before = Date.now();
    await ctx.app.services.mailWorker.drain();
    const row = await rowOf(ctx, queued!.id);
    expect(row).toMatchObject({ status: 'queued', attempts: 4 });
    // The fourth attempt failed: 1 min × 2^3 = 8 min, ±20 %.
    const wait = (row.nextAttemptAt.getTime() - before) / 1000;
    expect(wait).toBeGreaterThanOrEqual(8 * 60 * 0.8 - 1);
    expect(wait).toBeLessThanOrEqual(8 * 60 * 1.2 + 1);
    sink.rejectRecipient = () => null;
  });

  it('keeps a permanent failure (5xx) as failed with the reason and never retries it', async () => {
    const to = `${uniqueName('bounce')}@example.test`;
    sink.rejectRecipient = (address) => (address === to ? { code: 550, message: 'No such user here' } : null);
    await ctx.app.services.mailer.enqueue(ctx.db, { to, kind: 'test_whole', subject: 'S', text: 'T', html: '<p>T</p>' });
    await ctx.app.services.mailWorker.drain();
    const [row] = await ctx.db.select().from(outbox).where(eq(outbox.recipient, to));
    expect(row).toMatchObject({ status: 'failed', attempts: 1, sentAt: null, claimedUntil: null });
    expect(row!.error).toMatch(/^550 .*No such user here/);
    sink.rejectRecipient = () => null;
    await ctx.app.services.mailWorker.drain();
    expect((await rowOf(ctx, row!.id)).status).toBe('failed');
    expect(atSink(to)).toHaveLength(0);
  });

  it(`gives a temporary failure up as failed after ${MAX_MAIL_ATTEMPTS} attempts`, async () => {
    const to = `${uniqueName('always-busy')}@example.test`;
    sink.rejectRecipient = (address) => (address === to ? { code: 452, message: 'Mailbox full' } : null);
    await ctx.app.services.mailer.enqueue(ctx.db, { to, kind: 'test_whole', subject: 'S', text: 'T', html: '<p>T</p>' });
    const [queued] = await ctx.db.select().from(outbox).where(eq(outbox.recipient, to));
    await ctx.db
      .update(outbox)
      .set({ attempts: MAX_MAIL_ATTEMPTS - 1 })
      .where(eq(outbox.id, queued!.id));
    await ctx.app.services.mailWorker.drain();
    const row = await rowOf(ctx, queued!.id);
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_MAIL_ATTEMPTS });
    expect(row.error).toMatch(new RegExp(`^452 .*Mailbox full \\(gave up after ${MAX_MAIL_ATTEMPTS} attempts\\)`));
    sink.rejectRecipient = () => null;
  });

  it('claims a mail whose lease ran out (its sender died) and sends it; a mail under a live lease is left alone', async () => {
    const [id] = await queueMails(ctx, 1, 'leased');
    // Another worker holds it for an hour.
    await ctx.db
      .update(outbox)
      .set({ status: 'sending', attempts: 1, claimedUntil: sql`now() + interval '1 hour'` })
      .where(eq(outbox.id, id!));
    await ctx.app.services.mailWorker.drain();
    const held = await rowOf(ctx, id!);
    expect(held.status).toBe('sending');
    expect(atSink(held.recipient)).toHaveLength(0);
    // That worker died: its lease runs out.
    await ctx.db
      .update(outbox)
      .set({ claimedUntil: sql`now() - interval '1 second'` })
      .where(eq(outbox.id, id!));
    await ctx.app.services.mailWorker.drain();
    const row = await rowOf(ctx, id!);
    expect(row).toMatchObject({ status: 'sent', attempts: 2 });
    expect(atSink(row.recipient).map((message) => message.messageId)).toEqual([messageIdOf(row, 'no-reply@review.example.org')]);
  });

  it('gives up a mail claimed again and again by senders that died, instead of sending it forever', async () => {
    const [id] = await queueMails(ctx, 1, 'poison');
    await ctx.db
      .update(outbox)
      .set({ status: 'sending', attempts: MAX_MAIL_ATTEMPTS, claimedUntil: sql`now() - interval '1 second'` })
      .where(eq(outbox.id, id!));
    await ctx.app.services.mailWorker.drain();
    const row = await rowOf(ctx, id!);
    expect(row.status).toBe('failed');
    expect(row.error).toMatch(/gave up after 8 attempts: the sender stopped during delivery/);
    expect(atSink(row.recipient)).toHaveLength(0);
  });

  it('renders a mail queued with params only (INSERT … SELECT) at delivery, stores it, and sends its headers', async () => {
    const kindName = `notice_${kind}`;
    registerMailTemplate(kindName, (params, row) => ({
      subject: `${String(params.done)} of ${String(params.total)} reviewed`,
      text: `Hello, ${String(params.done)} of ${String(params.total)} (mail ${row.id}).`,
      html: `<p>${String(params.done)} of ${String(params.total)}</p>`,
      link: `http://app.test/allocated-proposals?mail=${row.id}`,
      headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    }));
    const prefix = uniqueName('bulk');
    await ctx.db.execute(sql`
      insert into outbox (recipient, kind, params, headers, dedupe_key)
      select ${prefix} || '-' || n || '@example.test', ${kindName}, jsonb_build_object('done', n, 'total', 20),
             jsonb_build_object('List-Unsubscribe', '<http://app.test/unsubscribe?n=' || n || '>'), ${prefix} || ':' || n
      from generate_series(1, 3) as n`);
    await ctx.app.services.mailWorker.drain();
    const rows = await ctx.db.select().from(outbox).where(eq(outbox.kind, kindName)).orderBy(outbox.id);
    expect(rows.map((row) => row.status)).toEqual(['sent', 'sent', 'sent']);
    expect(rows[1]).toMatchObject({ subject: '2 of 20 reviewed', link: `http://app.test/allocated-proposals?mail=${rows[1]!.id}` });
    expect(rows[1]!.textBody).toBe(`Hello, 2 of 20 (mail ${rows[1]!.id}).`);
    expect(rows[1]!.headers).toEqual({ 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    const [message] = atSink(`${prefix}-2@example.test`);
    expect(message!.subject).toBe('2 of 20 reviewed');
    expect(message!.headers['list-unsubscribe']).toBe('<http://app.test/unsubscribe?n=2>');
    expect(message!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
  });

  it('leaves a params-only mail of a kind it cannot render to an instance that can; fails one whose template throws', async () => {
    const unknown = `unknown_${kind}_${Date.now()}`;
    await ctx.app.services.mailer.enqueue(ctx.db, { to: `${uniqueName('later')}@example.test`, kind: unknown, params: { a: 1 } });
    const broken = `broken_${kind}`;
    registerMailTemplate(broken, () => {
      throw new Error('the event is gone');
    });
    await ctx.app.services.mailer.enqueue(ctx.db, { to: `${uniqueName('broken')}@example.test`, kind: broken, params: {} });
    await ctx.app.services.mailWorker.drain();
    const [waiting] = await ctx.db.select().from(outbox).where(eq(outbox.kind, unknown));
    expect(waiting).toMatchObject({ status: 'queued', attempts: 0 });
    const [failed] = await ctx.db.select().from(outbox).where(eq(outbox.kind, broken));
    expect(failed).toMatchObject({ status: 'failed', error: 'could not be rendered: the event is gone' });
    await ctx.db.delete(outbox).where(eq(outbox.kind, unknown));
  });

  it('queues one mail per dedupe key and ignores the second', async () => {
    const key = uniqueName('reminder');
    const message = { to: `${key}@example.test`, kind: 'test_whole', subject: 'S', text: 'T', html: '<p>T</p>', dedupeKey: key };
    expect(await ctx.app.services.mailer.enqueue(ctx.db, message)).toBe(true);
    expect(await ctx.app.services.mailer.enqueue(ctx.db, { ...message, subject: 'again' })).toBe(false);
    const rows = await ctx.db.select().from(outbox).where(eq(outbox.dedupeKey, key));
    expect(rows.map((row) => row.subject)).toEqual(['S']);
    await ctx.app.services.mailWorker.drain();
  });

  /** A second worker on the sink, with a hook between the body and the commit. */
  const workerWith = (afterBody: (row: OutboxRow) => Promise<void>) =>
    createMailWorker({
      db: ctx.db,
      transport: createSmtpTransport(sink.url),
      from: 'no-reply@review.example.org',
      log: silent,
      ratePerSecond: 1000,
      leaseSeconds: 60,
      afterBody,
    });

  it('issue 27 two-phase send: the server holds the whole message, unended, until the row is committed as sent', async () => {
    const [id] = await queueMails(ctx, 1, 'two-phase');
    const seen: { status: string; atSink: number; receiving: number }[] = [];
    const worker = workerWith(async (row) => {
      await until(() => sink.receiving === 1, 'the server to be receiving the message');
      seen.push({ status: (await rowOf(ctx, row.id)).status, atSink: atSink(row.recipient).length, receiving: sink.receiving });
    });
    try {
      await worker.drain();
    } finally {
      await worker.close();
    }
    // Between the phases: the body is at the server, not ended (not a message yet), the row not yet sent.
    expect(seen).toEqual([{ status: 'sending', atSink: 0, receiving: 1 }]);
    const row = await rowOf(ctx, id!);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, error: null });
    expect(atSink(row.recipient).map((message) => message.messageId)).toEqual([messageIdOf(row, 'no-reply@review.example.org')]);
    expect(atSink(row.recipient)[0]!.subject).toBe('Hello 0');
    expect(sink.receiving).toBe(0);
  });

  it('issue 27 two-phase send: a row another worker took over before the commit is not ended: the server discards it', async () => {
    const [id] = await queueMails(ctx, 1, 'taken-over');
    const discardedBefore = sink.discarded;
    const worker = workerWith(async (row) => {
      await until(() => sink.receiving === 1, 'the server to be receiving the message');
      // This worker's lease ran out and another worker claimed the row.
      await ctx.db
        .update(outbox)
        .set({ attempts: row.attempts + 1, claimedUntil: sql`now() + interval '1 hour'` })
        .where(eq(outbox.id, row.id));
    });
    try {
      await worker.drain();
    } finally {
      await worker.close();
    }
    await until(() => sink.discarded === discardedBefore + 1, 'the server to discard the incomplete message');
    const row = await rowOf(ctx, id!);
    expect(row).toMatchObject({ status: 'sending', attempts: 2, sentAt: null });
    expect(atSink(row.recipient)).toHaveLength(0);
    // The other worker died too: once its lease runs out, the mail goes out, once.
    await ctx.db
      .update(outbox)
      .set({ claimedUntil: sql`now() - interval '1 second'` })
      .where(eq(outbox.id, id!));
    await ctx.app.services.mailWorker.drain();
    expect(await rowOf(ctx, id!)).toMatchObject({ status: 'sent', attempts: 3 });
    expect(atSink(row.recipient)).toHaveLength(1);
  });

  it('issue 27 two-phase send: a message refused after the commit (5xx at the end of DATA) goes back to failed with the reason', async () => {
    const [id] = await queueMails(ctx, 1, 'refused-data');
    const to = (await rowOf(ctx, id!)).recipient;
    sink.rejectMessage = (message) => (message.to.includes(to) ? { code: 554, message: 'Message rejected as spam' } : null);
    try {
      await ctx.app.services.mailWorker.drain();
    } finally {
      sink.rejectMessage = () => null;
    }
    const row = await rowOf(ctx, id!);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, sentAt: null, claimedUntil: null });
    expect(row.error).toMatch(/^554 .*Message rejected as spam/);
    expect(atSink(to)).toHaveLength(0);
    // Not retried.
    await ctx.app.services.mailWorker.drain();
    expect((await rowOf(ctx, id!)).status).toBe('failed');
  });

  it('issue 27 two-phase send: a message refused for now after the commit (4xx at the end of DATA) is queued again with back-off', async () => {
    const [id] = await queueMails(ctx, 1, 'deferred-data');
    const to = (await rowOf(ctx, id!)).recipient;
    sink.rejectMessage = (message) => (message.to.includes(to) ? { code: 451, message: 'Local error in processing' } : null);
    const before = Date.now();
    try {
      await ctx.app.services.mailWorker.drain();
    } finally {
      sink.rejectMessage = () => null;
    }
    const row = await rowOf(ctx, id!);
    expect(row).toMatchObject({ status: 'queued', attempts: 1, sentAt: null, claimedUntil: null });
    expect(row.error).toMatch(/^451 .*Local error in processing/);
    const wait = (row.nextAttemptAt.getTime() - before) / 1000;
    expect(wait).toBeGreaterThanOrEqual(47);
    expect(wait).toBeLessThanOrEqual(73);
    await ctx.db
      .update(outbox)
      .set({ nextAttemptAt: sql`now()` })
      .where(eq(outbox.id, id!));
    await ctx.app.services.mailWorker.drain();
    expect(await rowOf(ctx, id!)).toMatchObject({ status: 'sent', attempts: 2, error: null });
    expect(atSink(to)).toHaveLength(1);
  });

  it('issue 27: a notification whose recipient opted out or was deactivated after it was queued is failed at delivery, not sent; account mails go', async () => {
    const optedOut = await ctx.newUser();
    const banned = await ctx.newUser();
    const inactive = await ctx.newUser();
    const mailed = await ctx.newUser();
    const notification = (user: { id: number; email: string }, kind = 'review_reminder') => ({
      recipient: user.email,
      kind,
      userId: user.id,
      subject: 'Reminder',
      textBody: 'Two days left',
      htmlBody: '<p>Two days left</p>',
    });
    const queued = await ctx.db
      .insert(outbox)
      .values([
        notification(optedOut),
        notification(optedOut, 'review_allocation'),
        notification(banned),
        notification(inactive),
        notification(mailed),
        // An account mail to a banned account still goes (account mails cannot be turned off).
        { recipient: banned.email, kind: 'password_reset', userId: banned.id, subject: 'Reset', textBody: 'T', htmlBody: '<p>T</p>' },
      ])
      .returning({ id: outbox.id });
    // After queueing: one turns reminders off (through the profile), two accounts are closed.
    const saved = await ctx.app.inject({
      method: 'PUT',
      url: `${API}/users/me/notifications/`,
      headers: optedOut.auth,
      payload: { notification_preferences: { review_reminder: false } },
    });
    expect(saved.statusCode).toBe(200);
    await ctx.setStatus(banned.id, AccountStatus.banned);
    await ctx.setStatus(inactive.id, AccountStatus.inactive);
    await ctx.app.services.mailWorker.drain();
    const rows = await rowsOf(
      ctx,
      queued.map((row) => row.id),
    );
    expect(rows.map((row) => ({ kind: row.kind, to: row.recipient, status: row.status, error: row.error }))).toEqual([
      { kind: 'review_reminder', to: optedOut.email, status: 'failed', error: 'recipient opted out' },
      { kind: 'review_allocation', to: optedOut.email, status: 'sent', error: null },
      { kind: 'review_reminder', to: banned.email, status: 'failed', error: 'recipient account no longer active' },
      { kind: 'review_reminder', to: inactive.email, status: 'failed', error: 'recipient account no longer active' },
      { kind: 'review_reminder', to: mailed.email, status: 'sent', error: null },
      { kind: 'password_reset', to: banned.email, status: 'sent', error: null },
    ]);
    const subjects = (to: string) => atSink(to).filter((message) => message.subject !== 'Activate your Community Review account');
    expect(subjects(optedOut.email).map((message) => message.subject)).toEqual(['Reminder']);
    expect(subjects(banned.email).map((message) => message.subject)).toEqual(['Reset']);
    expect(subjects(inactive.email)).toHaveLength(0);
    expect(subjects(mailed.email).map((message) => message.subject)).toEqual(['Reminder']);
    // "Retry failed" does not get them out: they are checked again at delivery.
    await ctx.db.update(outbox).set({ status: 'queued', attempts: 0 }).where(eq(outbox.id, rows[0]!.id));
    await ctx.app.services.mailWorker.drain();
    expect(await rowOf(ctx, rows[0]!.id)).toMatchObject({ status: 'failed', error: 'recipient opted out' });
    expect(subjects(optedOut.email)).toHaveLength(1);
  });

  it('sends each mail once with two workers draining one queue at the same time', async () => {
    const ids = await queueMails(ctx, 60, 'pair');
    const second = createMailWorker({
      db: ctx.db,
      transport: (await import('../src/adapters/smtp-transport')).createSmtpTransport(sink.url),
      from: 'no-reply@review.example.org',
      log: silent,
      ratePerSecond: 1000,
      leaseSeconds: 60,
      batchSize: 7,
    });
    try {
      await Promise.all([ctx.app.services.mailWorker.drain(), second.drain()]);
    } finally {
      await second.close();
    }
    const rows = await rowsOf(ctx, ids);
    expect(rows.every((row) => row.status === 'sent' && row.attempts === 1)).toBe(true);
    const counts = sink.countsById();
    for (const row of rows) expect(counts.get(messageIdOf(row, 'no-reply@review.example.org'))).toBe(1);
  });
});

describe.each(databaseKinds)('mail worker pacing and shutdown on %s', (kind) => {
  const ctx = useTestApp(kind);

  it('hands mails to the transport at most MAIL_RATE_PER_SECOND a second (counted per window)', async () => {
    const ids = await queueMails(ctx, 30, 'paced');
    const transport = recordingTransport(3);
    const worker = createMailWorker({ db: ctx.db, transport, from: 'a@b.test', log: silent, ratePerSecond: 10, leaseSeconds: 60 });
    await worker.drain();
    expect((await rowsOf(ctx, ids)).every((row) => row.status === 'sent')).toBe(true);
    const times = transport.sent.map((send) => send.at).sort((a, b) => a - b);
    expect(times).toHaveLength(30);
    // A bucket of 10 that refills 10 a second: any one second holds at most 10 + 10 sends.
    for (const start of times) expect(times.filter((time) => time >= start && time < start + 1000).length).toBeLessThanOrEqual(20);
    // 30 sends, 10 at once and then 10 a second: the last goes out 2 s after the first at the earliest.
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(1900);
    await worker.close();
  });

  it('on close, finishes the sends under way and puts the unstarted mails back as they were', async () => {
    const ids = await queueMails(ctx, 10, 'closing');
    const transport = recordingTransport(2);
    transport.hold();
    const worker = createMailWorker({ db: ctx.db, transport, from: 'a@b.test', log: silent, ratePerSecond: 1000, leaseSeconds: 60 });
    const batch = worker.runOnce();
    await until(() => transport.held.length === 2, 'two sends under way');
    const closed = worker.close();
    transport.release();
    await closed;
    await batch;
    const rows = await rowsOf(ctx, ids);
    const sentIds = new Set(transport.sent.map((send) => Number(/outbox-(\d+)\./.exec(send.mail.messageId)![1])));
    expect(sentIds.size).toBe(2);
    for (const row of rows) {
      if (sentIds.has(row.id)) expect(row).toMatchObject({ status: 'sent', attempts: 1 });
      else expect(row).toMatchObject({ status: 'queued', attempts: 0, claimedUntil: null });
    }
    await ctx.db.delete(outbox).where(inArray(outbox.id, ids));
  });

  it('delivers a mail queued in this process at once when woken, without waiting for the next poll', async () => {
    const transport = recordingTransport(1);
    // Polls once at start, then only every hour: only a wake can deliver what is queued afterwards.
    const worker = createMailWorker({
      db: ctx.db,
      transport,
      from: 'a@b.test',
      log: silent,
      ratePerSecond: 1000,
      leaseSeconds: 60,
      pollMs: 3_600_000,
    });
    const mailer = createMailer({ wake: () => worker.wake() });
    worker.start();
    try {
      const to = `${uniqueName('woken')}@example.test`;
      await ctx.db.transaction((tx) => mailer.enqueue(tx, { to, kind: 'test_whole', subject: 'S', text: 'T', html: '<p>T</p>' }));
      await mailer.flush();
      await until(
        async () => (await ctx.db.select().from(outbox).where(eq(outbox.recipient, to)))[0]?.status === 'sent',
        'the woken worker to send',
      );
      expect(transport.sent.filter((send) => send.mail.to === to)).toHaveLength(1);
    } finally {
      await worker.close();
    }
  });

  it('without SMTP_URL, logs the link and marks the mail sent (it stays in the outbox)', async () => {
    const user = await ctx.register();
    await ctx.app.services.mailWorker.drain();
    const mail = await ctx.lastMail(user.email);
    expect(mail).toMatchObject({ status: 'sent', error: null, attempts: 1 });
    expect(mail?.sentAt).not.toBeNull();
  });
});

// Issue 27 item 1 (docs/deployment.md): two app instances on one PostgreSQL database, each with its own pool and
// worker, drain one queue at once: every mail reaches the SMTP sink once.
describe.skipIf(!process.env.TEST_DATABASE_URL)('mail queue with two app instances on one PostgreSQL database', () => {
  let sink: SmtpSink;
  let other: FastifyInstance;
  let otherDatabase: Database;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  const smtp = () => ({ SMTP_URL: sink.url, MAIL_RATE_PER_SECOND: '1000', MAIL_FROM: 'no-reply@review.example.org' });
  const ctx = useTestApp('postgres', smtp);
  beforeAll(async () => {
    const result = await ctx.db.execute(sql`select current_database() as name`);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${(result as unknown as { rows: { name: string }[] }).rows[0]!.name}`;
    otherDatabase = await openPostgres(url.toString());
    const config = testConfig({ PUBLIC_URL: 'http://app.test', ...smtp() });
    other = await buildApp({ config, db: otherDatabase.db, jwtSecret: config.JWT_SECRET!, logger: false });
    await other.ready();
  });
  afterAll(async () => {
    await other?.close();
    await otherDatabase?.close();
    await sink?.close();
  });

  it('sends each of 300 mails exactly once, both instances sending', async () => {
    const ids = await queueMails(ctx, 300, 'instances');
    const claimed = await Promise.all([ctx.app.services.mailWorker.drain(), other.services.mailWorker.drain()]);
    expect(claimed[0]! + claimed[1]!).toBe(300);
    expect(Math.min(...claimed)).toBeGreaterThan(0);
    const rows = await rowsOf(ctx, ids);
    expect(rows.filter((row) => row.status === 'sent')).toHaveLength(300);
    expect(rows.every((row) => row.attempts === 1)).toBe(true);
    const counts = sink.countsById();
    expect(sink.messages).toHaveLength(300);
    for (const row of rows) expect(counts.get(messageIdOf(row, 'no-reply@review.example.org'))).toBe(1);
  });
});

describe('token bucket', () => {
  it('lets a second’s worth through at once, then one per 1/rate seconds, in order', () => {
    let now = 0;
    const bucket = createTokenBucket(4, { now: () => now });
    expect([bucket.reserve(), bucket.reserve(), bucket.reserve(), bucket.reserve()]).toEqual([0, 0, 0, 0]);
    // Empty: the next ones wait 250, 500, 750 ms.
    expect([bucket.reserve(), bucket.reserve(), bucket.reserve()]).toEqual([250, 500, 750]);
    // After a long quiet time it holds at most its capacity.
    now = 60_000;
    expect(Array.from({ length: 5 }, () => bucket.reserve())).toEqual([0, 0, 0, 0, 250]);
  });

  it('never lets more than capacity + rate × t through in any t seconds', () => {
    let now = 0;
    const bucket = createTokenBucket(20, { now: () => now });
    const due: number[] = [];
    for (let i = 0; i < 500; i += 1) {
      now += i % 7 === 0 ? 137 : 3;
      due.push(now + bucket.reserve());
    }
    due.sort((a, b) => a - b);
    for (const start of due) expect(due.filter((time) => time >= start && time < start + 1000).length).toBeLessThanOrEqual(40);
  });
});

describe('mail worker rules', () => {
  it.each([
    [{ code: 'EENVELOPE', responseCode: 550, response: '550 5.1.1 No such user' }, true, '550 5.1.1 No such user'],
    [{ code: 'EENVELOPE', responseCode: 452, response: '452 4.2.2 Mailbox full' }, false, '452 4.2.2 Mailbox full'],
    [{ code: 'EMESSAGE', responseCode: 554, response: 'Message refused' }, true, '554 Message refused'],
    [{ code: 'EENVELOPE', message: 'No recipients defined' }, true, 'EENVELOPE: No recipients defined'],
    [{ code: 'EAUTH', responseCode: 535, response: '535 Authentication failed' }, false, '535 Authentication failed'],
    [{ code: 'ECONNECTION', message: 'Connection closed unexpectedly' }, false, 'ECONNECTION: Connection closed unexpectedly'],
    [{ code: 'ETIMEDOUT', message: 'Greeting never received' }, false, 'ETIMEDOUT: Greeting never received'],
    [new Error('socket hang up'), false, 'socket hang up'],
  ])('classifies %j as permanent=%s', (error, permanent, reason) => {
    expect(classifySendError(error)).toEqual({ permanent, reason });
  });

  it('waits 1 min × 2^(attempts − 1), at most an hour, ±20 %', () => {
    expect(retryDelaySeconds(1, () => 0.5)).toBe(60);
    expect(retryDelaySeconds(1, () => 0)).toBe(48);
    expect(retryDelaySeconds(1, () => 1)).toBe(72);
    expect(retryDelaySeconds(4, () => 0.5)).toBe(480);
    expect(retryDelaySeconds(7, () => 0.5)).toBe(3600);
    expect(retryDelaySeconds(30, () => 1)).toBe(4320);
  });

  it('derives the Message-ID domain from MAIL_FROM and keeps addresses out of the log', () => {
    expect(domainOf('Community Review <no-reply@review.example.org>')).toBe('review.example.org');
    expect(domainOf('bot@example.test')).toBe('example.test');
    expect(domainOf('nobody')).toBe('localhost');
    const row = { id: 42, createdAt: new Date('2026-11-26T10:00:00Z') };
    expect(messageIdOf(row, 'a@x.org')).toBe(messageIdOf({ ...row }, 'b@x.org'));
    expect(messageIdOf(row, 'a@x.org')).not.toBe(messageIdOf({ ...row, createdAt: new Date('2026-11-26T10:00:01Z') }, 'a@x.org'));
    expect(withoutAddresses('550 5.1.1 <bob.smith+x@example.org>: rejected')).toBe('550 5.1.1 <[address]>: rejected');
  });
});
