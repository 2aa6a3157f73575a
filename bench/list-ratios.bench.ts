/**
 * How close each list endpoint comes to the SQL it runs (issue 16), in one run: for each scenario, (1) the API over
 * loopback, (2) the exact statements one warm request ran (captured from the pool), replayed from another process
 * with the same concurrency, unprepared and prepared (named), (3) a bare Fastify route answering the same body.
 * Prints throughput and p50/p99 of each and the ratios API ÷ SQL and API ÷ bare route. Targets: API latency ≤ 2× the
 * replay, throughput ≥ 50 % of it; p99 ≤ 3× p50. Writes bench/results/list-ratios.json.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app';
import { testConfig } from '../apps/server/src/config';
import { seedScale } from '../apps/server/src/scale-seed';
import { benchDatabase, loadSettings, percentile, round } from './lib/database';

const PROPOSALS = Number(process.env.BENCH_PROPOSALS ?? 20_000);
const REVIEWERS = Number(process.env.BENCH_REVIEWERS ?? 5_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const here = fileURLToPath(new URL('.', import.meta.url));
const run = promisify(execFile);

type Result = { latencies: number[]; errors: number; firstError?: string };
const measure = async (script: string, settings: object): Promise<Result> => {
  const { stdout } = await run(process.execPath, [join(here, 'lib', script), loadSettings(settings)], { maxBuffer: 256 * 1024 * 1024 });
  return JSON.parse(stdout) as Result;
};
const stats = (result: Result) => {
  const sorted = [...result.latencies].sort((a, b) => a - b);
  if (result.firstError) console.error(`errors: ${result.errors}, first: ${result.firstError}`);
  return { rps: sorted.length / SECONDS, p50: percentile(sorted, 50), p99: percentile(sorted, 99), errors: result.errors };
};

console.error('creating database…');
const database = await benchDatabase();
try {
  console.error('seeding…');
  const seeded = await seedScale(database.db, { proposals: PROPOSALS, reviewers: REVIEWERS, categories: 40, reviewsPerReviewer: 20 });
  await database.db.execute(sql`analyze`);
  const config = testConfig({ LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, db: database.db, jwtSecret: config.JWT_SECRET!, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/reviews`;

  // Every statement the pool runs while `capturing` is on.
  const pool = (database.db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
  const original = pool.query.bind(pool);
  let captured: { text: string; values: unknown[] }[] | undefined;
  pool.query = (...args: unknown[]) => {
    const [first, second] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
    if (captured)
      captured.push({
        text: typeof first === 'string' ? first : first.text,
        values: second ?? (typeof first === 'string' ? [] : (first.values ?? [])),
      });
    return original(...args);
  };

  const scenarios = [
    { name: 'proposals, first page', path: '/proposals/?size=25&page=0' },
    { name: 'proposals, deep page', path: `/proposals/?size=25&page=${Math.floor(PROPOSALS / 50)}` },
    { name: 'proposals, title filter', path: '/proposals/?size=25&page=0&title=wallet' },
    { name: 'reviews, no filter', path: '/proposal-reviews/filtered?size=25&page=0' },
    { name: 'reviews, event filter', path: `/proposal-reviews/filtered?size=25&page=0&event_id=${seeded.eventId}` },
    { name: 'reviews, rankings=1', path: '/proposal-reviews/filtered?size=25&page=0&rankings=1' },
  ];
  const rows = [];
  for (const scenario of scenarios) {
    const url = origin + scenario.path;
    // Warm: totals counted and look-ups cached; then capture one warm request's statements.
    await measure('load.mjs', { urls: [url], concurrency: CONCURRENCY, seconds: 1 });
    captured = [];
    const response = await fetch(url);
    const body = await response.text();
    const statements = captured;
    captured = undefined;

    const api = stats(await measure('load.mjs', { urls: [url], concurrency: CONCURRENCY, seconds: SECONDS }));
    const replay = stats(await measure('sql-load.mjs', { url: database.url, statements, concurrency: CONCURRENCY, seconds: SECONDS }));
    const prepared = stats(
      await measure('sql-load.mjs', { url: database.url, statements, concurrency: CONCURRENCY, seconds: SECONDS, prepared: true }),
    );
    const bare = Fastify();
    bare.get('/', (_request, reply) => reply.type('application/json').send(body));
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const bareUrl = `http://127.0.0.1:${(bare.server.address() as AddressInfo).port}/`;
    const route = stats(await measure('load.mjs', { urls: [bareUrl], concurrency: CONCURRENCY, seconds: SECONDS }));
    await bare.close();

    rows.push({
      scenario: scenario.name,
      statements: statements.length,
      api_rps: round(api.rps, 0),
      api_p50: round(api.p50, 2),
      api_p99: round(api.p99, 2),
      sql_rps: round(replay.rps, 0),
      sql_p50: round(replay.p50, 2),
      prep_rps: round(prepared.rps, 0),
      bare_rps: round(route.rps, 0),
      'api/sql rps': round(api.rps / replay.rps, 2),
      'api/sql p50': round(api.p50 / replay.p50, 2),
      'api/bare rps': round(api.rps / route.rps, 2),
      'p99/p50': round(api.p99 / api.p50, 2),
    });
  }
  await app.close();
  console.log(
    `List endpoints against their SQL: ${PROPOSALS} proposals, ${REVIEWERS * 20} reviews, ${CONCURRENCY} clients, ${SECONDS} s each`,
  );
  console.table(rows);
  writeFileSync(join(here, 'results/list-ratios.json'), JSON.stringify({ date: new Date().toISOString(), rows }, null, 2));
} finally {
  await database.drop();
}
