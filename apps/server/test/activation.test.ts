import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { AccountStatus } from '@cr/contract/users';
import { oneTimeTokens } from '../src/db/schema/index';
import { API, databaseKinds, useTestApp } from './build-test-app';
import { uniqueName } from './fixtures';

describe.each(databaseKinds)('activation and e-mail verification on %s', (kind) => {
  const ctx = useTestApp(kind);
  const activate = (token: string) =>
    ctx.app.inject({ method: 'POST', url: `${API}/users/activate`, payload: { user_activation: { confirmation_token: token } } });
  const verifyEmail = (token: string) =>
    ctx.app.inject({
      method: 'POST',
      url: `${API}/catalyst-ids/verify-email`,
      payload: { email_verification: { confirmation_token: token } },
    });
  const changeEmail = (authorization: string, payload: Record<string, unknown>) =>
    ctx.app.inject({ method: 'POST', url: `${API}/catalyst-ids/me`, headers: { authorization }, payload });
  const registered = async () => {
    const user = await ctx.register();
    const { id } = await ctx.userIdOf(user.email);
    return { ...user, id, token: await ctx.tokenFromMail(user.email) };
  };
  const unusedTokens = (userId: number, purpose: 'activation' | 'email_verification') =>
    ctx.db
      .select()
      .from(oneTimeTokens)
      .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt)));

  describe('POST users/activate', () => {
    it('activates the account from the e-mailed token: status 2 and e-mail verified (A-078, A-048)', async () => {
      const user = await registered();
      const response = await activate(user.token);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toBe(true);
      const account = await ctx.accountOf(user.id);
      expect(account.status).toBe(AccountStatus.active);
      expect(account.emailVerifiedAt).not.toBeNull();
    });

    it('answers 400 with a message for a used token (A-081)', async () => {
      const user = await registered();
      expect((await activate(user.token)).statusCode).toBe(200);
      const again = await activate(user.token);
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ message: 'Your activation link has expired. Please register again.' });
    });

    it('answers 400 for an expired token and leaves the account inactive (A-081)', async () => {
      const user = await registered();
      await ctx.expireTokensOf(user.id, 'activation');
      const response = await activate(user.token);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ message: 'Your activation link has expired. Please register again.' });
      expect((await ctx.accountOf(user.id)).status).toBe(AccountStatus.inactive);
    });

    it('answers 400 for an unknown token', async () => {
      expect((await activate('no-such-token')).statusCode).toBe(400);
    });

    it('does not activate a banned account, and keeps its token unused', async () => {
      const user = await registered();
      await ctx.setStatus(user.id, AccountStatus.banned);
      expect((await activate(user.token)).statusCode).toBe(400);
      expect((await ctx.accountOf(user.id)).status).toBe(AccountStatus.banned);
      expect(await unusedTokens(user.id, 'activation')).toHaveLength(1);
    });

    it('does not accept an e-mail verification token as an activation token', async () => {
      const user = await ctx.newUser({ status: AccountStatus.inactive });
      const email = `${uniqueName('new')}@example.test`;
      await changeEmail(user.auth.authorization, { email });
      expect((await activate(await ctx.tokenFromMail(email))).statusCode).toBe(400);
      expect((await ctx.accountOf(user.id)).status).toBe(AccountStatus.inactive);
      expect(await unusedTokens(user.id, 'email_verification')).toHaveLength(1);
    });

    it.each([
      ['an empty token', { user_activation: { confirmation_token: '' } }, ['body', 'user_activation', 'confirmation_token']],
      ['no token', { user_activation: {} }, ['body', 'user_activation', 'confirmation_token']],
      ['no wrapper', { confirmation_token: 'abc' }, ['body', 'user_activation']],
    ])('answers 422 for %s', async (_label, payload, loc) => {
      const response = await ctx.app.inject({ method: 'POST', url: `${API}/users/activate`, payload });
      expect(response.statusCode).toBe(422);
      expect(response.json().detail[0].loc).toEqual(loc);
    });
  });

  describe('catalyst-ids/me', () => {
    it('reads the Catalyst ID record of the logged-in user', async () => {
      const user = await ctx.newUser();
      const response = await ctx.app.inject({ method: 'GET', url: `${API}/catalyst-ids/me`, headers: user.auth });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        id: user.catalystId.replace('id.catalyst://', ''),
        email: user.email,
        email_verified: false,
        username: null,
        status: AccountStatus.active,
        rbac_reg_status: 3,
      });
    });

    it('sends a verification link to the new address and keeps the old one until it is opened', async () => {
      const user = await ctx.newUser();
      const email = `${uniqueName('changed')}@example.test`;
      const response = await changeEmail(user.auth.authorization, { email, redirect: '/profile?tab=1' });
      expect(response.statusCode).toBe(200);
      expect(response.json().email).toBe(user.email);
      const mail = await ctx.lastMail(email);
      expect(mail?.kind).toBe('email_verification');
      const link = new URL(mail!.link!);
      expect(link.origin + link.pathname).toBe('http://app.test/account/email-verification');
      expect(link.searchParams.get('redirect')).toBe('/profile?tab=1');
    });

    it('answers 409 for an address another account uses, and sends nothing', async () => {
      const user = await ctx.newUser();
      const other = await ctx.newUser();
      const response = await changeEmail(user.auth.authorization, { email: other.email.toUpperCase() });
      expect(response.statusCode).toBe(409);
      expect(await unusedTokens(user.id, 'email_verification')).toHaveLength(0);
    });

    it.each([
      ['an invalid address', { email: 'nope' }, ['body', 'email'], 'Please enter a valid email address.'],
      ['a missing address', {}, ['body', 'email'], 'Email is required.'],
      [
        'a redirect to another site',
        { email: 'a@example.test', redirect: '//evil.example/x' },
        ['body', 'redirect'],
        'Please enter a valid URL.',
      ],
    ])('answers 422 for %s', async (_label, payload, loc, msg) => {
      const user = await ctx.newUser();
      const response = await changeEmail(user.auth.authorization, payload);
      expect(response.statusCode).toBe(422);
      expect(response.json().detail).toContainEqual(expect.objectContaining({ loc, msg }));
    });
  });

  describe('POST catalyst-ids/verify-email', () => {
    it('marks the e-mail verified and an inactive account email_verified (A-089, A-048)', async () => {
      const user = await registered();
      const email = `${uniqueName('verify')}@example.test`;
      const login = await ctx.login(user.catalystId, user.password);
      await changeEmail(`Bearer ${login.json().access_token}`, { email });
      const response = await verifyEmail(await ctx.tokenFromMail(email));
      expect(response.statusCode).toBe(200);
      expect(response.json()).toBe(true);
      const account = await ctx.accountOf(user.id);
      expect(account.status).toBe(AccountStatus.email_verified);
      expect(account.email).toBe(email);
      expect(account.emailVerifiedAt).not.toBeNull();
      // Activation afterwards still makes the account active.
      expect((await activate(user.token)).statusCode).toBe(200);
      expect((await ctx.accountOf(user.id)).status).toBe(AccountStatus.active);
    });

    it('applies the pending e-mail and keeps an active account active', async () => {
      const user = await ctx.newUser();
      const email = `${uniqueName('active')}@example.test`;
      await changeEmail(user.auth.authorization, { email });
      expect((await verifyEmail(await ctx.tokenFromMail(email))).statusCode).toBe(200);
      const info = await ctx.app.inject({ method: 'GET', url: `${API}/users/me/`, headers: user.auth });
      expect(info.json()).toMatchObject({ email, catalyst_id: { email, email_verified: true, status: AccountStatus.active } });
    });

    it('answers 400 for a used token', async () => {
      const user = await ctx.newUser();
      const email = `${uniqueName('used')}@example.test`;
      await changeEmail(user.auth.authorization, { email });
      const token = await ctx.tokenFromMail(email);
      expect((await verifyEmail(token)).statusCode).toBe(200);
      const again = await verifyEmail(token);
      expect(again.statusCode).toBe(400);
      expect(again.json()).toEqual({ message: 'This e-mail verification link has expired or was already used.' });
    });

    it('answers 400 for an expired token and leaves the address unchanged', async () => {
      const user = await ctx.newUser();
      const email = `${uniqueName('expired')}@example.test`;
      await changeEmail(user.auth.authorization, { email });
      await ctx.expireTokensOf(user.id, 'email_verification');
      expect((await verifyEmail(await ctx.tokenFromMail(email))).statusCode).toBe(400);
      expect((await ctx.accountOf(user.id)).email).toBe(user.email);
    });

    it('answers 409 when the address was taken meanwhile, changing nothing and keeping the token unused', async () => {
      const user = await ctx.newUser();
      const email = `${uniqueName('race')}@example.test`;
      await changeEmail(user.auth.authorization, { email });
      const token = await ctx.tokenFromMail(email);
      await ctx.register({ email });
      const response = await verifyEmail(token);
      expect(response.statusCode).toBe(409);
      expect((await ctx.accountOf(user.id)).email).toBe(user.email);
      expect(await unusedTokens(user.id, 'email_verification')).toHaveLength(1);
    });

    it('makes an earlier verification link stop working when a new one is sent', async () => {
      const user = await ctx.newUser();
      const first = `${uniqueName('first')}@example.test`;
      await changeEmail(user.auth.authorization, { email: first });
      const firstToken = await ctx.tokenFromMail(first);
      await changeEmail(user.auth.authorization, { email: `${uniqueName('second')}@example.test` });
      expect((await verifyEmail(firstToken)).statusCode).toBe(400);
    });

    it('answers 422 for an empty token', async () => {
      const response = await verifyEmail('');
      expect(response.statusCode).toBe(422);
      expect(response.json().detail[0].loc).toEqual(['body', 'email_verification', 'confirmation_token']);
    });
  });
});
