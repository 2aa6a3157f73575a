import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { testConfig } from '../src/config';
import type { Database } from '../src/db/client';
import { overloadMessage } from '../src/plugins/overload';
import { API, databaseKinds, json, useTestApp } from './build-test-app';
import { migratedPglite } from './template-databases';
import { freePort } from './free-port';

// Issue 30 item 2: Prometheus metrics, off by default, behind a bearer token or on a port of their own.
const TOKEN = 'metrics-token-for-tests-0123456789';

/** The value of a series in the Prometheus text (`name{labels} value`), summed over the lines that match. */
function valueOf(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  let total: number | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || !(line.startsWith(`${name}{`) || line.startsWith(`${name} `))) continue;
    const matches = Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`));
    if (matches) total = (total ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

/** No metrics route: 404, or the web app's shell where a build of it is served (its client-side "not found"). */
function expectNoMetrics(response: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  expect(response.statusCode === 404 || String(response.headers['content-type']).startsWith('text/html')).toBe(true);
  expect(response.body).not.toContain('http_requests_total');
}

describe('metrics are absent by default', () => {
  const ctx = useTestApp('pglite');
  it('has no /metrics route without METRICS_TOKEN or METRICS_PORT', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expectNoMetrics(response);
  });
});

describe.each(databaseKinds)('GET /metrics with METRICS_TOKEN on %s', (kind) => {
  const ctx = useTestApp(kind, { METRICS_TOKEN: TOKEN });
  const scrape = async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return response.body;
  };

  it('refuses a scrape without the token or with another one (401), and counts no secret in its answer', async () => {
    const without = await ctx.app.inject({ method: 'GET', url: '/metrics' });
    expect(without.statusCode).toBe(401);
    expect(without.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect(json(without)).toEqual({ message: 'A metrics token is required.' });
    const wrong = await ctx.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer not-the-token-at-all' } });
    expect(wrong.statusCode).toBe(401);
    expect(await scrape()).not.toContain(TOKEN);
  });

  it('exposes the request, pool, event-loop, hash-queue, run, mail-queue and cache series after traffic', async () => {
    const event = await ctx.newEvent();
    await ctx.newProposal(event);
    for (let i = 0; i < 3; i += 1) {
      expect((await ctx.app.inject({ method: 'GET', url: `${API}/proposals/?event_id=${event.id}&page=1` })).statusCode).toBe(200);
    }
    expect((await ctx.app.inject({ method: 'GET', url: `${API}/proposals/999999999` })).statusCode).toBe(404);
    const dryRun = await ctx.app.inject({
      method: 'POST',
      url: `${API}/proposal-reviews/generate-allocations`,
      headers: { authorization: `Bearer ${event.admin.token}` },
      payload: {
        allocation_params: { event_id: event.id, allocation_seed: 1, dry_run: true, nr_of_proposals_lv0: 1, nr_of_proposals_lv1: 1 },
      },
    });
    expect(dryRun.statusCode).toBe(200);
    const real = await ctx.app.inject({
      method: 'POST',
      url: `${API}/proposal-reviews/generate-allocations`,
      headers: { authorization: `Bearer ${event.admin.token}` },
      payload: {
        allocation_params: { event_id: event.id, allocation_seed: 1, dry_run: false, nr_of_proposals_lv0: 1, nr_of_proposals_lv1: 1 },
      },
    });

    const text = await scrape();
    // Per route template (never the raw URL with its ids) and status.
    const list = { method: 'GET', route: `${API}/proposals/`, status: '200' };
    expect(valueOf(text, 'http_requests_total', list)).toBeGreaterThanOrEqual(3);
    expect(valueOf(text, 'http_request_duration_seconds_count', list)).toBeGreaterThanOrEqual(3);
    expect(valueOf(text, 'http_requests_total', { route: `${API}/proposals/:id/`, status: '404' })).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('proposals/999999999');
    expect(valueOf(text, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(valueOf(text, 'password_hash_tasks', { state: 'queued' })).toBe(0);
    expect(valueOf(text, 'password_hash_tasks', { state: 'running' })).toBeGreaterThanOrEqual(0);
    expect(valueOf(text, 'mail_queue_messages', { status: 'queued' })).toBeGreaterThanOrEqual(0);
    const runAction = 'proposals.allocate';
    expect(valueOf(text, 'admin_runs_total', { action: runAction, dry_run: 'true', outcome: 'ok' })).toBe(1);
    expect(valueOf(text, 'admin_run_duration_seconds_count', { action: runAction, dry_run: 'true' })).toBe(1);
    // The real run ran (the event has no reviewers: it allocates nothing, but it runs and is counted).
    expect(real.statusCode).toBe(200);
    expect(valueOf(text, 'admin_runs_total', { action: runAction, dry_run: 'false', outcome: 'ok' })).toBe(1);
    // The proposals page counts its total once, then serves it from the count cache.
    expect(valueOf(text, 'cache_lookups_total', { cache: 'proposal_totals', result: 'hit' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(text, 'cache_lookups_total', { cache: 'proposal_totals', result: 'miss' })).toBeGreaterThanOrEqual(1);
    if (kind === 'postgres') {
      expect(valueOf(text, 'db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(1);
      expect(valueOf(text, 'db_pool_connections', { state: 'waiting' })).toBe(0);
    }
  });
});

describe('metrics on METRICS_PORT', () => {
  let database: Database;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let port: number;
  beforeAll(async () => {
    database = await migratedPglite();
    port = await freePort();
    const config = testConfig({ METRICS_PORT: String(port), METRICS_HOST: '127.0.0.1' });
    app = await buildApp({ config, db: database.db, jwtSecret: config.JWT_SECRET!, logger: false });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('serves the metrics on their own port without a token, and not on the API port', async () => {
    await app.inject({ method: 'GET', url: `${API}/livez` });
    const response = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(valueOf(text, 'http_requests_total', { route: `${API}/livez`, status: '200' })).toBe(1);
    expectNoMetrics(await app.inject({ method: 'GET', url: '/metrics' }));
  });
});

// Issue 30 item 4: under pressure the API sheds load with 503 + Retry-After instead of queueing.
describe('load shedding (@fastify/under-pressure)', () => {
  let database: Database;
  let app: Awaited<ReturnType<typeof buildApp>>;
  beforeAll(async () => {
    database = await migratedPglite();
    // Forced: a heap limit of a few bytes is always exceeded, from the first sample on.
    const config = testConfig({ OVERLOAD_MAX_HEAP_USED_RATIO: '0.0000001', OVERLOAD_RETRY_AFTER_SECONDS: '7', METRICS_TOKEN: TOKEN });
    app = await buildApp({ config, db: database.db, jwtSecret: config.JWT_SECRET!, logger: false, overloadSampleIntervalMs: 20 });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('answers 503 with Retry-After and a message while overloaded; liveness and metrics still answer', async () => {
    // The first sample decides: wait for it (state, not time).
    let response = await app.inject({ method: 'GET', url: `${API}/proposals/?page=1` });
    for (let attempt = 0; response.statusCode !== 503 && attempt < 500; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      response = await app.inject({ method: 'GET', url: `${API}/proposals/?page=1` });
    }
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('7');
    expect(json(response)).toEqual({ message: overloadMessage });
    expect((await app.inject({ method: 'POST', url: `${API}/users/token/login`, payload: {} })).statusCode).toBe(503);
    expect((await app.inject({ method: 'GET', url: `${API}/readyz` })).statusCode).toBe(503);
    expect((await app.inject({ method: 'GET', url: `${API}/livez` })).statusCode).toBe(200);
    const metrics = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(metrics.statusCode).toBe(200);
    expect(valueOf(metrics.body, 'http_requests_total', { status: '503' })).toBeGreaterThanOrEqual(3);
  });
});
