import { eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { idempotencyKeys, oneTimeTokens, outbox, rateLimits, refreshTokens } from '../src/db/schema/index';
import { databaseKinds, useTestApp } from './build-test-app';

const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);

/** Issue 47 item 4: what is kept only for a while (MAIL_RETENTION_DAYS, the lifetimes of sessions, links and keys). */
describe.each(databaseKinds)('issue 47: retention on %s', (kind) => {
  const ctx = useTestApp(kind, { MAIL_RETENTION_DAYS: '30' });

  it('purges the bodies of mails sent more than MAIL_RETENTION_DAYS ago and keeps their rows (the counts stay)', async () => {
    const mail = (sentDaysAgo: number, status: 'sent' | 'failed' = 'sent') => ({
      recipient: 'someone@example.test',
      kind: 'retention_test',
      subject: 'Subject',
      textBody: 'Body',
      htmlBody: '<p>Body</p>',
      link: 'https://app.test/x',
      params: { a: 1 },
      status,
      sentAt: status === 'sent' ? daysAgo(sentDaysAgo) : null,
      createdAt: daysAgo(sentDaysAgo),
    });
    const rows = await ctx.db
      .insert(outbox)
      .values([mail(31), mail(29), mail(40, 'failed')])
      .returning({ id: outbox.id });
    const counts = await ctx.app.services.retention.purge();
    expect(counts.mailBodies).toBe(1);
    const [old, recent, failed] = await Promise.all(
      rows.map(async (row) => (await ctx.db.select().from(outbox).where(eq(outbox.id, row.id)))[0]!),
    );
    expect(old).toMatchObject({
      status: 'sent',
      subject: null,
      textBody: null,
      htmlBody: null,
      link: null,
      params: null,
      kind: 'retention_test',
    });
    expect(recent).toMatchObject({ subject: 'Subject', textBody: 'Body' });
    expect(failed).toMatchObject({ subject: 'Subject' });
    const kept = await ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(outbox)
      .where(eq(outbox.kind, 'retention_test'));
    expect(Number(kept[0]!.n)).toBe(3);
    // A second purge finds nothing more to do.
    expect((await ctx.app.services.retention.purge()).mailBodies).toBe(0);
  });

  it('deletes expired sessions, e-mailed links, idempotency keys and rate-limit counters, and keeps live ones', async () => {
    const user = await ctx.newUser();
    const live = await ctx.db.select({ id: refreshTokens.id }).from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    const [expired] = await ctx.db
      .insert(refreshTokens)
      .values({ userId: user.id, familyId: crypto.randomUUID(), tokenHash: `expired-${user.id}`, expiresAt: daysAgo(1) })
      .returning({ id: refreshTokens.id });
    await ctx.db.insert(oneTimeTokens).values([
      { userId: user.id, purpose: 'password_reset', tokenHash: `old-${user.id}`, expiresAt: daysAgo(1) },
      { userId: user.id, purpose: 'password_reset', tokenHash: `new-${user.id}`, expiresAt: new Date(Date.now() + DAY) },
    ]);
    await ctx.db.insert(idempotencyKeys).values([
      { userId: user.id, key: 'old', route: 'POST /x', requestHash: 'h', createdAt: daysAgo(2) },
      { userId: user.id, key: 'new', route: 'POST /x', requestHash: 'h' },
    ]);
    await ctx.db.insert(rateLimits).values([
      { key: `retention:old:${user.id}`, windowStartedAt: daysAgo(1), hits: 3 },
      { key: `retention:new:${user.id}`, windowStartedAt: new Date(), hits: 3 },
    ]);

    const counts = await ctx.app.services.retention.purge();
    expect(counts.refreshTokens).toBeGreaterThanOrEqual(1);

    const refreshLeft = await ctx.db.select({ id: refreshTokens.id }).from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    expect(refreshLeft.map((row) => row.id).sort()).toEqual(live.map((row) => row.id).sort());
    expect(refreshLeft.map((row) => row.id)).not.toContain(expired!.id);
    const links = await ctx.db
      .select({ hash: oneTimeTokens.tokenHash })
      .from(oneTimeTokens)
      .where(inArray(oneTimeTokens.tokenHash, [`old-${user.id}`, `new-${user.id}`]));
    expect(links.map((row) => row.hash)).toEqual([`new-${user.id}`]);
    const keys = await ctx.db.select({ key: idempotencyKeys.key }).from(idempotencyKeys).where(eq(idempotencyKeys.userId, user.id));
    expect(keys.map((row) => row.key)).toEqual(['new']);
    const counters = await ctx.db
      .select({ key: rateLimits.key })
      .from(rateLimits)
      .where(inArray(rateLimits.key, [`retention:old:${user.id}`, `retention:new:${user.id}`]));
    expect(counters.map((row) => row.key)).toEqual([`retention:new:${user.id}`]);
    // The session the purge kept still works.
    expect((await ctx.app.inject({ method: 'GET', url: '/api/reviews/users/me/', headers: user.auth })).statusCode).toBe(200);
  });
});
