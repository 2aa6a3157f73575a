import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { AccountStatus } from '@cr/contract/users';
import { oneTimeTokens, outbox } from '../src/db/schema/index';
import { API, databaseKinds, useTestApp } from './build-test-app';
import { REFRESH_COOKIE, uniqueName, type TestUser } from './fixtures';

const NEW_PASSWORD = 'Brand-new-pass2';

describe.each(databaseKinds)('password reset and change on %s', (kind) => {
  const ctx = useTestApp(kind);
  const requestResetNow = (catalystId: string, remoteAddress?: string) =>
    ctx.app.inject({
      method: 'POST',
      url: `${API}/users/password/reset-request`,
      payload: { new_user: { catalyst_id: catalystId } },
      ...(remoteAddress ? { remoteAddress } : {}),
    });
  /** The request, and the mail it leads to once the answer is sent (issue 26 item 6). */
  const requestReset = async (catalystId: string, remoteAddress?: string) => {
    const response = await requestResetNow(catalystId, remoteAddress);
    await ctx.app.services.afterResponse.settled();
    return response;
  };
  const reset = (body: Record<string, unknown>) =>
    ctx.app.inject({ method: 'POST', url: `${API}/users/password/reset`, payload: { user_reset: body } });
  const resetBody = (catalystId: string, token: string, password = NEW_PASSWORD) => ({
    catalyst_id: catalystId,
    password,
    password_confirmation: password,
    confirmation_token: token,
  });
  const update = (user: { auth: { authorization: string } }, body: Record<string, unknown>, refreshToken?: string) =>
    ctx.app.inject({
      method: 'POST',
      url: `${API}/users/password/update`,
      headers: user.auth,
      payload: { update_user: body },
      cookies: refreshToken ? { [REFRESH_COOKIE]: refreshToken } : {},
    });
  const mailCount = async () => (await ctx.db.select({ n: count() }).from(outbox))[0]!.n;
  const unusedResetTokens = (userId: number) =>
    ctx.db
      .select()
      .from(oneTimeTokens)
      .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, 'password_reset'), isNull(oneTimeTokens.usedAt)));

  describe('POST users/password/reset-request', () => {
    it('mails a reset link to a known account (A-058)', async () => {
      const user = await ctx.newUser();
      const response = await requestReset(user.catalystId);
      expect(response.statusCode).toBe(201);
      expect(response.json()).toBe(true);
      const mail = await ctx.lastMail(user.email);
      expect(mail?.kind).toBe('password_reset');
      expect(mail?.link).toMatch(/^http:\/\/app\.test\/reset-password\?token=[\w-]{40,}$/);
    });

    it('answers an unknown Catalyst ID exactly like a known one, and mails nothing (no account enumeration)', async () => {
      const user = await ctx.newUser();
      const known = await requestReset(user.catalystId);
      const before = await mailCount();
      const unknown = await requestReset(`id.catalyst://cardano/${uniqueName('nobody')}`);
      expect(unknown.statusCode).toBe(known.statusCode);
      expect(unknown.body).toBe(known.body);
      expect(unknown.headers['content-type']).toBe(known.headers['content-type']);
      expect(await mailCount()).toBe(before);
    });

    it('answers a banned account like any other and mails nothing', async () => {
      const user = await ctx.newUser();
      await ctx.setStatus(user.id, AccountStatus.banned);
      const before = await mailCount();
      const response = await requestReset(user.catalystId);
      expect(response.statusCode).toBe(201);
      expect(await mailCount()).toBe(before);
    });

    // Issue 26 item 6: the answer must not wait for the account's lookup and mail (its timing told accounts apart).
    it('answers before the account is looked up or mailed: a known account is answered while the token table is locked', async () => {
      if (kind !== 'postgres') return; // a second connection holds the lock; PGlite has one connection
      const user = await ctx.newUser();
      let answered: Awaited<ReturnType<typeof requestResetNow>> | undefined;
      await ctx.db.transaction(async (tx) => {
        await tx.execute(sql`lock table ${oneTimeTokens} in access exclusive mode`);
        answered = await requestResetNow(user.catalystId);
      });
      expect(answered?.statusCode).toBe(201);
      await ctx.app.services.afterResponse.settled();
      expect(await unusedResetTokens(user.id)).toHaveLength(1);
      expect((await ctx.lastMail(user.email))?.kind).toBe('password_reset');
    });

    it('answers 422 for a value that is not a Catalyst ID', async () => {
      const response = await requestReset('not a catalyst id');
      expect(response.statusCode).toBe(422);
      expect(response.json().detail).toContainEqual(expect.objectContaining({ loc: ['body', 'new_user', 'catalyst_id'] }));
    });
  });

  describe('POST users/password/reset', () => {
    it('sets the new password, ends every session and clears a forced reset (A-099)', async () => {
      const user = await ctx.newUser({ forceReset: true });
      await requestReset(user.catalystId);
      const response = await reset(resetBody(user.catalystId, await ctx.tokenFromMail(user.email)));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toBe(true);
      expect((await ctx.login(user.catalystId, user.password)).statusCode).toBe(401);
      expect((await ctx.login(user.catalystId, NEW_PASSWORD)).statusCode).toBe(200);
      expect((await ctx.refresh(user.refreshToken)).statusCode).toBe(401);
      expect((await ctx.accountOf(user.id)).forceReset).toBe(false);
    });

    it('answers 400 for a used token', async () => {
      const user = await ctx.newUser();
      await requestReset(user.catalystId);
      const token = await ctx.tokenFromMail(user.email);
      expect((await reset(resetBody(user.catalystId, token))).statusCode).toBe(200);
      const again = await reset(resetBody(user.catalystId, token, 'Third-pass3'));
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ message: 'This password reset link has expired or was already used. Please request a new one.' });
      expect((await ctx.login(user.catalystId, NEW_PASSWORD)).statusCode).toBe(200);
    });

    it('answers 400 for an expired token and keeps the old password', async () => {
      const user = await ctx.newUser();
      await requestReset(user.catalystId);
      await ctx.expireTokensOf(user.id, 'password_reset');
      expect((await reset(resetBody(user.catalystId, await ctx.tokenFromMail(user.email)))).statusCode).toBe(400);
      expect((await ctx.login(user.catalystId, user.password)).statusCode).toBe(200);
    });

    it('refuses the token of another account and leaves it unused', async () => {
      const owner = await ctx.newUser();
      const other = await ctx.newUser();
      await requestReset(owner.catalystId);
      const token = await ctx.tokenFromMail(owner.email);
      const response = await reset(resetBody(other.catalystId, token));
      expect(response.statusCode).toBe(400);
      expect(await unusedResetTokens(owner.id)).toHaveLength(1);
      expect((await ctx.login(other.catalystId, other.password)).statusCode).toBe(200);
      expect((await reset(resetBody(owner.catalystId, token))).statusCode).toBe(200);
    });

    it('makes an earlier reset link stop working when a new one is requested', async () => {
      const user = await ctx.newUser();
      await requestReset(user.catalystId);
      const first = await ctx.tokenFromMail(user.email);
      await requestReset(user.catalystId);
      expect((await reset(resetBody(user.catalystId, first))).statusCode).toBe(400);
      expect((await reset(resetBody(user.catalystId, await ctx.tokenFromMail(user.email)))).statusCode).toBe(200);
    });

    it.each([
      [
        'a weak password',
        { password: 'weakpass', password_confirmation: 'weakpass' },
        ['body', 'user_reset', 'password'],
        'Password must contain a number.',
      ],
      [
        'a different confirmation',
        { password_confirmation: 'Other-pass1' },
        ['body', 'user_reset', 'password_confirmation'],
        'Passwords do not match.',
      ],
      [
        'an invalid Catalyst ID',
        { catalyst_id: 'cardano' },
        ['body', 'user_reset', 'catalyst_id'],
        'Please enter a valid Catalyst ID (for example id.catalyst://cardano/…).',
      ],
      ['no token', { confirmation_token: '' }, ['body', 'user_reset', 'confirmation_token'], 'Confirmation token is required.'],
    ])('answers 422 for %s (A-093, A-095, A-096, A-097)', async (_label, overrides, loc, msg) => {
      const response = await reset({ ...resetBody('cardano/someone', 'token'), ...overrides });
      expect(response.statusCode).toBe(422);
      expect(response.json().detail).toContainEqual(expect.objectContaining({ loc, msg }));
    });
  });

  describe('POST users/password/update', () => {
    const change = (oldPassword: string, password = NEW_PASSWORD) => ({
      old_password: oldPassword,
      password,
      password_confirmation: password,
    });

    const me = (accessToken: string) =>
      ctx.app.inject({ method: 'GET', url: `${API}/users/me/`, headers: { authorization: `Bearer ${accessToken}` } });
    const otherLogin = async (user: TestUser) => {
      const response = await ctx.login(user.catalystId, user.password);
      return {
        token: response.json().access_token as string,
        refreshToken: response.cookies.find((c) => c.name === REFRESH_COOKIE)!.value,
      };
    };

    it('changes the password, keeps the current session and ends the other ones (A-100)', async () => {
      const user = await ctx.newUser({ forceReset: true });
      const other = await otherLogin(user);
      const response = await update(user, change(user.password), user.refreshToken);
      expect(response.statusCode).toBe(200);
      expect((await ctx.refresh(user.refreshToken)).statusCode).toBe(200);
      expect((await ctx.refresh(other.refreshToken)).statusCode).toBe(401);
      expect((await me(other.token)).statusCode).toBe(401);
      expect((await ctx.login(user.catalystId, NEW_PASSWORD)).statusCode).toBe(200);
      expect((await ctx.accountOf(user.id)).forceReset).toBe(false);
    });

    it('answers a new access token of the same session, as the reference API does (issue 17)', async () => {
      const user = await ctx.newUser({ forceReset: true });
      const response = await update(user, change(user.password), user.refreshToken);
      expect(response.statusCode).toBe(200);
      const answer = response.json();
      expect(answer).toEqual({ access_token: expect.any(String), token_type: 'bearer' });
      expect(decodeJwt(answer.access_token)).toMatchObject({ sub: String(user.id), sid: decodeJwt(user.token).sid });
      const mine = await me(answer.access_token);
      expect(mine.statusCode).toBe(200);
      expect(mine.json().extra.force_reset).toBe(false);
      // The token the change was made with stays valid too: it belongs to the same session.
      expect((await me(user.token)).statusCode).toBe(200);
    });

    it('keeps the session of the access token when the request carries no refresh cookie (a reference client)', async () => {
      const user = await ctx.newUser();
      const other = await otherLogin(user);
      const response = await update(user, change(user.password));
      expect(response.statusCode).toBe(200);
      expect((await me(response.json().access_token)).statusCode).toBe(200);
      expect((await ctx.refresh(user.refreshToken)).statusCode).toBe(200);
      expect((await ctx.refresh(other.refreshToken)).statusCode).toBe(401);
    });

    it('answers 400 for a wrong old password and keeps the password', async () => {
      const user = await ctx.newUser();
      const response = await update(user, change('Wrong-old-1'), user.refreshToken);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: 'The old password is not correct.' });
      expect((await ctx.login(user.catalystId, user.password)).statusCode).toBe(200);
      expect((await ctx.refresh(user.refreshToken)).statusCode).toBe(200);
    });

    it.each([
      [
        'a short old password',
        { old_password: 'abcdef' },
        ['body', 'update_user', 'old_password'],
        'Password must be 7 to 100 characters long.',
      ],
      ['an empty old password', { old_password: '' }, ['body', 'update_user', 'old_password'], 'Old password is required.'],
      [
        'a short new password',
        { password: 'Ab1', password_confirmation: 'Ab1' },
        ['body', 'update_user', 'password'],
        'Password must be at least 8 characters long.',
      ],
      [
        'a new password without an uppercase letter',
        { password: 'lower-case1', password_confirmation: 'lower-case1' },
        ['body', 'update_user', 'password'],
        'Password must contain an uppercase letter.',
      ],
      [
        'a long confirmation',
        { password_confirmation: `A1${'a'.repeat(99)}` },
        ['body', 'update_user', 'password_confirmation'],
        'Password must be 7 to 100 characters long.',
      ],
      [
        'a different confirmation',
        { password_confirmation: 'Other-pass1' },
        ['body', 'update_user', 'password_confirmation'],
        'Passwords do not match.',
      ],
    ])('answers 422 for %s (A-095..A-098)', async (_label, overrides, loc, msg) => {
      const user = await ctx.newUser();
      const response = await update(user, { ...change(user.password), ...overrides });
      expect(response.statusCode).toBe(422);
      expect(response.json().detail).toContainEqual(expect.objectContaining({ loc, msg }));
      expect((await ctx.login(user.catalystId, user.password)).statusCode).toBe(200);
    });
  });
});
