import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import { loadSettings, percentile, round } from './database';
import { load } from './processes';

const here = fileURLToPath(new URL('.', import.meta.url));
const run = promisify(execFile);

/** A statement as `captureQueries` (lib/processes.ts) records it: what sql-load.mjs replays. */
export type Statement = { text: string; values?: unknown[]; rowMode?: string };

/**
 * lib/sql-load.mjs in a second process: `statements` one after the other per request on a pool of `concurrency`,
 * unprepared or prepared (named), after a 1 s warm-up. Answers req/s and percentiles like `load`.
 */
export async function sqlLoad(settings: {
  url: string;
  statements: Statement[];
  concurrency: number;
  seconds: number;
  prepared?: boolean;
}) {
  const once = async (seconds: number) => {
    const { stdout } = await run(process.execPath, [join(here, 'sql-load.mjs'), loadSettings({ ...settings, seconds })], {
      maxBuffer: 256 * 1024 * 1024,
    });
    return JSON.parse(stdout) as { latencies: number[]; errors: number; firstError?: string };
  };
  await once(1);
  const { latencies, errors, firstError } = await once(settings.seconds);
  if (firstError) console.error(`sql-load: ${errors} errors, first: ${firstError}`);
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    rps: round(latencies.length / settings.seconds, 0),
    p50_ms: round(percentile(latencies, 50), 2),
    p95_ms: round(percentile(latencies, 95), 2),
    p99_ms: round(percentile(latencies, 99), 2),
  };
}

/** A bare Fastify route in this process answering `body` (with `contentType`) to every GET: the HTTP floor. */
export async function bareRoute(body: string, contentType = 'application/json; charset=utf-8') {
  const bare = Fastify();
  bare.get('/', (_request, reply) => reply.type(contentType).send(body));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  return { url: `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}/`, close: () => bare.close() };
}

/**
 * One endpoint against its limits, each from a second process with the same concurrency (issue 16, issue 18 item 1):
 * (1) the API at `url`; (2) the statements one warm request ran, replayed raw, unprepared and (3) prepared; (4) a bare
 * Fastify route answering the same body. Answers one row: the API's req/s and p50/p95/p99, each limit's, and the
 * ratios API ÷ raw SQL (p50, p95), API ÷ prepared SQL (p95) and API ÷ bare route (p95, req/s).
 */
export async function endpointRatios(options: {
  url: string;
  headers?: Record<string, string>;
  statements: Statement[];
  body: string;
  contentType?: string;
  databaseUrl: string;
  concurrency: number;
  seconds: number;
}) {
  const { concurrency, seconds } = options;
  const api = await load({ urls: [options.url], headers: options.headers, concurrency, seconds });
  // A warm request that ran no SQL (served from the in-process read cache) has nothing to replay: its ratios to SQL
  // are left empty, and API ÷ bare route is the figure that says what it costs.
  const none = { requests: 0, errors: 0, rps: 0, p50_ms: 0, p95_ms: 0, p99_ms: 0 };
  const replay = (prepared: boolean) =>
    options.statements.length === 0
      ? Promise.resolve(none)
      : sqlLoad({ url: options.databaseUrl, statements: options.statements, concurrency, seconds, prepared });
  const raw = await replay(false);
  const prepared = await replay(true);
  const bare = await bareRoute(options.body, options.contentType);
  const route = await load({ urls: [bare.url], concurrency, seconds });
  await bare.close();
  const ratio = (a: number, b: number) => (b > 0 ? round(a / b, 2) : null);
  return {
    statements: options.statements.length,
    body_kb: round(Buffer.byteLength(options.body) / 1024, 1),
    api_rps: api.rps,
    api_p50: api.p50_ms,
    api_p95: api.p95_ms,
    api_p99: api.p99_ms,
    api_errors: api.errors,
    raw_rps: raw.rps,
    raw_p50: raw.p50_ms,
    raw_p95: raw.p95_ms,
    prep_p95: prepared.p95_ms,
    bare_rps: route.rps,
    bare_p95: route.p95_ms,
    'api/raw p50': ratio(api.p50_ms, raw.p50_ms),
    'api/raw p95': ratio(api.p95_ms, raw.p95_ms),
    'api/prep p95': ratio(api.p95_ms, prepared.p95_ms),
    'api/bare p95': ratio(api.p95_ms, route.p95_ms),
    'api/raw rps': ratio(api.rps, raw.rps),
    'p99/p50': ratio(api.p99_ms, api.p50_ms),
  };
}
