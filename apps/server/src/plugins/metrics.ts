import { createHash, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type onResponseHookHandler } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { postgresPool, type Db } from '../db/client';
import type { Gate } from '../lib/password-hasher';
import { observeTelemetry } from '../lib/telemetry';

/**
 * Prometheus metrics (issue 30 item 2), with prom-client. Off by default: `GET /metrics` exists only when
 * METRICS_TOKEN is set (on the API's port, for `Authorization: Bearer <token>`) or METRICS_PORT is (a listener of its
 * own, without a token, bound to METRICS_HOST: a private interface). Every series is in this app's own registry.
 *
 * - `http_requests_total` and `http_request_duration_seconds` per method, route (the template, never the raw URL:
 *   ids would make a series per proposal) and status; requests that match no route are not counted;
 * - `db_pool_connections{state}` (in use, idle, waiting) on PostgreSQL;
 * - Node's defaults: event-loop lag (`nodejs_eventloop_lag_*`), heap, GC, CPU, open handles;
 * - `password_hash_tasks{state}` (running, queued): the login queue that answers 503 when full;
 * - `admin_runs_total{action,dry_run,outcome}` and `admin_run_duration_seconds{action,dry_run}`;
 * - `mail_queue_messages{status}` (queued, sending): the outbox waiting for delivery;
 * - `cache_lookups_total{cache,result}` (hit, miss) for the in-process caches.
 */
export interface MetricsOptions {
  db: Db;
  passwordGate: Gate;
  token?: string | undefined;
  port?: number | undefined;
  host: string;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

export async function registerMetrics(app: FastifyInstance, options: MetricsOptions): Promise<void> {
  if (!options.token && !options.port) return;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered', labelNames, registers: [registry] });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to sending its answer',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // Each route gets a hook of its own that knows its template (`request.routeOptions` builds an object on every
  // read), and binds the series of each status once: a request then costs two increments, no label hashing.
  // Requests that match no route (scanners' guesses) are not counted.
  app.addHook('onRoute', (route) => {
    const byStatus = new Map<string, { count: ReturnType<typeof requests.labels>; time: ReturnType<typeof durations.labels> }>();
    const record: onResponseHookHandler = (request, reply, done) => {
      const key = `${request.method} ${reply.statusCode}`;
      let series = byStatus.get(key);
      if (!series) {
        const labels = { method: request.method, route: route.url, status: String(reply.statusCode) };
        series = { count: requests.labels(labels), time: durations.labels(labels) };
        byStatus.set(key, series);
      }
      series.count.inc();
      series.time.observe(reply.elapsedTime / 1000);
      done();
    };
    route.onResponse = route.onResponse ? [...[route.onResponse].flat(), record] : record;
  });

  const pool = postgresPool(options.db);
  new Gauge({
    name: 'db_pool_connections',
    help: 'Database pool connections: in use by a request, idle, and requests waiting for one',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      if (!pool) return;
      this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  new Gauge({
    name: 'password_hash_tasks',
    help: 'Password hashes running and queued (a full queue answers 503)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.set({ state: 'running' }, options.passwordGate.running);
      this.set({ state: 'queued' }, options.passwordGate.queued);
    },
  });
  new Gauge({
    name: 'mail_queue_messages',
    help: 'Mails waiting for delivery (queued) and being delivered (sending)',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      const result = await options.db.execute(
        sql`select status, count(*)::int as count from outbox where status in ('queued', 'sending') group by status`,
      );
      const counts = new Map((result as unknown as { rows: { status: string; count: number }[] }).rows.map((r) => [r.status, r.count]));
      for (const status of ['queued', 'sending']) this.set({ status }, counts.get(status) ?? 0);
    },
  });

  const runs = new Counter({
    name: 'admin_runs_total',
    help: 'Admin runs finished, by audit action, dry run or not, and outcome (ok or failed)',
    labelNames: ['action', 'dry_run', 'outcome'],
    registers: [registry],
  });
  const runDurations = new Histogram({
    name: 'admin_run_duration_seconds',
    help: 'How long admin runs took',
    labelNames: ['action', 'dry_run'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [registry],
  });
  const cacheLookups = new Counter({
    name: 'cache_lookups_total',
    help: 'In-process cache lookups, by cache and result (hit or miss)',
    labelNames: ['cache', 'result'],
    registers: [registry],
  });
  const stopObserving = observeTelemetry((event) => {
    if (event.type === 'cache') {
      cacheLookups.inc({ cache: event.cache, result: event.hit ? 'hit' : 'miss' });
    } else {
      const dryRun = String(event.dryRun);
      runs.inc({ action: event.action, dry_run: dryRun, outcome: event.ok ? 'ok' : 'failed' });
      runDurations.observe({ action: event.action, dry_run: dryRun }, event.seconds);
    }
  });
  app.addHook('onClose', async () => {
    stopObserving();
    registry.clear();
  });

  const scrape = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply
      .header('content-type', registry.contentType)
      .header('cache-control', 'no-store')
      .send(await registry.metrics());
  // Never shed under load: an overloaded instance is what the metrics must show.
  const config = { pressureHandler: () => undefined };

  if (options.token) {
    const expected = digest(options.token);
    app.get('/metrics', { config, schema: { hide: true } }, async (request, reply) => {
      const header = request.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? header.slice(7) : '';
      if (!given || !timingSafeEqual(digest(given), expected)) {
        return reply.code(401).header('www-authenticate', 'Bearer realm="metrics"').send({ message: 'A metrics token is required.' });
      }
      return scrape(request, reply);
    });
  }
  if (options.port) {
    const listener = Fastify({ logger: false });
    listener.get('/metrics', scrape);
    app.addHook('onReady', async () => {
      await listener.listen({ port: options.port!, host: options.host });
    });
    app.addHook('onClose', () => listener.close());
  }
}
