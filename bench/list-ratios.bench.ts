/**
 * How close each list endpoint comes to the SQL it runs (issue 16), in one run: for each scenario, (1) the API over
 * loopback, (2) the exact statements one warm request ran (captured from the pool), replayed from another process
 * with the same concurrency, unprepared and prepared (named), (3) a bare Fastify route answering the same body.
 * Prints throughput and p50/p95/p99 of each and the ratios API ÷ SQL and API ÷ bare route (lib/ratios.ts). Targets: API latency ≤ 2× the
 * replay, throughput ≥ 50 % of it; p99 ≤ 3× p50. Writes bench/results/list-ratios.json.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app';
import { testConfig } from '../apps/server/src/config';
import { seedScale } from '../apps/server/src/scale-seed';
import { benchDatabase } from './lib/database';
import { captureQueries } from './lib/processes';
import { endpointRatios, type Statement } from './lib/ratios';

const PROPOSALS = Number(process.env.BENCH_PROPOSALS ?? 20_000);
const REVIEWERS = Number(process.env.BENCH_REVIEWERS ?? 5_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
/** Only the scenarios whose name contains this text (e.g. `proposals`). */
const ONLY = process.env.BENCH_ONLY ?? '';
const here = fileURLToPath(new URL('.', import.meta.url));

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

  const scenarios = [
    { name: 'proposals, first page', path: '/proposals/?size=25&page=0' },
    { name: 'proposals, deep page', path: `/proposals/?size=25&page=${Math.floor(PROPOSALS / 50)}` },
    { name: 'proposals, title filter', path: '/proposals/?size=25&page=0&title=wallet' },
    { name: 'reviews, no filter', path: '/proposal-reviews/filtered?size=25&page=0' },
    { name: 'reviews, event filter', path: `/proposal-reviews/filtered?size=25&page=0&event_id=${seeded.eventId}` },
    { name: 'reviews, rankings=1', path: '/proposal-reviews/filtered?size=25&page=0&rankings=1' },
  ].filter((scenario) => scenario.name.includes(ONLY));
  const rows = [];
  for (const scenario of scenarios) {
    const url = origin + scenario.path;
    // Warm (totals counted, look-ups cached), then capture one warm request's statements.
    for (let i = 0; i < 3; i += 1) await (await fetch(url)).text();
    let body = '';
    const statements = (await captureQueries(async () => (body = await (await fetch(url)).text()))) as Statement[];
    rows.push({
      scenario: scenario.name,
      ...(await endpointRatios({ url, statements, body, databaseUrl: database.url, concurrency: CONCURRENCY, seconds: SECONDS })),
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
