import { drizzle } from 'drizzle-orm/node-postgres';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { testConfig } from '../src/config';
import type { Db } from '../src/db/client';
import { databaseUnavailable } from '../src/db/errors';
import * as schema from '../src/db/schema/index';
import { databaseUnavailableMessage } from '../src/errors';
import { sharedProbe } from '../src/modules/system/system.routes';
import { API, databaseKinds, useTestApp } from './build-test-app';

describe.each(databaseKinds)('system routes on %s', (kind) => {
  const ctx = useTestApp(kind);

  it('answers healthz when the server and its database are up', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: `${API}/healthz` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('answers readyz (readiness: the database answers) and livez (liveness) when all is up', async () => {
    const ready = await ctx.app.inject({ method: 'GET', url: `${API}/readyz` });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', database: 'ok' });
    const live = await ctx.app.inject({ method: 'GET', url: `${API}/livez` });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
  });

  it('accepts the path with a trailing slash too', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: `${API}/healthz/` });
    expect(response.statusCode).toBe(200);
  });

  it('publishes the OpenAPI description at /api/reviews/docs', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: `${API}/docs/json` });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain(`${API}/users/token/login`);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: `${API}/nothing-here` });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Not found.' });
  });

  it('sends security headers', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: `${API}/healthz` });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('serves /env.js with the runtime configuration of the web app (A-001, A-002)', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/env.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('"API_BASE":"/api/reviews"');
  });
});

// Issue 18: readiness for a load balancer, and a clear 503 (never a 500 with a stack) while the database is away.
describe('while the database is away', () => {
  let app: FastifyInstance;
  let pool: pg.Pool;
  beforeAll(async () => {
    // Nothing listens on port 1: every connection is refused, as while PostgreSQL restarts.
    pool = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/nothing', connectionTimeoutMillis: 2_000 });
    pool.on('error', () => {});
    const config = testConfig({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/nothing' });
    app = await buildApp({ config, db: drizzle(pool, { schema }) as unknown as Db, jwtSecret: config.JWT_SECRET!, logger: false });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await pool.end();
  });

  it('readyz and healthz answer 503 with a clear message; livez still answers 200', async () => {
    for (const path of ['/readyz', '/healthz']) {
      const response = await app.inject({ method: 'GET', url: `${API}${path}` });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ message: databaseUnavailableMessage });
      expect(response.headers['retry-after']).toBe('5');
    }
    const live = await app.inject({ method: 'GET', url: `${API}/livez` });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
  });

  it('answers API requests 503 in the error shape, never a 500', async () => {
    const responses = await Promise.all([
      app.inject({ method: 'GET', url: `${API}/events/` }),
      app.inject({ method: 'GET', url: `${API}/proposals/?size=5` }),
      app.inject({
        method: 'POST',
        url: `${API}/users/token/login`,
        payload: `username=${encodeURIComponent('id.catalyst://cardano/someone')}&password=a-password-of-some-length`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    ]);
    for (const response of responses) {
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ message: databaseUnavailableMessage });
    }
  });
});

// Issue 30 item 6: a burst of health checks costs the database one statement, never a remembered answer.
describe('sharedProbe', () => {
  it('answers the calls that arrive while a probe runs from that probe, and starts a new one for later calls', async () => {
    const answers: ((up: boolean) => void)[] = [];
    const probe = sharedProbe(() => new Promise<boolean>((resolve) => answers.push(resolve)));
    const first = probe();
    const second = probe();
    expect(answers).toHaveLength(1);
    answers[0]!(true);
    expect(await Promise.all([first, second])).toEqual([true, true]);
    const third = probe();
    expect(answers).toHaveLength(2);
    answers[1]!(false);
    expect(await third).toBe(false);
  });

  it('starts afresh after a probe that threw', async () => {
    let calls = 0;
    const probe = sharedProbe(async () => {
      calls += 1;
      if (calls === 1) throw new Error('refused');
      return true;
    });
    await expect(probe()).rejects.toThrow('refused');
    expect(await probe()).toBe(true);
    expect(calls).toBe(2);
  });
});

describe('databaseUnavailable', () => {
  it('knows a refused connection, a shutdown and a terminated connection, through drizzle’s cause chain', () => {
    const wrapped = (cause: object) => Object.assign(new Error('Failed query: select 1'), { cause });
    expect(databaseUnavailable(wrapped({ code: 'ECONNREFUSED' }))).toBe(true);
    expect(databaseUnavailable(wrapped({ code: '57P01', message: 'terminating connection due to administrator command' }))).toBe(true);
    expect(databaseUnavailable(wrapped({ code: '57P03', message: 'the database system is starting up' }))).toBe(true);
    expect(databaseUnavailable(wrapped(new Error('Connection terminated unexpectedly')))).toBe(true);
    expect(databaseUnavailable(wrapped({ code: '23505' }))).toBe(false);
    expect(databaseUnavailable(new Error('something else'))).toBe(false);
  });
});
