import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';
import { API, useTestApp } from './build-test-app';

const TOKEN = 'outbox-token-for-this-test';

/** Issue 13 item 9: the outbox API hands out live reset links, so it is guarded and never on in production. */
describe('MAIL_OUTBOX_API configuration', () => {
  it('is refused when NODE_ENV=production or PUBLIC_URL is https', () => {
    expect(() => loadConfig({ MAIL_OUTBOX_API: 'true', NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ MAIL_OUTBOX_API: 'true', PUBLIC_URL: 'https://review.example.org' })).toThrow(/MAIL_OUTBOX_API:/);
    expect(loadConfig({ MAIL_OUTBOX_API: 'true', PUBLIC_URL: 'http://127.0.0.1:3000' }).MAIL_OUTBOX_API).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://review.example.org' }).MAIL_OUTBOX_API).toBe(false);
  });

  it('wants a token of at least 16 characters', () => {
    expect(() => loadConfig({ MAIL_OUTBOX_TOKEN: 'short' })).toThrow(/MAIL_OUTBOX_TOKEN:/);
  });
});

describe('GET dev/outbox', () => {
  const ctx = useTestApp('pglite', { MAIL_OUTBOX_API: 'true', MAIL_OUTBOX_TOKEN: TOKEN });
  const read = (email: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'GET', url: `${API}/dev/outbox?to=${encodeURIComponent(email)}`, headers });

  it('answers the token holder and admins only', async () => {
    const { email } = await ctx.register();
    expect((await read(email)).statusCode).toBe(401);
    expect((await read(email, { 'x-outbox-token': 'wrong-token-wrong-token' })).statusCode).toBe(401);
    const reviewer = await ctx.newUser();
    expect((await read(email, reviewer.auth)).statusCode).toBe(403);

    const withToken = await read(email, { 'x-outbox-token': TOKEN });
    expect(withToken.statusCode).toBe(200);
    expect(withToken.json()[0].kind).toBe('activation');
    const admin = await ctx.newAdmin();
    expect((await read(email, admin.auth)).json()).toEqual(withToken.json());
  });
});

describe('GET dev/outbox without MAIL_OUTBOX_API', () => {
  const ctx = useTestApp('pglite');
  it('does not exist', async () => {
    const admin = await ctx.newAdmin();
    const response = await ctx.app.inject({ method: 'GET', url: `${API}/dev/outbox?to=a@example.test`, headers: admin.auth });
    expect(response.statusCode).toBe(404);
  });
});
