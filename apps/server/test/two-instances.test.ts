import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { testConfig } from '../src/config';
import { openPostgres, type Database } from '../src/db/client';
import { auditLog, refreshTokens } from '../src/db/schema/index';
import { API, useTestApp } from './build-test-app';
import { REFRESH_COOKIE, refreshCookieOf } from './fixtures';
import type { TestEvent, TestProposal, TestReviewer } from './world-fixtures';

const overrides = { LOGIN_LIMIT_PER_ACCOUNT_ADDRESS: '3' };
const note = (i: number) =>
  `Review note ${i}: the milestones are concrete, the budget is itemised and the team has shipped before. `.repeat(3);

// Issue 18 item 3: N stateless instances behind a balancer on one PostgreSQL database (docs/deployment.md). Two app
// instances, each with its own pool, share sessions, refresh rotation, rate limits and exactly-once admin runs.
describe.skipIf(!process.env.TEST_DATABASE_URL)('two instances on one PostgreSQL database', () => {
  const ctx = useTestApp('postgres', overrides);
  let other: FastifyInstance;
  let otherDatabase: Database;

  beforeAll(async () => {
    const result = await ctx.db.execute(sql`select current_database() as name`);
    const name = (result as unknown as { rows: { name: string }[] }).rows[0]!.name;
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    otherDatabase = await openPostgres(url.toString());
    const config = testConfig({ PUBLIC_URL: 'http://app.test', ...overrides });
    other = await buildApp({ config, db: otherDatabase.db, jwtSecret: config.JWT_SECRET!, logger: false });
    await other.ready();
  });
  afterAll(async () => {
    await other?.close();
    await otherDatabase?.close();
  });

  it('runs the same real moderation allocation on both at once: exactly one wins, the other answers 409', async () => {
    const event: TestEvent = await ctx.newEvent({ config: { review_submission_enabled: true } });
    const proposals: TestProposal[] = await ctx.importProposals(event);
    const reviewers: TestReviewer[] = [await ctx.newReviewer(event), await ctx.newReviewer(event)];
    for (const [r, reviewer] of reviewers.entries()) {
      for (let i = 0; i < 2; i += 1) {
        const text = note(r * 10 + i);
        await ctx.newReview(reviewer, proposals[r * 2 + i]!, {
          impact_alignment_note: text,
          feasibility_note: text,
          auditability_note: text,
        });
      }
    }
    await ctx.newModerator(event);
    await ctx.newModerator(event);
    const body = {
      allocation_params: {
        event_id: event.id,
        moderation_seed: 1,
        nr_of_moderations_per_review: 1,
        min_spot_check_per_reviewer: 1,
        dry_run: false,
      },
    };
    const post = (app: FastifyInstance) =>
      app.inject({ method: 'POST', url: `${API}/moderations/generate-allocations`, headers: event.admin.auth, payload: body });
    const answers = await Promise.all([post(ctx.app), post(other)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const audits = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'moderations.allocate'), eq(auditLog.eventId, event.id)));
    expect(audits).toHaveLength(1);
  });

  it('accepts a session issued by one instance on the other, which rotates its refresh token', async () => {
    const user = await ctx.newUser();
    const me = await other.inject({ method: 'GET', url: `${API}/users/me/`, headers: user.auth });
    expect(me.statusCode).toBe(200);
    const refreshed = await other.inject({
      method: 'GET',
      url: `${API}/users/token/refresh`,
      cookies: { [REFRESH_COOKIE]: user.refreshToken },
    });
    expect(refreshed.statusCode).toBe(200);
    const successor = refreshCookieOf(refreshed)!;
    expect(successor).not.toBe(user.refreshToken);
    // Back on the first instance: the successor works and rotates again; the rotation is one row per token.
    const again = await ctx.app.inject({ method: 'GET', url: `${API}/users/token/refresh`, cookies: { [REFRESH_COOKIE]: successor } });
    expect(again.statusCode).toBe(200);
    const rows = await ctx.db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    expect(rows).toHaveLength(3);
    expect(rows.filter((row) => row.rotatedAt !== null)).toHaveLength(2);
    const fresh = (again.json() as { access_token: string }).access_token;
    expect((await other.inject({ method: 'GET', url: `${API}/users/me/`, headers: { authorization: `Bearer ${fresh}` } })).statusCode).toBe(
      200,
    );
  });

  it('counts rate limits across both instances', async () => {
    const user = await ctx.register();
    const loginOn = (app: FastifyInstance, password: string) =>
      app.inject({
        method: 'POST',
        url: `${API}/users/token/login`,
        payload: new URLSearchParams({ username: user.catalystId, password }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        remoteAddress: '10.0.18.1',
      });
    // Three failures (the limit) spread over both instances; the next attempt is refused on either.
    expect((await loginOn(ctx.app, 'Wrong-pass1')).statusCode).toBe(401);
    expect((await loginOn(other, 'Wrong-pass1')).statusCode).toBe(401);
    expect((await loginOn(ctx.app, 'Wrong-pass1')).statusCode).toBe(401);
    expect((await loginOn(other, user.password)).statusCode).toBe(429);
    expect((await loginOn(ctx.app, user.password)).statusCode).toBe(429);
  });
});
