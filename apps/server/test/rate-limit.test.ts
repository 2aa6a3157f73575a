import { describe, expect, it } from 'vitest';
import { rateLimits } from '../src/db/schema/index';
import { API, databaseKinds, useTestApp } from './build-test-app';
import { uniqueName } from './fixtures';

const TOO_MANY = { message: 'Too many attempts. Please wait a few minutes and try again.' };

function expectTooMany(response: { statusCode: number; json(): unknown; headers: Record<string, unknown> }) {
  expect(response.statusCode).toBe(429);
  expect(response.json()).toEqual(TOO_MANY);
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(900);
}

const loginFrom = (ctx: ReturnType<typeof useTestApp>, catalystId: string, password: string, remoteAddress: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `${API}/users/token/login`,
    payload: new URLSearchParams({ username: catalystId, password }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    remoteAddress,
  });

const resetRequestFrom = (ctx: ReturnType<typeof useTestApp>, catalystId: string, remoteAddress: string) =>
  ctx.app.inject({
    method: 'POST',
    url: `${API}/users/password/reset-request`,
    payload: { new_user: { catalyst_id: catalystId } },
    remoteAddress,
  });

describe.each(databaseKinds)('login rate limit per account on %s', (kind) => {
  const ctx = useTestApp(kind, { LOGIN_LIMIT_PER_ACCOUNT: '3' });

  it('answers 429 with a message and Retry-After after 3 attempts on one account, from any address', async () => {
    const user = await ctx.register();
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expect((await loginFrom(ctx, user.catalystId, 'Wrong-pass1', `10.0.1.${attempt}`)).statusCode).toBe(401);
    }
    expectTooMany(await loginFrom(ctx, user.catalystId, user.password, '10.0.1.9'));
    // The spelling of the Catalyst ID does not open a new counter.
    expectTooMany(await loginFrom(ctx, user.catalystId.replace('id.catalyst://', ''), user.password, '10.0.1.10'));
  });

  it('leaves other accounts alone', async () => {
    const user = await ctx.register();
    expect((await loginFrom(ctx, user.catalystId, user.password, '10.0.1.20')).statusCode).toBe(200);
  });

  it('lets the account log in again once the window has passed', async () => {
    const user = await ctx.register();
    for (let attempt = 0; attempt < 3; attempt += 1) await loginFrom(ctx, user.catalystId, 'Wrong-pass1', '10.0.1.30');
    expectTooMany(await loginFrom(ctx, user.catalystId, user.password, '10.0.1.30'));
    await ctx.db.update(rateLimits).set({ windowStartedAt: new Date(Date.now() - 16 * 60 * 1000) });
    expect((await loginFrom(ctx, user.catalystId, user.password, '10.0.1.30')).statusCode).toBe(200);
  });
});

describe.each(databaseKinds)('login rate limit per address on %s', (kind) => {
  const ctx = useTestApp(kind, { LOGIN_LIMIT_PER_ADDRESS: '3' });

  it('answers 429 after 3 attempts from one address, whatever the account', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await loginFrom(ctx, `cardano/${uniqueName('guess')}`, 'Wrong-pass1', '10.0.2.1');
      expect(response.statusCode).toBe(401);
    }
    const user = await ctx.register();
    expectTooMany(await loginFrom(ctx, user.catalystId, user.password, '10.0.2.1'));
    expect((await loginFrom(ctx, user.catalystId, user.password, '10.0.2.2')).statusCode).toBe(200);
  });
});

describe.each(databaseKinds)('password reset request rate limits on %s', (kind) => {
  const ctx = useTestApp(kind, { RESET_LIMIT_PER_ACCOUNT: '2', RESET_LIMIT_PER_ADDRESS: '4' });

  it('answers 429 after 2 requests for one account', async () => {
    const user = await ctx.register();
    expect((await resetRequestFrom(ctx, user.catalystId, '10.0.3.1')).statusCode).toBe(201);
    expect((await resetRequestFrom(ctx, user.catalystId, '10.0.3.2')).statusCode).toBe(201);
    expectTooMany(await resetRequestFrom(ctx, user.catalystId, '10.0.3.3'));
  });

  it('limits an unknown Catalyst ID the same way, so the limit tells nothing about accounts', async () => {
    const unknown = `cardano/${uniqueName('nobody')}`;
    expect((await resetRequestFrom(ctx, unknown, '10.0.3.11')).statusCode).toBe(201);
    expect((await resetRequestFrom(ctx, unknown, '10.0.3.12')).statusCode).toBe(201);
    expectTooMany(await resetRequestFrom(ctx, unknown, '10.0.3.13'));
  });

  it('answers 429 after 4 requests from one address', async () => {
    for (let attempt = 0; attempt < 4; attempt += 1) {
      expect((await resetRequestFrom(ctx, `cardano/${uniqueName('any')}`, '10.0.3.20')).statusCode).toBe(201);
    }
    expectTooMany(await resetRequestFrom(ctx, `cardano/${uniqueName('any')}`, '10.0.3.20'));
  });
});
