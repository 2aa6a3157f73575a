import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, loggerOptions } from '../src/app';
import { testConfig } from '../src/config';
import type { Database } from '../src/db/client';
import { migratedPglite } from './template-databases';
import { API } from './build-test-app';
import { createFixtures, REFRESH_COOKIE, refreshCookieOf, type Fixtures } from './fixtures';

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

    const log = lines.join('');
    expect(log).toContain('/api/reviews/users/me/');
    expect(log).toContain('"url":"/reset-password?token=[redacted]&x=1"');
    for (const secret of [user.password, user.token, user.refreshToken, newRefreshToken, 'secret-query-token']) {
      expect(log).not.toContain(secret);
    }
  });
});
