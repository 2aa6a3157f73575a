import { and, eq, isNotNull } from 'drizzle-orm';
import { decodeJwt, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { AccountStatus } from '@cr/contract/users';
import { testConfig } from '../src/config';
import { refreshTokens } from '../src/db/schema/index';
import { API, databaseKinds, useTestApp } from './build-test-app';
import { REFRESH_COOKIE, refreshCookieOf } from './fixtures';

describe.each(databaseKinds)('login, refresh and logout on %s', (kind) => {
  const ctx = useTestApp(kind);
  const me = (authorization: string) => ctx.app.inject({ method: 'GET', url: `${API}/users/me/`, headers: { authorization } });
  const logout = (refreshToken?: string) =>
    ctx.app.inject({ method: 'POST', url: `${API}/users/token/logout`, cookies: refreshToken ? { [REFRESH_COOKIE]: refreshToken } : {} });

  describe('POST users/token/login', () => {
    it('logs in form-encoded and answers an access token with an httpOnly refresh cookie (A-054)', async () => {
      const user = await ctx.register();
      await ctx.setStatus((await ctx.userIdOf(user.email)).id, AccountStatus.active);
      const response = await ctx.login(user.catalystId, user.password);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ access_token: expect.any(String), token_type: 'bearer' });
      const cookie = response.cookies.find((c) => c.name === REFRESH_COOKIE);
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/reviews/users' });
      expect(cookie?.value).toMatch(/^[\w-]{40,}$/);
      expect((await me(`Bearer ${response.json().access_token}`)).statusCode).toBe(200);
    });

    it('accepts the Catalyst ID without its prefix and with #encrypt (A-053)', async () => {
      const user = await ctx.register();
      const bare = user.catalystId.replace('id.catalyst://', '');
      expect((await ctx.login(bare, user.password)).statusCode).toBe(200);
      expect((await ctx.login(`${user.catalystId}#encrypt`, user.password)).statusCode).toBe(200);
    });

    it('answers 401 for a wrong password and sets no cookie', async () => {
      const user = await ctx.register();
      const response = await ctx.login(user.catalystId, 'Wrong-pass1');
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: 'Incorrect Catalyst ID or password.' });
      expect(refreshCookieOf(response)).toBeUndefined();
    });

    it('answers an unknown Catalyst ID exactly like a wrong password', async () => {
      const response = await ctx.login('id.catalyst://cardano/nobody-here', 'Wrong-pass1');
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: 'Incorrect Catalyst ID or password.' });
    });

    it('lets an inactive account log in (A-046 needs it)', async () => {
      const user = await ctx.register();
      const response = await ctx.login(user.catalystId, user.password);
      expect(response.statusCode).toBe(200);
      const info = await me(`Bearer ${response.json().access_token}`);
      expect(info.json().catalyst_id.status).toBe(AccountStatus.inactive);
    });

    it('refuses a banned account with 403, and its existing access token with 401', async () => {
      const user = await ctx.newUser();
      await ctx.setStatus(user.id, AccountStatus.banned);
      const response = await ctx.login(user.catalystId, user.password);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: 'This account is banned.' });
      expect(refreshCookieOf(response)).toBeUndefined();
      const info = await me(user.auth.authorization);
      expect(info.statusCode).toBe(401);
      expect(info.json().message).toEqual(expect.any(String));
    });

    it('answers 401, not 403, for a banned account with a wrong password', async () => {
      const user = await ctx.newUser();
      await ctx.setStatus(user.id, AccountStatus.banned);
      expect((await ctx.login(user.catalystId, 'Wrong-pass1')).statusCode).toBe(401);
    });

    it.each([
      ['no username', 'password=x', ['body', 'username'], 'Username is required.'],
      ['no password', 'username=cardano%2Fabc', ['body', 'password'], 'Password is required.'],
      ['an empty password', 'username=cardano%2Fabc&password=', ['body', 'password'], 'Password is required.'],
      [
        'a username that is not a Catalyst ID',
        'username=cardano&password=x',
        ['body', 'username'],
        'Please enter a valid Catalyst ID (for example id.catalyst://cardano/…).',
      ],
    ])('answers 422 for %s (A-053)', async (_label, payload, loc, msg) => {
      const response = await ctx.app.inject({
        method: 'POST',
        url: `${API}/users/token/login`,
        payload,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(response.statusCode).toBe(422);
      expect(response.json().detail).toContainEqual(expect.objectContaining({ loc, msg }));
    });
  });

  describe('GET users/token/refresh', () => {
    it('rotates: a new access token and a new cookie each time, and the old cookie is refused (A-109)', async () => {
      const user = await ctx.newUser();
      const first = await ctx.refresh(user.refreshToken);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ access_token: expect.any(String), token_type: 'bearer' });
      const second = refreshCookieOf(first);
      expect(second).toBeDefined();
      expect(second).not.toBe(user.refreshToken);
      expect((await me(`Bearer ${first.json().access_token}`)).statusCode).toBe(200);

      const third = await ctx.refresh(second);
      expect(third.statusCode).toBe(200);
      expect(refreshCookieOf(third)).not.toBe(second);

      const old = await ctx.refresh(user.refreshToken);
      expect(old.statusCode).toBe(401);
      expect(old.json()).toEqual({ message: 'Your session has ended. Please log in again.' });
    });

    const afterGrace = (userId: number) =>
      ctx.db
        .update(refreshTokens)
        .set({ rotatedAt: new Date(Date.now() - 31_000) })
        .where(and(eq(refreshTokens.userId, userId), isNotNull(refreshTokens.rotatedAt)));

    it('revokes the whole family when a rotated token is replayed after the grace window (reuse detection)', async () => {
      const user = await ctx.newUser();
      const rotated = await ctx.refresh(user.refreshToken);
      const newest = refreshCookieOf(rotated)!;
      await afterGrace(user.id);
      expect((await ctx.refresh(user.refreshToken)).statusCode).toBe(401);
      expect((await ctx.refresh(newest)).statusCode).toBe(401);
      const rows = await ctx.db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
      expect(rows.every((row) => row.revokedAt !== null)).toBe(true);
    });

    it('leaves the other logins of the same user alone when one family is revoked', async () => {
      const user = await ctx.newUser();
      const other = refreshCookieOf(await ctx.login(user.catalystId, user.password))!;
      await ctx.refresh(user.refreshToken);
      await afterGrace(user.id);
      expect((await ctx.refresh(user.refreshToken)).statusCode).toBe(401);
      expect((await ctx.refresh(other)).statusCode).toBe(200);
    });

    // Issue 13 item 6: two tabs (or two requests) refreshing with the same cookie must not end the session.
    it('answers two concurrent refreshes with one cookie with the same successor, and keeps the session', async () => {
      const user = await ctx.newUser();
      const [first, second] = await Promise.all([ctx.refresh(user.refreshToken), ctx.refresh(user.refreshToken)]);
      expect(first.statusCode).toBe(200);
      expect(second.statusCode).toBe(200);
      const successor = refreshCookieOf(first)!;
      expect(refreshCookieOf(second)).toBe(successor);
      expect((await me(`Bearer ${second.json().access_token}`)).statusCode).toBe(200);
      const next = await ctx.refresh(successor);
      expect(next.statusCode).toBe(200);
      const rows = await ctx.db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
      expect(rows.every((row) => row.revokedAt === null)).toBe(true);
    });

    it('treats a replay within the grace window as reuse once the successor has itself been rotated', async () => {
      const user = await ctx.newUser();
      const successor = refreshCookieOf(await ctx.refresh(user.refreshToken))!;
      const newest = refreshCookieOf(await ctx.refresh(successor))!;
      expect((await ctx.refresh(user.refreshToken)).statusCode).toBe(401);
      expect((await ctx.refresh(newest)).statusCode).toBe(401);
    });

    it('answers 401 without a cookie, and with an unknown one', async () => {
      expect((await ctx.refresh(undefined)).statusCode).toBe(401);
      const unknown = await ctx.refresh('not-a-real-token');
      expect(unknown.statusCode).toBe(401);
      const cleared = unknown.cookies.find((c) => c.name === REFRESH_COOKIE);
      expect(cleared?.value).toBe('');
    });

    it('refuses an expired refresh token', async () => {
      const user = await ctx.newUser();
      await ctx.db
        .update(refreshTokens)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(refreshTokens.userId, user.id));
      expect((await ctx.refresh(user.refreshToken)).statusCode).toBe(401);
    });

    it('refuses to refresh the session of an account banned after login', async () => {
      const user = await ctx.newUser();
      await ctx.setStatus(user.id, AccountStatus.banned);
      expect((await ctx.refresh(user.refreshToken)).statusCode).toBe(401);
    });
  });

  describe('POST users/token/logout', () => {
    it('revokes the family and clears the cookie (A-104)', async () => {
      const user = await ctx.newUser();
      const rotated = refreshCookieOf(await ctx.refresh(user.refreshToken))!;
      const response = await logout(rotated);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toBe(true);
      const cleared = response.cookies.find((c) => c.name === REFRESH_COOKIE);
      expect(cleared).toMatchObject({ value: '', path: '/api/reviews/users' });
      expect((await ctx.refresh(rotated)).statusCode).toBe(401);
    });

    it('answers true without a cookie too', async () => {
      const response = await logout();
      expect(response.statusCode).toBe(200);
      expect(response.json()).toBe(true);
    });
  });
});

describe.each(databaseKinds)('access token lifetime on %s', (kind) => {
  const ctx = useTestApp(kind);

  it('refuses an expired access token with 401, and a refresh gives a working one', async () => {
    const user = await ctx.newUser();
    const past = Math.floor(Date.now() / 1000) - 120;
    const expired = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(user.id))
      .setIssuedAt(past - 900)
      .setExpirationTime(past)
      .sign(new TextEncoder().encode(testConfig().JWT_SECRET!));
    const refused = await ctx.app.inject({ method: 'GET', url: `${API}/users/me/`, headers: { authorization: `Bearer ${expired}` } });
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual({ message: 'Your session has expired. Please log in again.' });
    const refreshed = await ctx.refresh(user.refreshToken);
    const info = await ctx.app.inject({
      method: 'GET',
      url: `${API}/users/me/`,
      headers: { authorization: `Bearer ${refreshed.json().access_token}` },
    });
    expect(info.statusCode).toBe(200);
  });

  // A stale token on a public read was answered as a visitor's: the web app kept that answer as the signed-in user's
  // (an admin's status list without its inactive messages, which the next save erased).
  it('refuses an expired or logged-out token on a public read too, and lets the session writes through with it', async () => {
    const admin = await ctx.newAdmin();
    const put = await ctx.app.inject({
      method: 'PUT',
      url: `${API}/configs/status/`,
      headers: { authorization: `Bearer ${admin.token}` },
      payload: {
        record_update: {
          messages: [
            { message: 'Shown', severity: 'info', is_active: true, action_text: null, action_url: null },
            { message: 'Kept for later', severity: 'info', is_active: false, action_text: null, action_url: null },
          ],
        },
      },
    });
    expect(put.statusCode).toBe(200);
    const status = (authorization?: string) =>
      ctx.app.inject({ method: 'GET', url: `${API}/configs/status/`, headers: authorization ? { authorization } : {} });
    const texts = (response: Awaited<ReturnType<typeof status>>) =>
      (response.json() as { value: { messages: { message: string }[] } }).value.messages.map((message) => message.message);
    expect(texts(await status(`Bearer ${admin.token}`))).toEqual(['Shown', 'Kept for later']);
    expect(texts(await status())).toEqual(['Shown']); // a visitor: the active ones

    const past = Math.floor(Date.now() / 1000) - 120;
    const expired = await new SignJWT({ sid: decodeJwt(admin.token).sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(admin.id))
      .setIssuedAt(past - 900)
      .setExpirationTime(past)
      .sign(new TextEncoder().encode(testConfig().JWT_SECRET!));
    for (const authorization of [`Bearer ${expired}`, 'Bearer not-a-token']) {
      const refused = await status(authorization);
      expect(refused.statusCode, authorization).toBe(401);
      expect(refused.json()).toEqual({ message: 'Your session has expired. Please log in again.' });
    }
    // The web app renews its session with the stale token still in its header: the refresh and the logout take it.
    const refreshed = await ctx.app.inject({
      method: 'GET',
      url: `${API}/users/token/refresh`,
      headers: { authorization: `Bearer ${expired}` },
      cookies: { [REFRESH_COOKIE]: admin.refreshToken },
    });
    expect(refreshed.statusCode).toBe(200);
    expect(texts(await status(`Bearer ${refreshed.json().access_token}`))).toEqual(['Shown', 'Kept for later']);
    const loggedOut = await ctx.app.inject({
      method: 'POST',
      url: `${API}/users/token/logout`,
      headers: { authorization: `Bearer ${refreshed.json().access_token}` },
      cookies: { [REFRESH_COOKIE]: refreshCookieOf(refreshed)! },
    });
    expect(loggedOut.statusCode).toBe(200);
    expect((await status(`Bearer ${refreshed.json().access_token}`)).statusCode).toBe(401); // its session is over
  });

  it('signs access tokens that expire after ACCESS_TOKEN_TTL_SECONDS (15 minutes by default)', async () => {
    const user = await ctx.newUser();
    const claims = decodeJwt(user.token);
    expect(claims.exp! - claims.iat!).toBe(15 * 60);
    expect(claims.sub).toBe(String(user.id));
  });
});

// Issue 13 item 10: exp, iat and an in-range sub are required, and a token names its session (sid) so that logging
// out or a revoked family ends it at once.
describe.each(databaseKinds)('access token claims and revocation on %s', (kind) => {
  const ctx = useTestApp(kind);
  const key = new TextEncoder().encode(testConfig().JWT_SECRET!);
  const me = (token: string) => ctx.app.inject({ method: 'GET', url: `${API}/users/me/`, headers: { authorization: `Bearer ${token}` } });
  const familyOf = async (userId: number) => {
    const [row] = await ctx.db.select({ familyId: refreshTokens.familyId }).from(refreshTokens).where(eq(refreshTokens.userId, userId));
    return row!.familyId;
  };
  const now = () => Math.floor(Date.now() / 1000);
  /** A token with every claim, signed with the server's key, for any subject and session. */
  const handMade = (userId: number, sessionId: string) =>
    new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(userId))
      .setIssuedAt(now())
      .setExpirationTime(now() + 600)
      .sign(key);

  it('carries the session family id as sid', async () => {
    const user = await ctx.newUser();
    expect(decodeJwt(user.token).sid).toBe(await familyOf(user.id));
  });

  it.each([
    ['no exp', { sub: 'self', iat: true, exp: false, sid: true }],
    ['no iat', { sub: 'self', iat: false, exp: true, sid: true }],
    ['no sid', { sub: 'self', iat: true, exp: true, sid: false }],
    ['a sub beyond the id range', { sub: '99999999999', iat: true, exp: true, sid: true }],
    ['a sub of 2147483648', { sub: '2147483648', iat: true, exp: true, sid: true }],
    ['a sub that is not a plain number', { sub: '1e1', iat: true, exp: true, sid: true }],
    ['a negative sub', { sub: '-1', iat: true, exp: true, sid: true }],
  ])('refuses a token with %s with 401', async (_name, claims) => {
    const user = await ctx.newUser();
    let jwt = new SignJWT(claims.sid ? { sid: await familyOf(user.id) } : {})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(claims.sub === 'self' ? String(user.id) : claims.sub);
    if (claims.iat) jwt = jwt.setIssuedAt(now());
    if (claims.exp) jwt = jwt.setExpirationTime(now() + 600);
    const response = await me(await jwt.sign(key));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'Your session has expired. Please log in again.' });
  });

  it('accepts a hand-made token with every claim (the refusals above are for the missing claim)', async () => {
    const user = await ctx.newUser();
    expect((await me(await handMade(user.id, await familyOf(user.id)))).statusCode).toBe(200);
  });

  // Issue 26 item 7: a session id is tied to its user.
  it("refuses a signed token whose sid is another user's live session, and still takes the owner's", async () => {
    const owner = await ctx.newUser();
    const other = await ctx.newUser();
    const response = await me(await handMade(other.id, await familyOf(owner.id)));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'Your session has expired. Please log in again.' });
    expect((await me(owner.token)).statusCode).toBe(200);
    expect((await me(other.token)).statusCode).toBe(200);
  });

  it('refuses the access token of a session that logged out', async () => {
    const user = await ctx.newUser();
    expect((await me(user.token)).statusCode).toBe(200);
    await ctx.app.inject({ method: 'POST', url: `${API}/users/token/logout`, cookies: { [REFRESH_COOKIE]: user.refreshToken } });
    expect((await me(user.token)).statusCode).toBe(401);
  });

  it('refuses the access tokens of a revoked family, and leaves the other logins alone', async () => {
    const user = await ctx.newUser();
    const family = await familyOf(user.id);
    const other = await ctx.login(user.catalystId, user.password);
    await ctx.db.update(refreshTokens).set({ revokedAt: new Date() }).where(eq(refreshTokens.familyId, family));
    expect((await me(user.token)).statusCode).toBe(401);
    expect((await me(other.json().access_token)).statusCode).toBe(200);
  });
});

describe.each(databaseKinds)('refresh without a grace window on %s', (kind) => {
  const ctx = useTestApp(kind, { REFRESH_GRACE_SECONDS: '0' });

  it('revokes the family at the first replay when REFRESH_GRACE_SECONDS is 0', async () => {
    const user = await ctx.newUser();
    const newest = refreshCookieOf(await ctx.refresh(user.refreshToken))!;
    expect((await ctx.refresh(user.refreshToken)).statusCode).toBe(401);
    expect((await ctx.refresh(newest)).statusCode).toBe(401);
  });
});

// Issue 26 item 8: login CSRF — a cookie-setting POST from another site's page is refused.
describe.each(databaseKinds)('cookie-setting requests from other sites on %s', (kind) => {
  const ctx = useTestApp(kind);
  const loginWith = (user: { catalystId: string; password: string }, headers: Record<string, string>) =>
    ctx.app.inject({
      method: 'POST',
      url: `${API}/users/token/login`,
      payload: new URLSearchParams({ username: user.catalystId, password: user.password }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', host: 'app.test', ...headers },
    });
  const refused = { message: 'This request must come from the Community Review site itself.' };

  it.each([
    ['another Origin', { origin: 'https://evil.example' }],
    ['an opaque Origin (a sandboxed frame)', { origin: 'null' }],
    ['Sec-Fetch-Site cross-site', { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' }],
    ['Sec-Fetch-Site same-site (a sibling subdomain)', { 'sec-fetch-site': 'same-site' }],
    ['an Origin on another port of the host', { origin: 'http://app.test:8080' }],
  ])('refuses a login with %s: 403, no cookie, no session', async (_name, headers) => {
    const user = await ctx.register();
    const response = await loginWith(user, headers);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual(refused);
    expect(response.cookies.find((cookie) => cookie.name === REFRESH_COOKIE)).toBeUndefined();
    const { id } = await ctx.userIdOf(user.email);
    expect(await ctx.db.select().from(refreshTokens).where(eq(refreshTokens.userId, id))).toEqual([]);
  });

  it.each([
    ['Sec-Fetch-Site same-origin', { 'sec-fetch-site': 'same-origin', origin: 'http://app.test' }],
    ['a typed address (Sec-Fetch-Site none)', { 'sec-fetch-site': 'none' }],
    ["PUBLIC_URL's origin", { origin: 'http://app.test' }],
    ['the origin the request was addressed to (a development proxy)', { origin: 'http://localhost:5173', host: 'localhost:5173' }],
    ['neither header (a script)', {}],
  ])('lets a login with %s in', async (_name, headers) => {
    const user = await ctx.register();
    const response = await loginWith(user, headers);
    expect(response.statusCode).toBe(200);
    expect(response.cookies.find((cookie) => cookie.name === REFRESH_COOKIE)?.value).toBeTruthy();
  });

  it('refuses a logout from another site and keeps the session on', async () => {
    const user = await ctx.newUser();
    const response = await ctx.app.inject({
      method: 'POST',
      url: `${API}/users/token/logout`,
      headers: { 'sec-fetch-site': 'cross-site' },
      cookies: { [REFRESH_COOKIE]: user.refreshToken },
    });
    expect(response.statusCode).toBe(403);
    expect((await ctx.refresh(user.refreshToken)).statusCode).toBe(200);
  });
});
