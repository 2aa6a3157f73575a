import { describe, expect, it, vi } from 'vitest';
import { testConfig } from '../src/config';
import { createDeviceCookies, DEVICE_COOKIE } from '../src/modules/accounts/device-cookies';
import { API, databaseKinds, productionHashing, useTestApp, type TestContext } from './build-test-app';
import { uniqueName } from './fixtures';

/**
 * Issue 45 item 15: a guessing flood from one address must not lock out that address's real users. A device that has
 * logged in before carries a device cookie (OWASP's "device cookies") and keeps logging in while its address is
 * throttled; a new device, a forged, expired or another name's cookie gets no exemption; a device cookie is locked
 * out after its own N failures.
 */

type Response = Awaited<ReturnType<TestContext['app']['inject']>>;

const loginWith = (ctx: TestContext, catalystId: string, password: string, remoteAddress: string, device?: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `${API}/users/token/login`,
    payload: new URLSearchParams({ username: catalystId, password }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    cookies: device ? { [DEVICE_COOKIE]: device } : {},
    remoteAddress,
  });

/** The device cookie a login answered. */
function deviceCookieOf(response: Response): { value: string; path?: string; httpOnly?: boolean; sameSite?: string } {
  const cookie = response.cookies.find((item) => item.name === DEVICE_COOKIE);
  if (!cookie) throw new Error(`no device cookie in ${response.statusCode} ${response.body}`);
  return cookie as { value: string; path?: string; httpOnly?: boolean; sameSite?: string };
}

/** Wrong guesses for unknown accounts from one address, until it is locked out (the flood). */
async function flood(ctx: TestContext, address: string, guesses: number) {
  const statuses: number[] = [];
  for (let guess = 0; guess < guesses; guess += 1) {
    statuses.push((await loginWith(ctx, `cardano/${uniqueName('guess')}`, 'Wrong-pass1', address)).statusCode);
  }
  return statuses;
}

const secret = testConfig().JWT_SECRET!;

describe.each(databaseKinds)('device cookies on %s (issue 45 item 15)', (kind) => {
  const ctx = useTestApp(kind, { LOGIN_LIMIT_PER_ADDRESS: '5', LOGIN_LIMIT_PER_DEVICE: '3' });

  it('a successful login sets an httpOnly device cookie for the login route alone', async () => {
    const user = await ctx.register();
    const response = await loginWith(ctx, user.catalystId, user.password, '10.45.0.1');
    expect(response.statusCode).toBe(200);
    const cookie = deviceCookieOf(response);
    expect(cookie).toMatchObject({ path: `${API}/users/token/login`, httpOnly: true, sameSite: 'Strict' });
    // It names the login, not the password or anything secret, and is signed.
    expect(createDeviceCookies(secret, 1).read(cookie.value)?.login).toBe(user.catalystId.replace('id.catalyst://', ''));
  });

  it('lets a device that logged in before log in while a guessing flood has its address locked out; a new device waits', async () => {
    const user = await ctx.register();
    const address = '10.45.1.1';
    const device = deviceCookieOf(await loginWith(ctx, user.catalystId, user.password, address)).value;
    expect(await flood(ctx, address, 8)).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    // A new device (no cookie), even with the right password: throttled.
    expect((await loginWith(ctx, user.catalystId, user.password, address)).statusCode).toBe(429);
    // The device that logged in before: in, again and again, each time with a new cookie that works too.
    let cookie = device;
    for (let login = 0; login < 4; login += 1) {
      const response = await loginWith(ctx, user.catalystId, user.password, address, cookie);
      expect(response.statusCode).toBe(200);
      cookie = deviceCookieOf(response).value;
    }
    expect((await loginWith(ctx, user.catalystId, user.password, address, device)).statusCode).toBe(200);
  });

  it('keeps the exemption while guesses lock the account out for that address (the pair and the back-off)', async () => {
    const user = await ctx.register();
    const address = '10.45.2.1';
    const device = deviceCookieOf(await loginWith(ctx, user.catalystId, user.password, address)).value;
    for (let guess = 0; guess < 5; guess += 1) await loginWith(ctx, user.catalystId, 'Wrong-pass1', address);
    expect((await loginWith(ctx, user.catalystId, user.password, address)).statusCode).toBe(429);
    expect((await loginWith(ctx, user.catalystId, user.password, address, device)).statusCode).toBe(200);
  });

  it('gives no exemption for a forged, an expired, an unsigned or another login name’s cookie', async () => {
    const user = await ctx.register();
    const other = await ctx.register();
    const address = '10.45.3.1';
    const login = user.catalystId.replace('id.catalyst://', '');
    const own = deviceCookieOf(await loginWith(ctx, user.catalystId, user.password, address)).value;
    const othersCookie = deviceCookieOf(await loginWith(ctx, other.catalystId, other.password, '10.45.3.2')).value;
    await flood(ctx, address, 6);
    const [payload, signature] = own.split('.') as [string, string];
    const flipped = `${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    const cookies = {
      forged: `${payload}.${flipped}`,
      otherKey: createDeviceCookies('another-secret-another-secret-another!', 30).issue(login),
      expired: createDeviceCookies(secret, 30).issue(login, Date.now() - 31 * 24 * 60 * 60 * 1000),
      unsigned: payload,
      otherName: othersCookie,
      garbage: 'x'.repeat(40),
    };
    for (const [name, cookie] of Object.entries(cookies)) {
      const response = await loginWith(ctx, user.catalystId, user.password, address, cookie);
      expect({ name, status: response.statusCode }).toEqual({ name, status: 429 });
    }
    // The real one still works: the refusals above were for the cookies alone.
    expect((await loginWith(ctx, user.catalystId, user.password, address, own)).statusCode).toBe(200);
  });

  it('locks a device cookie out after 3 failures with it, and only that cookie', async () => {
    const user = await ctx.register();
    const address = '10.45.4.1';
    const device = deviceCookieOf(await loginWith(ctx, user.catalystId, user.password, address)).value;
    const second = deviceCookieOf(await loginWith(ctx, user.catalystId, user.password, '10.45.4.2')).value;
    for (let guess = 0; guess < 3; guess += 1) {
      expect((await loginWith(ctx, user.catalystId, 'Wrong-pass1', address, device)).statusCode).toBe(401);
    }
    const locked = await loginWith(ctx, user.catalystId, user.password, address, device);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    // The account's other device, and the address without a cookie, are not locked by that cookie's failures.
    expect((await loginWith(ctx, user.catalystId, user.password, '10.45.4.2', second)).statusCode).toBe(200);
    expect((await loginWith(ctx, user.catalystId, user.password, address)).statusCode).toBe(200);
  });

  it('refuses a locked-out address before reading the request (cheap refusals)', async () => {
    const address = '10.45.5.1';
    await flood(ctx, address, 6);
    // No body at all: refused with 429 before validation would have answered 422.
    const response = await ctx.app.inject({
      method: 'POST',
      url: `${API}/users/token/login`,
      payload: 'username=',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      remoteAddress: address,
    });
    expect(response.statusCode).toBe(429);
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    // Another address is not affected.
    expect(
      (
        await ctx.app.inject({
          method: 'POST',
          url: `${API}/users/token/login`,
          payload: 'username=',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          remoteAddress: '10.45.5.2',
        })
      ).statusCode,
    ).toBe(422);
  });
});

describe.each(databaseKinds)('device cookies and the hashing queue on %s (issue 45 item 15)', (kind) => {
  // Hashes at their real cost, one at a time, two per address: the flood holds its address's share of the queue.
  const ctx = useTestApp(kind, { PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_PER_ADDRESS: '2', ...productionHashing });

  it('a device that logged in before gets a hash while guesses hold its address’s share; the 503s carry Retry-After', async () => {
    const user = await ctx.register();
    const address = '10.45.6.1';
    const device = deviceCookieOf(await loginWith(ctx, user.catalystId, user.password, address)).value;
    const gate = ctx.app.services.passwords.gate;
    // The one hashing thread held by a task of the test's own until the checks below are done: the guesses then wait
    // in the queue, two of them holding their address's share, whatever the machine's speed (no race with a hash
    // that finishes early).
    let releaseThread = () => {};
    const held = gate.run(() => new Promise<void>((resolve) => (releaseThread = resolve)));
    const guesses = Array.from({ length: 6 }, () => loginWith(ctx, user.catalystId, 'Wrong-pass1', address));
    await vi.waitFor(() => expect(gate.queued).toBe(2), { timeout: 30_000, interval: 5 });
    // A new device of that address: its share is taken, 503 with Retry-After.
    const newDevice = await loginWith(ctx, user.catalystId, user.password, address);
    expect(newDevice.statusCode).toBe(503);
    expect(Number(newDevice.headers['retry-after'])).toBeGreaterThan(0);
    // Refused before anything else is done: before its body is even read (no 422 for an empty form).
    const unread = await ctx.app.inject({
      method: 'POST',
      url: `${API}/users/token/login`,
      payload: 'username=',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      remoteAddress: address,
    });
    expect(unread.statusCode).toBe(503);
    expect(Number(unread.headers['retry-after'])).toBeGreaterThan(0);
    // The device that logged in before counts under its own cookie, not its address: it gets a place in the queue.
    const trusted = loginWith(ctx, user.catalystId, user.password, address, device);
    await vi.waitFor(() => expect(gate.queued).toBe(3), { timeout: 30_000, interval: 5 });
    releaseThread();
    await held;
    expect((await trusted).statusCode).toBe(200);
    const answers = await Promise.all(guesses);
    const busy = answers.filter((response) => response.statusCode === 503);
    expect(busy.length).toBeGreaterThan(0);
    for (const response of busy) expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe.each(databaseKinds)('the cookies of one account in the hashing queue on %s (issue 45 item 15)', (kind) => {
  const ctx = useTestApp(kind, { PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_PER_ADDRESS: '2' });

  it('share one per-source cap: collecting cookies (each login answers a new one) cannot fill the queue', async () => {
    const user = await ctx.register();
    const cookies: string[] = [];
    for (let i = 0; i < 3; i += 1) cookies.push(deviceCookieOf(await loginWith(ctx, user.catalystId, user.password, `10.45.8.${i}`)).value);
    expect(new Set(cookies).size).toBe(3);
    const gate = ctx.app.services.passwords.gate;
    let releaseThread = () => {};
    const held = gate.run(() => new Promise<void>((resolve) => (releaseThread = resolve)));
    // Each from another address, each with its own cookie: two of them wait, the third finds the account's share taken.
    const first = cookies.slice(0, 2).map((cookie, i) => loginWith(ctx, user.catalystId, user.password, `10.45.9.${i}`, cookie));
    await vi.waitFor(() => expect(gate.queued).toBe(2), { timeout: 30_000, interval: 5 });
    const third = await loginWith(ctx, user.catalystId, user.password, '10.45.9.9', cookies[2]);
    expect(third.statusCode).toBe(503);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    releaseThread();
    await held;
    expect((await Promise.all(first)).map((response) => response.statusCode)).toEqual([200, 200]);
  });
});

describe.each(databaseKinds)('refusals of a flooding address are answered after a pause on %s (issue 45 item 15)', (kind) => {
  const ctx = useTestApp(kind, { LOGIN_LIMIT_PER_ADDRESS: '3', LOGIN_REFUSAL_PAUSE_MS: '400' });

  it('holds an unread refusal for the pause (a closed-loop flood asks once a pause), never a device that logged in before', async () => {
    const user = await ctx.register();
    const address = '10.45.7.1';
    const device = deviceCookieOf(await loginWith(ctx, user.catalystId, user.password, address)).value;
    await flood(ctx, address, 4);
    const started = performance.now();
    expect((await loginWith(ctx, user.catalystId, user.password, address)).statusCode).toBe(429);
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
    // A cookie this server signed for another name passes the early refusal, and is refused in the login itself:
    // after the same pause (no way around it with one's own account's cookie).
    const other = await ctx.register();
    const othersCookie = deviceCookieOf(await loginWith(ctx, other.catalystId, other.password, '10.45.7.2')).value;
    const before = performance.now();
    expect((await loginWith(ctx, user.catalystId, user.password, address, othersCookie)).statusCode).toBe(429);
    expect(performance.now() - before).toBeGreaterThanOrEqual(390);
    // The device that logged in before is answered without a pause (its login is no refusal to begin with).
    const trusted = await loginWith(ctx, user.catalystId, user.password, address, device);
    expect(trusted.statusCode).toBe(200);
  });
});
