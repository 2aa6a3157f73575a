import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, loggerOptions, productionLogger } from '../src/app';
import { testConfig } from '../src/config';
import type { Database } from '../src/db/client';
import { migratedPglite } from './template-databases';
import { API } from './build-test-app';
import { createFixtures, REFRESH_COOKIE, refreshCookieOf, type Fixtures } from './fixtures';
import { DEVICE_COOKIE } from '../src/modules/accounts/device-cookies';

describe('request logs', () => {
  const lines: string[] = [];
  let app: FastifyInstance;
  let database: Database;
  let fixtures: Fixtures;

  beforeAll(async () => {
    database = await migratedPglite();
    const config = testConfig({ PUBLIC_URL: 'http://app.test' });
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    app = await buildApp({ config, db: database.db, jwtSecret: config.JWT_SECRET!, logger: { ...loggerOptions('info'), stream } });
    await app.ready();
    fixtures = createFixtures(app, database.db);
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('log requests without passwords, access tokens, refresh cookies or query tokens', async () => {
    const user = await fixtures.newUser();
    const refreshed = await fixtures.refresh(user.refreshToken);
    const newRefreshToken = refreshCookieOf(refreshed)!;
    await app.inject({ method: 'GET', url: `${API}/users/me/`, headers: user.auth });
    await app.inject({ method: 'POST', url: `${API}/users/token/logout`, cookies: { [REFRESH_COOKIE]: newRefreshToken } });
    await app.inject({ method: 'GET', url: '/reset-password?token=secret-query-token&x=1' });
    // The device cookie (issue 45 item 15), as answered and as sent.
    const login = (device?: string) =>
      app.inject({
        method: 'POST',
        url: `${API}/users/token/login`,
        payload: new URLSearchParams({ username: user.catalystId, password: user.password }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        cookies: device ? { [DEVICE_COOKIE]: device } : {},
      });
    const device = (await login()).cookies.find((cookie) => cookie.name === DEVICE_COOKIE)!.value;
    expect((await login(device)).statusCode).toBe(200);

    const log = lines.join('');
    expect(log).toContain('/api/reviews/users/me/');
    expect(log).toContain('"url":"/reset-password?token=[redacted]&x=1"');
    for (const secret of [user.password, user.token, user.refreshToken, newRefreshToken, 'secret-query-token', device]) {
      expect(log).not.toContain(secret);
    }
  });
});

/** The production logger's batched lines (issue 30 item 6): written within the flush interval without a request more. */
describe('production request logs', () => {
  it('writes each request line within the flush interval, redacted as the synchronous logger does', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cr-log-')), 'server.log');
    const database = await migratedPglite();
    const config = testConfig({ PUBLIC_URL: 'http://app.test' });
    const app = await buildApp({ config, db: database.db, jwtSecret: config.JWT_SECRET!, logger: productionLogger('info', file) });
    try {
      await app.ready();
      await app.inject({ method: 'GET', url: '/reset-password?token=secret-query-token&x=1' });
      await app.inject({ method: 'GET', url: `${API}/events/current/` });
      // Two short lines are far below the batch size: only the timer writes them (waited for, not slept on).
      await expect
        .poll(() => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0), { timeout: 5_000 })
        .toBeGreaterThanOrEqual(2);
      const log = readFileSync(file, 'utf8');
      expect(log).toContain('"url":"/reset-password?token=[redacted]&x=1"');
      expect(log).toContain('request completed');
      expect(log).not.toContain('secret-query-token');
    } finally {
      await app.close();
      await database.close();
    }
  });
});
