import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { lifecycleMessages } from '@cr/contract/lifecycle';
import { AccountStatus, UserRole } from '@cr/contract/users';
import { allocationModerators, inModeratorPool } from '../src/db/rules';
import { outbox, proposalAllocations, reviewVersions, reviews } from '../src/db/schema/index';
import { allocationReviewers } from '../src/modules/proposals/proposals.repository';
import { API, databaseKinds, json, useTestApp } from './build-test-app';
import { refreshCookieOf, type TestUser } from './fixtures';
import type { TestEvent } from './world-fixtures';

const REASON = 'Copied the same notes across several accounts.';

/** Issue 47 item 1: an admin bans and unbans an account. */
describe.each(databaseKinds)('issue 47 (A-047: status 3 banned): ban and unban on %s', (kind) => {
  const ctx = useTestApp(kind);
  let admin: TestUser;
  let event: TestEvent;
  beforeAll(async () => {
    admin = await ctx.admin();
    event = await ctx.newEvent({ config: { review_submission_enabled: true } });
  });

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Record<string, string> = {}, payload?: object) =>
    ctx.app.inject({ method, url: `${API}/${url}`, headers, ...(payload ? { payload } : {}) });
  const ban = (target: { id: number } | string, body: object = { reason: REASON }, by: TestUser = admin) =>
    call('POST', `admin/users/${encodeURIComponent(typeof target === 'string' ? target : target.id)}/ban`, by.auth, body);
  const unban = (target: { id: number }, by: TestUser = admin) => call('POST', `admin/users/${target.id}/unban`, by.auth);
  const newApiToken = async (user: TestUser) =>
    json<{ token: string }>(
      await call('POST', 'users/me/tokens/', user.auth, { new_api_token: { name: 'script', scopes: ['read'], expires_in_days: 30 } }),
    ).token;
  const queueMail = async (user: TestUser) => {
    const [row] = await ctx.db
      .insert(outbox)
      .values({ recipient: user.email, kind: 'review_reminder', userId: user.id, subject: 'Reminder', textBody: 'Write your reviews.' })
      .returning({ id: outbox.id });
    return row!.id;
  };

  it('ends every session, refresh token and API token at once, and fails the mails queued for the account with the reason', async () => {
    const reviewer = await ctx.newReviewer(event);
    const apiToken = await newApiToken(reviewer);
    expect((await call('GET', 'users/me/', { authorization: `Bearer ${apiToken}` })).statusCode).toBe(200);
    expect((await call('GET', 'users/me/', reviewer.auth)).statusCode).toBe(200);
    const mailId = await queueMail(reviewer);

    const response = await ban(reviewer);
    expect(response.statusCode).toBe(200);
    expect(json(response)).toMatchObject({ user_id: reviewer.id, status: AccountStatus.banned, ban: { reason: REASON } });

    // The access token made before the ban answers 401 at once (its session was ended), and nothing renews it.
    expect((await call('GET', 'users/me/', reviewer.auth)).statusCode).toBe(401);
    expect((await ctx.refresh(reviewer.refreshToken)).statusCode).toBe(401);
    expect((await call('GET', 'users/me/', { authorization: `Bearer ${apiToken}` })).statusCode).toBe(401);

    const [mail] = await ctx.db.select().from(outbox).where(eq(outbox.id, mailId));
    expect(mail).toMatchObject({ status: 'failed', error: `recipient account banned: ${REASON}` });
  });

  it('refuses the banned account’s login with the reason: "This account is banned: <reason>"', async () => {
    const user = await ctx.newUser();
    expect((await ban(user)).statusCode).toBe(200);
    const login = await ctx.login(user.catalystId, user.password);
    expect(login.statusCode).toBe(403);
    expect(json(login)).toEqual({ message: `This account is banned: ${REASON}` });
    expect(json(login).message).toBe(lifecycleMessages.banned(REASON));
    // A wrong password says nothing about the ban.
    expect((await ctx.login(user.catalystId, 'Wrong-pass1')).statusCode).toBe(401);
  });

  it('takes the account out of the allocation, moderation and appeal pools', async () => {
    const reviewer = await ctx.newReviewer(event);
    const moderator = await ctx.newModerator(event);
    const reviewerIds = async () => (await allocationReviewers(ctx.db, event.id)).map((row) => row.id);
    const moderatorIds = async () => (await allocationModerators(ctx.db, event.id)).map((row) => row.subscriptionId);
    const inAppealPool = async (subscriptionId: number) => {
      const result = await ctx.db.execute(sql`select ${inModeratorPool(sql`${subscriptionId}::int`)} as pooled`);
      const rows = Array.isArray(result) ? result : (result as unknown as { rows: { pooled: boolean }[] }).rows;
      return (rows[0] as { pooled: boolean }).pooled;
    };
    expect(await reviewerIds()).toContain(reviewer.subscription.row_id);
    expect(await moderatorIds()).toContain(moderator.subscription.row_id);
    expect(await inAppealPool(moderator.subscription.row_id)).toBe(true);

    expect((await ban(reviewer)).statusCode).toBe(200);
    expect((await ban(moderator)).statusCode).toBe(200);
    expect(await reviewerIds()).not.toContain(reviewer.subscription.row_id);
    expect(await moderatorIds()).not.toContain(moderator.subscription.row_id);
    expect(await inAppealPool(moderator.subscription.row_id)).toBe(false);
  });

  it('keeps what the account wrote unless asked to withdraw; then deletes this round’s unmoderated reviews with a version and frees the allocations', async () => {
    const kept = await ctx.newReviewer(event);
    const keptReview = await ctx.newReview(kept, await ctx.newProposal(event));
    expect((await ban(kept)).statusCode).toBe(200);
    expect(await ctx.db.select().from(reviews).where(eq(reviews.id, keptReview.row_id))).toHaveLength(1);

    const withdrawn = await ctx.newReviewer(event);
    const proposal = await ctx.newProposal(event);
    await ctx.newAllocation(withdrawn, proposal);
    const review = await ctx.newReview(withdrawn, proposal);
    const response = await ban(withdrawn, { reason: REASON, withdraw_drafts: true });
    expect(json(response)).toMatchObject({ withdrawn_reviews: 1, freed_allocations: 1 });
    expect(await ctx.db.select().from(reviews).where(eq(reviews.id, review.row_id))).toEqual([]);
    const versions = await ctx.db.select().from(reviewVersions).where(eq(reviewVersions.reviewId, review.row_id));
    expect(versions.map((v) => [v.action, v.actorUserId])).toEqual([
      ['create', withdrawn.id],
      ['delete', admin.id],
    ]);
    const allocations = await ctx.db
      .select()
      .from(proposalAllocations)
      .where(eq(proposalAllocations.subscriptionId, withdrawn.subscription.row_id));
    expect(allocations).toEqual([]);
  });

  it('is audited with who, when and the reason, in the audit tab', async () => {
    const user = await ctx.newUser();
    expect((await ban(user)).statusCode).toBe(200);
    const audit = json<{ data: Record<string, unknown>[] }>(await call('GET', 'admin/audit/?action=user.ban', admin.auth));
    const entry = audit.data.find((row) => row.entity_id === String(user.id));
    expect(entry).toMatchObject({
      action: 'user.ban',
      entity: 'user',
      actor: expect.stringContaining(admin.catalystId.replace('id.catalyst://', '')),
      after: expect.objectContaining({ reason: REASON }),
      created_at: expect.any(String),
    });
  });

  it('unban restores the login but not the revoked tokens', async () => {
    const user = await ctx.newReviewer(event);
    const apiToken = await newApiToken(user);
    expect((await ban(user, { reason: REASON }, event.admin)).statusCode).toBe(200);
    // The admin's read-only profile shows the ban while it lasts.
    const banned = json(await call('GET', `admin/users/${user.id}`, admin.auth));
    expect(banned.extra.ban).toEqual({ reason: REASON, banned_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    const response = await unban(user);
    expect(response.statusCode).toBe(200);
    expect(json(await call('GET', `admin/users/${user.id}`, admin.auth)).extra.ban).toBeUndefined();
    expect(json(response)).toMatchObject({ status: AccountStatus.active, ban: null });

    const login = await ctx.login(user.catalystId, user.password);
    expect(login.statusCode).toBe(200);
    expect(refreshCookieOf(login)).toBeTruthy();
    expect((await call('GET', 'users/me/', { authorization: `Bearer ${json(login).access_token}` })).statusCode).toBe(200);
    // What the ban revoked stays revoked.
    expect((await call('GET', 'users/me/', user.auth)).statusCode).toBe(401);
    expect((await ctx.refresh(user.refreshToken)).statusCode).toBe(401);
    expect((await call('GET', 'users/me/', { authorization: `Bearer ${apiToken}` })).statusCode).toBe(401);
    // Unban of an account that is not banned.
    expect((await unban(user)).statusCode).toBe(409);
    const audit = json<{ data: Record<string, unknown>[] }>(await call('GET', 'admin/audit/?action=user.unban', admin.auth));
    expect(audit.data.some((row) => row.entity_id === String(user.id))).toBe(true);
  });

  it('restores the status the ban replaced (an account not yet activated stays so)', async () => {
    const user = await ctx.newUser({ status: AccountStatus.email_verified });
    await ban(user);
    expect(json(await unban(user)).status).toBe(AccountStatus.email_verified);
  });

  it('is for admins only, needs a reason, and answers 404 for no such user and 409 for a second ban', async () => {
    const user = await ctx.newUser();
    const other = await ctx.newUser();
    expect((await call('POST', `admin/users/${user.id}/ban`, {}, { reason: REASON })).statusCode).toBe(401);
    expect((await ban(user, { reason: REASON }, other)).statusCode).toBe(403);
    expect((await call('POST', `admin/users/${user.id}/unban`, other.auth)).statusCode).toBe(403);
    expect((await ban(user, { reason: '  ' })).statusCode).toBe(422);
    expect((await ban(user, {})).statusCode).toBe(422);
    expect((await ban('999999')).statusCode).toBe(404);
    expect((await ban(user.catalystId)).statusCode).toBe(200);
    expect((await ban(user)).statusCode).toBe(409);
  });

  it('refuses an admin banning themself, and the last admin', async () => {
    const second = await ctx.newAdmin();
    const self = await ban(second, { reason: REASON }, second);
    expect(self.statusCode).toBe(403);
    expect(json(self)).toEqual({ message: lifecycleMessages.cannotBanSelf });

    // Every other admin banned: the one left cannot be banned, not even by themself.
    const others = await ctx.db.execute(sql`select u.id from users u join catalyst_ids c on c.id = u.catalyst_id_ref
      where u.role = ${UserRole.admin} and c.status <> ${AccountStatus.banned} and u.id <> ${admin.id}`);
    const rows = (Array.isArray(others) ? others : (others as unknown as { rows: { id: number }[] }).rows) as { id: number }[];
    for (const row of rows) expect((await ban({ id: row.id })).statusCode).toBe(200);
    const last = await ban(admin, { reason: REASON }, admin);
    expect(last.statusCode).toBe(409);
    expect(json(last)).toEqual({ message: lifecycleMessages.lastAdmin });
    expect((await call('GET', 'users/me/', admin.auth)).statusCode).toBe(200);
  });
});
