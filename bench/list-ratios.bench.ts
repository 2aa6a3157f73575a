/**
 * How close each hot list endpoint, and healthz, comes to its limit (issue 16, issue 30 item 6), in one run: the
 * server in a process of its own, logging at BENCH_LOG_LEVEL (info, as in production; lines to /dev/null), loaded by
 * `concurrency` keep-alive clients from another process; against pgbench replaying the statements one warm request
 * of the endpoint sent, in prepared mode (`-M prepared`: parsed and planned once per connection), with the same
 * concurrency; and against a bare Fastify route replaying the same statements (lib/replay-server.mjs: the HTTP
 * endpoint's own floor on this machine); healthz also against a bare Fastify route answering its body. Prints throughput and p50/p95/p99 of
 * each, the server's CPU time per request, and the ratios; targets: API latency ≤ 2× pgbench at p50 and p95, throughput ≥ 50 % of it; healthz's API ÷
 * bare route.
 *
 * The round is lib/round.ts `seedRound` (BENCH_PROPOSALS 20,000 proposals, BENCH_REVIEWERS 50,000 × 20 reviews, 500
 * moderators with their allocations and moderations). BENCH_KEEP=1 keeps the seeded round as database
 * `cr_bench_lists_<proposals>_<reviewers>` and reuses it on the next run (quick iterations, e.g. BENCH_PROPOSALS=2000
 * BENCH_REVIEWERS=5000); drop it with psql when done. BENCH_SECONDS (5), BENCH_CONCURRENCY (8), BENCH_ONLY
 * (comma-separated words of the scenario names), BENCH_SHOW_SQL=1 (prints the statements each scenario replays), BENCH_LOADER (wrk when /usr/bin/wrk is installed — a C load generator,
 * as pgbench is a C client on the SQL side; else node: lib/load.mjs; `both`), BENCH_CPU_PROF=<dir> (the server's CPU
 * profile). Writes bench/results/list-ratios.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app';
import { testConfig } from '../apps/server/src/config';
import { SCALE_PASSWORD } from '../apps/server/src/scale-seed';
import { benchDatabase, keptBenchDatabase, round } from './lib/database';
import { pgbenchLoad } from './lib/pgbench';
import { captureQueries, hasWrk, load, loadAverage, loadWithWrk, login, startReplayServer, startServer } from './lib/processes';
import { bareRoute, type Statement } from './lib/ratios';
import { roundAccounts, seedRound } from './lib/round';

const here = fileURLToPath(new URL('.', import.meta.url));
const PROPOSALS = Number(process.env.BENCH_PROPOSALS ?? 20_000);
const REVIEWERS = Number(process.env.BENCH_REVIEWERS ?? 50_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
const ONLY = process.env.BENCH_ONLY?.split(',');
// Who loads the API: wrk (a C client, as pgbench is on the SQL side) when installed, else lib/load.mjs (Node's http
// client, which shares the two cores at about the server's own cost per request); `both` measures each in turn.
const LOADERS = (process.env.BENCH_LOADER ?? (hasWrk() ? 'wrk' : 'node'))
  .split(',')
  .flatMap((name) => (name === 'both' ? ['wrk', 'node'] : [name]));
const rowsOf = <T>(result: unknown) => (result as { rows?: T[] }).rows ?? (result as T[]);

type Seeded = Awaited<ReturnType<typeof seedRound>>;
const seed = async (database: { db: Parameters<typeof seedRound>[0] }) => {
  const seeded = await seedRound(database.db, { reviewers: REVIEWERS, proposals: PROPOSALS });
  await database.db.execute(sql`vacuum analyze`);
  return seeded;
};
const database =
  process.env.BENCH_KEEP === '1'
    ? await keptBenchDatabase<Seeded>(`cr_bench_lists_${PROPOSALS}_${REVIEWERS}`, seed)
    : await benchDatabase().then(async (created) => ({ ...created, seeded: await seed(created) }));
let server: Awaited<ReturnType<typeof startServer>> | undefined;
const report: Record<string, unknown> = { date: new Date().toISOString(), seeded: database.seeded, logLevel: LOG_LEVEL };
try {
  const { db, seeded } = database;
  const eventId = seeded.eventId;
  const [moderator] = await roundAccounts(db, eventId, 'moderator', 1);
  const [reviewer] = await roundAccounts(db, eventId, 'reviewer', 1);
  const [category] = rowsOf<{ id: number }>(
    await db.execute(sql`select id from categories where event_id = ${eventId} order by id limit 1`),
  );
  const reviewIds = rowsOf<{ id: number }>(
    await db.execute(sql`select id from reviews where event_id = ${eventId} order by id desc limit 20`),
  ).map((row) => row.id);

  // BENCH_CPU_PROF=<dir>: the server writes a CPU profile of the whole run there when it stops (node --cpu-prof).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  server = await startServer(database.url, profile, { BENCH_SERVER_LOG_LEVEL: LOG_LEVEL });
  const moderatorToken = await login(server.origin, moderator!.catalystId, SCALE_PASSWORD);
  const reviewerToken = await login(server.origin, reviewer!.catalystId, SCALE_PASSWORD);
  const [proposal] = rowsOf<{ id: number }>(
    await db.execute(sql`select id from proposals where event_id = ${eventId} order by id limit 1 offset ${Math.floor(PROPOSALS / 2)}`),
  );
  const scenarios = [
    { name: 'healthz', path: 'healthz', token: undefined },
    { name: 'proposals, page 1', path: 'proposals/?page=1', token: undefined },
    { name: 'proposals, deep page', path: `proposals/?size=25&page=${Math.floor(PROPOSALS / 50)}`, token: undefined },
    { name: 'proposals, title filter', path: 'proposals/?size=25&page=0&title=wallet', token: undefined },
    { name: 'reviews, objective', path: `proposal-reviews/filtered?objective=${category!.id}`, token: undefined },
    { name: 'reviews, first page', path: 'proposal-reviews/filtered?size=25&page=0', token: undefined },
    {
      name: 'reviews by ids (20)',
      path: `proposal-reviews/by-ids/?${reviewIds.map((id) => `ids=${id}`).join('&')}`,
      token: moderatorToken,
    },
    { name: 'moderator: allocated', path: 'proposal-reviews/allocated/', token: moderatorToken },
    // The single-resource reads (issue 45 item 13): one review, one proposal, and the caller's own info, which every
    // signed-in page reads.
    { name: 'one review', path: `proposal-reviews/${reviewIds[0]}/`, token: undefined },
    { name: 'one proposal', path: `proposals/${proposal!.id}/`, token: undefined },
    { name: 'users/me', path: 'users/me/', token: reviewerToken },
  ].filter((scenario) => !ONLY || ONLY.some((word) => scenario.name.includes(word)));

  // The statements come from the app in this process (same database, same JWT secret), warmed like the server.
  const config = testConfig({ LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, db, jwtSecret: config.JWT_SECRET!, logger: false });
  const rows = [];
  for (const scenario of scenarios) {
    const headers = scenario.token ? { authorization: `Bearer ${scenario.token}` } : undefined;
    const request = () => app.inject({ url: `/api/reviews/${scenario.path}`, headers });
    for (let i = 0; i < 3; i += 1) await request();
    let body = '';
    const statements = (await captureQueries(async () => {
      const response = await request();
      if (response.statusCode !== 200) throw new Error(`${scenario.name}: ${response.statusCode} ${response.body.slice(0, 300)}`);
      body = response.body;
    })) as Statement[];
    if (process.env.BENCH_SHOW_SQL === '1')
      for (const statement of statements) console.error(`-- ${scenario.name}\n${statement.text}\n${JSON.stringify(statement.values)}`);
    const settings = { concurrency: CONCURRENCY, seconds: SECONDS };
    const url = `${server.origin}/api/reviews/${scenario.path}`;
    for (const loader of LOADERS) {
      const loadUrl = (target: string, withHeaders?: Record<string, string>) =>
        loader === 'wrk'
          ? loadWithWrk({ url: target, headers: withHeaders, ...settings })
          : load({ urls: [target], headers: withHeaders, ...settings });
      const loadAvg = loadAverage();
      // The server's CPU (user + system) over the load and its 1 s warm-up, per request: what a busy machine disturbs least.
      const cpuBefore = server.cpuSeconds();
      const api = await loadUrl(url, headers);
      const cpuMs = ((server.cpuSeconds() - cpuBefore) * 1000) / Math.max(1, api.rps * (SECONDS + 1));
      const sqlLimit = await pgbenchLoad({ url: database.url, statements, ...settings });
      // The HTTP endpoint's own limit: a bare Fastify route replaying the same statements on a pool like the server's
      // (lib/replay-server.mjs, named statements prepared), loaded the same way.
      const replayServer = statements.length > 0 ? await startReplayServer(database.url, [statements]) : undefined;
      const replay = replayServer ? await loadUrl(`${replayServer.origin}/replay/0`) : undefined;
      await replayServer?.stop();
      let bare: Awaited<ReturnType<typeof load>> | undefined;
      if (scenario.name === 'healthz') {
        const route = await bareRoute(body);
        bare = await loadUrl(route.url);
        await route.close();
      }
      const ratio = (a: number, b: number | undefined) => (b ? round(a / b, 2) : null);
      const row = {
        scenario: scenario.name,
        loader,
        stmts: statements.length,
        kb: round(Buffer.byteLength(body) / 1024, 1),
        rps: api.rps,
        p50: api.p50_ms,
        p95: api.p95_ms,
        p99: api.p99_ms,
        err: api.errors,
        'cpu ms': round(cpuMs, 3),
        'sql rps': sqlLimit.rps,
        'sql p50': sqlLimit.p50_ms,
        'sql p95': sqlLimit.p95_ms,
        'p50 ÷ sql': ratio(api.p50_ms, sqlLimit.p50_ms),
        'p95 ÷ sql': ratio(api.p95_ms, sqlLimit.p95_ms),
        'rps ÷ sql': ratio(api.rps, sqlLimit.rps),
        'replay rps': replay?.rps ?? null,
        'replay p50': replay?.p50_ms ?? null,
        'replay p95': replay?.p95_ms ?? null,
        'p50 ÷ replay': ratio(api.p50_ms, replay?.p50_ms),
        'p95 ÷ replay': ratio(api.p95_ms, replay?.p95_ms),
        'rps ÷ replay': ratio(api.rps, replay?.rps),
        'bare rps': bare?.rps ?? null,
        'bare p95': bare?.p95_ms ?? null,
        'rps ÷ bare': ratio(api.rps, bare?.rps),
        load: loadAvg,
      };
      console.error(JSON.stringify(row));
      rows.push(row);
    }
  }
  await app.close();
  report.rows = rows;
  console.log(
    `Lists against pgbench -M prepared replaying their statements: ${seeded.proposals.toLocaleString('en')} proposals, ${seeded.reviews.toLocaleString('en')} reviews; ${CONCURRENCY} clients, ${SECONDS} s each, server logging at ${LOG_LEVEL} (targets: p50 and p95 ≤ 2× the SQL's, throughput ≥ 50 %)`,
  );
  console.table(rows);
} finally {
  await server?.stop();
  await database.drop();
}
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results/list-ratios.json'), JSON.stringify(report, null, 2));
