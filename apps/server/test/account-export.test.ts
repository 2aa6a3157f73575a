import { eq, inArray, or, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { accountExport, type AccountExport } from '@cr/contract/lifecycle';
import { normalizeCatalystId } from '@cr/contract/rules';
import {
  apiTokens,
  appeals,
  auditLog,
  moderations,
  notificationOptOuts,
  outbox,
  reviews,
  reviewVersions,
  subscriptions,
} from '../src/db/schema/index';
import { API, databaseKinds, json, useTestApp } from './build-test-app';
import type { TestEvent, TestReviewer } from './world-fixtures';

/** Issue 47 item 3: a person downloads everything the server keeps about them, and nothing of anyone else. */
describe.each(databaseKinds)('issue 47: export my data on %s', (kind) => {
  const ctx = useTestApp(kind);
  let event: TestEvent;
  beforeAll(async () => {
    event = await ctx.newEvent({ config: { review_submission_enabled: true } });
  });

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string> = {}, payload?: object) =>
    ctx.app.inject({ method, url: `${API}/${url}`, headers, ...(payload ? { payload } : {}) });

  /** A reviewer with a review, an API token, a notification choice and a mail. */
  const reviewerWithData = async (label: string) => {
    const user = await ctx.newReviewer(event);
    const proposal = await ctx.newProposal(event);
    const review = await ctx.newReview(user, proposal, { impact_alignment_note: `${label} `.repeat(60) });
    await call('POST', 'users/me/tokens/', user.auth, { new_api_token: { name: `${label}-token`, scopes: ['read'], expires_in_days: 30 } });
    await ctx.db.insert(notificationOptOuts).values({ userId: user.id, kind: 'review_reminder' });
    await ctx.db.insert(outbox).values({ recipient: user.email, kind: 'review_reminder', userId: user.id, subject: `${label} mail` });
    return { user, reviewId: review.row_id };
  };

  const exportOf = async (user: TestReviewer) => {
    const response = await call('GET', 'users/me/export', user.auth);
    expect(response.statusCode).toBe(200);
    return accountExport.parse(json(response));
  };

  const ids = (rows: Record<string, unknown>[]) => rows.map((row) => Number(row.id)).sort((a, b) => a - b);

  it('holds all of the person’s rows and none of anyone else’s (IDOR)', async () => {
    const mine = await reviewerWithData('alpha');
    const theirs = await reviewerWithData('omega');
    // A moderation and an appeal of each (written directly: their own routes are tested elsewhere).
    const [myModeration] = await ctx.db
      .insert(moderations)
      .values({
        eventId: event.id,
        reviewId: theirs.reviewId,
        subscriptionId: mine.user.subscription.row_id,
        classification: 1,
        rationale: 'alpha fine',
      })
      .returning({ id: moderations.id });
    const [theirModeration] = await ctx.db
      .insert(moderations)
      .values({
        eventId: event.id,
        reviewId: mine.reviewId,
        subscriptionId: theirs.user.subscription.row_id,
        classification: 0,
        rationale: 'omega no',
      })
      .returning({ id: moderations.id });
    const [myAppeal] = await ctx.db
      .insert(appeals)
      .values({
        eventId: event.id,
        reviewId: mine.reviewId,
        subscriptionId: mine.user.subscription.row_id,
        rationale: 'alpha appeal',
        rankingBefore: 2,
      })
      .returning({ id: appeals.id });
    await ctx.db.insert(appeals).values({
      eventId: event.id,
      reviewId: theirs.reviewId,
      subscriptionId: theirs.user.subscription.row_id,
      rationale: 'omega appeal',
      rankingBefore: 2,
    });
    const data = await exportOf(mine.user);
    const me = mine.user;
    expect(ids(data.moderations)).toEqual([myModeration!.id]);
    expect(ids(data.moderations)).not.toContain(theirModeration!.id);
    expect(ids(data.appeals)).toEqual([myAppeal!.id]);

    expect(data.account).toMatchObject({ user_id: me.id, email: me.email, catalyst_id: normalizeCatalystId(me.catalystId).id });
    // Every row of the person's, by table, as the database holds them.
    const mySubscriptions = await ctx.db.select({ id: subscriptions.id }).from(subscriptions).where(eq(subscriptions.userId, me.id));
    const subscriptionIds = mySubscriptions.map((s) => s.id);
    const myReviews = await ctx.db.select({ id: reviews.id }).from(reviews).where(inArray(reviews.subscriptionId, subscriptionIds));
    const myVersions = await ctx.db
      .select({ id: reviewVersions.id })
      .from(reviewVersions)
      .where(inArray(reviewVersions.subscriptionId, subscriptionIds));
    const myTokens = await ctx.db.select({ id: apiTokens.id }).from(apiTokens).where(eq(apiTokens.userId, me.id));
    const myMails = await ctx.db.select({ id: outbox.id }).from(outbox).where(eq(outbox.userId, me.id));
    const myAudit = await ctx.db
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(or(eq(auditLog.actorUserId, me.id), sql`(${auditLog.entity} = 'api_token' and ${auditLog.actorUserId} = ${me.id})`));
    const sorted = (rows: { id: number }[]) => rows.map((row) => row.id).sort((a, b) => a - b);
    expect(ids(data.subscriptions)).toEqual(sorted(mySubscriptions));
    expect(ids(data.reviews)).toEqual(sorted(myReviews));
    expect(ids(data.review_versions)).toEqual(sorted(myVersions));
    expect(ids(data.api_tokens)).toEqual(sorted(myTokens));
    expect(ids(data.mails)).toEqual(sorted(myMails));
    expect(ids(data.audit_entries)).toEqual(expect.arrayContaining(sorted(myAudit)));
    expect(data.notification_opt_outs).toEqual([expect.objectContaining({ kind: 'review_reminder' })]);
    expect(data.reviews.map((row) => row.id)).toContain(mine.reviewId);

    // Nothing of the other reviewer: no id, address, Catalyst ID, anonymous id, words or token.
    const text = JSON.stringify(data);
    const other = theirs.user;
    for (const needle of [other.email, normalizeCatalystId(other.catalystId).id, other.anonymousId, 'omega', `"user_id":${other.id},`]) {
      expect(text.includes(needle), needle).toBe(false);
    }
    expect(data.reviews.map((row) => row.id)).not.toContain(theirs.reviewId);
    // No secret either: token hashes and the password hash stay out.
    expect(text).not.toMatch(/token_hash|password_hash/);
  });

  it('is a one-line call for scripts: an API token with the read scope may call it, anonymous callers may not', async () => {
    const { user } = await reviewerWithData('scripted');
    const token = json<{ token: string }>(
      await call('POST', 'users/me/tokens/', user.auth, { new_api_token: { name: 'export', scopes: ['read'], expires_in_days: 1 } }),
    ).token;
    const response = await call('GET', 'users/me/export', { authorization: `Bearer ${token}` });
    expect(response.statusCode).toBe(200);
    expect(json<AccountExport>(response).account.user_id).toBe(user.id);
    expect(response.headers['content-disposition']).toMatch(/attachment; filename="community-review-data-\d{4}-\d\d-\d\d\.json"/);
    expect((await call('GET', 'users/me/export')).statusCode).toBe(401);
  });

  it('answers a readable Markdown rendering of the same data', async () => {
    const { user } = await reviewerWithData('markdown');
    const response = await call('GET', 'users/me/export?format=markdown', user.auth);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/markdown/);
    expect(response.body).toMatch(/^# Your data in Community Review\n/);
    expect(response.body).toContain(`- **email**: ${user.email}`);
    expect(response.body).toContain('## Reviews (1)');
    expect(response.body).toContain('markdown-token');
  });
});
