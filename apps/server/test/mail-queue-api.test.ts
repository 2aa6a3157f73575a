import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MailQueueOverview } from '@cr/contract/mail';
import { auditLog, outbox } from '../src/db/schema/index';
import { API, databaseKinds, useTestApp } from './build-test-app';
import { uniqueName, type TestUser } from './fixtures';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

const FORBIDDEN = { message: 'This section is only accessible to admins.' };

// Issue 27 item 2: the admin's view of the mail queue (per kind × status, the oldest queued, the last failures) and
// "retry failed", on the server's real data: mails queued by registrations and refused for real by an SMTP sink.
describe.each(databaseKinds)('admin/mail-queue on %s', (kind) => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
    sink.rejectRecipient = (address) => (address.startsWith('bounce-') ? { code: 550, message: '5.1.1 No such user' } : null);
  });
  afterAll(async () => {
    await sink?.close();
  });
  const ctx = useTestApp(kind, () => ({ SMTP_URL: sink.url, MAIL_RATE_PER_SECOND: '1000' }));
  let admin: TestUser;
  let reviewer: TestUser;
  beforeAll(async () => {
    admin = await ctx.newAdmin();
    reviewer = await ctx.newUser();
    // Their activation mails are not part of what the tests count.
    await ctx.db.delete(outbox);
  });

  const overview = async (who: TestUser | null = admin) =>
    ctx.app.inject({ method: 'GET', url: `${API}/admin/mail-queue/`, headers: who?.auth ?? {} });
  const retry = (body: unknown, who: TestUser | null = admin) =>
    ctx.app.inject({ method: 'POST', url: `${API}/admin/mail-queue/retry`, headers: who?.auth ?? {}, payload: body as object });
  const read = async () => {
    const response = await overview();
    expect(response.statusCode).toBe(200);
    return response.json<MailQueueOverview>();
  };

  it('answers 401 to a visitor and 403 to a reviewer, for both routes', async () => {
    expect((await overview(null)).statusCode).toBe(401);
    expect((await overview(reviewer)).statusCode).toBe(403);
    expect((await overview(reviewer)).json()).toEqual(FORBIDDEN);
    expect((await retry({ retry_failed: {} }, null)).statusCode).toBe(401);
    const refused = await retry({ retry_failed: {} }, reviewer);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual(FORBIDDEN);
  });

  it('counts mails per kind and status, with the oldest queued mail and the failures with their reasons', async () => {
    // Nothing queued yet: zero everywhere.
    const empty = await read();
    expect(empty).toEqual({ kinds: [], totals: { queued: 0, sending: 0, sent: 0, failed: 0 }, oldest_queued_seconds: null, failures: [] });

    // Three activations: two go out, one bounces (550); then a password reset waits, queued an hour ago.
    const good = [await ctx.register(), await ctx.register()];
    const bounced = await ctx.register({ email: `bounce-${uniqueName('a')}@example.test` });
    await ctx.app.services.mailWorker.drain();
    await ctx.app.services.mailer.enqueue(ctx.db, {
      to: good[0]!.email,
      kind: 'password_reset',
      subject: 'S',
      text: 'T',
      html: '<p>T</p>',
    });
    await ctx.db
      .update(outbox)
      .set({ createdAt: sql`now() - interval '1 hour'` })
      .where(and(eq(outbox.kind, 'password_reset'), eq(outbox.status, 'queued')));

    const view = await read();
    expect(view.kinds).toEqual([
      { kind: 'activation', queued: 0, sending: 0, sent: 2, failed: 1 },
      { kind: 'password_reset', queued: 1, sending: 0, sent: 0, failed: 0 },
    ]);
    expect(view.totals).toEqual({ queued: 1, sending: 0, sent: 2, failed: 1 });
    expect(view.oldest_queued_seconds).toBeGreaterThanOrEqual(3599);
    expect(view.oldest_queued_seconds).toBeLessThan(3700);
    expect(view.failures).toHaveLength(1);
    expect(view.failures[0]).toMatchObject({ kind: 'activation', recipient: bounced.email, attempts: 1 });
    expect(view.failures[0]!.error).toMatch(/^550 .*No such user/);
    expect(Date.parse(view.failures[0]!.failed_at)).toBeGreaterThan(Date.now() - 60_000);
    await ctx.app.services.mailWorker.drain();
  });

  it('lists the last 20 failures, newest first', async () => {
    for (let i = 0; i < 22; i += 1) await ctx.register({ email: `bounce-${uniqueName('many')}@example.test` });
    await ctx.app.services.mailWorker.drain();
    const { failures, totals } = await read();
    expect(totals.failed).toBeGreaterThanOrEqual(23);
    expect(failures).toHaveLength(20);
    const times = failures.map((failure) => Date.parse(failure.failed_at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('retries one failed mail by id: queued again from zero attempts, audited; an id that is not failed is 404', async () => {
    const { failures } = await read();
    const target = failures[0]!;
    const response = await retry({ retry_failed: { id: target.id } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ retried: 1 });
    const [row] = await ctx.db.select().from(outbox).where(eq(outbox.id, target.id));
    expect(row).toMatchObject({ status: 'queued', attempts: 0, claimedUntil: null });
    expect(row!.nextAttemptAt.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    const [entry] = await ctx.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'mail.retry_failed'))
      .orderBy(sql`${auditLog.id} desc`)
      .limit(1);
    expect(entry).toMatchObject({ actorUserId: admin.id, entity: 'outbox', entityId: String(target.id) });
    expect(entry!.after).toEqual({ kind: null, id: target.id, retried: 1 });

    // It is queued now, not failed: a second retry of it is 404, and so is an id that does not exist.
    const again = await retry({ retry_failed: { id: target.id } });
    expect(again.statusCode).toBe(404);
    expect(again.json()).toEqual({ message: 'There is no failed mail with this id.' });
    expect((await retry({ retry_failed: { id: 2_000_000_000 } })).statusCode).toBe(404);
    // The sink still refuses it: it fails again, with one attempt.
    await ctx.app.services.mailWorker.drain();
    expect((await ctx.db.select().from(outbox).where(eq(outbox.id, target.id)))[0]).toMatchObject({ status: 'failed', attempts: 1 });
  });

  it('retries the failed mails of one kind only, then all; a retried mail that now goes through is sent', async () => {
    await ctx.app.services.mailer.enqueue(ctx.db, {
      to: `bounce-${uniqueName('other')}@example.test`,
      kind: 'other_kind',
      subject: 'S',
      text: 'T',
      html: '<p>T</p>',
    });
    await ctx.app.services.mailWorker.drain();
    const before = await read();
    const activationFailures = before.kinds.find((row) => row.kind === 'activation')!.failed;
    expect(before.kinds.find((row) => row.kind === 'other_kind')).toMatchObject({ failed: 1 });

    // The mailbox comes back: the sink accepts everything now.
    sink.rejectRecipient = () => null;
    const ofKind = await retry({ retry_failed: { kind: 'other_kind' } });
    expect(ofKind.json()).toEqual({ retried: 1 });
    const middle = await read();
    expect(middle.kinds.find((row) => row.kind === 'other_kind')).toMatchObject({ failed: 0, queued: 1 });
    expect(middle.kinds.find((row) => row.kind === 'activation')).toMatchObject({ failed: activationFailures });

    const all = await retry({ retry_failed: {} });
    expect(all.json()).toEqual({ retried: activationFailures });
    await ctx.app.services.mailWorker.drain();
    const after = await read();
    expect(after.totals.failed).toBe(0);
    expect(after.failures).toEqual([]);
    expect(after.kinds.find((row) => row.kind === 'other_kind')).toMatchObject({ sent: 1, queued: 0 });
    expect(after.kinds.find((row) => row.kind === 'activation')!.sent).toBe(
      before.kinds.find((row) => row.kind === 'activation')!.sent + activationFailures,
    );
    // Nothing left to retry.
    expect((await retry({ retry_failed: {} })).json()).toEqual({ retried: 0 });
  });

  it.each([
    ['no body', undefined, 'body'],
    ['an unwrapped body', { kind: 'activation' }, 'retry_failed'],
    ['an id that is text', { retry_failed: { id: '1' } }, 'id'],
    ['an id of 0', { retry_failed: { id: 0 } }, 'id'],
    ['a kind that is not a kind', { retry_failed: { kind: 'DROP TABLE' } }, 'kind'],
    ['an empty kind', { retry_failed: { kind: '' } }, 'kind'],
    ['an unknown field', { retry_failed: { status: 'sent' } }, 'retry_failed'],
  ])('answers 422 to %s', async (_name, body, field) => {
    const response = await retry(body);
    expect(response.statusCode).toBe(422);
    expect(JSON.stringify(response.json().detail.map((item: { loc: unknown[] }) => item.loc))).toContain(field);
  });
});
