/**
 * Proposals list on PostgreSQL with 20,000 proposals (issue 5): `GET proposals/` 25 a page, without and with a title
 * filter, requested by a second process over loopback. Prints p50/p95/p99 and throughput; writes
 * bench/results/proposals-list.json. Target: p95 ≤ 20 ms.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../apps/server/src/app';
import { testConfig } from '../apps/server/src/config';
import { seedScale } from '../apps/server/src/scale-seed';
import { benchDatabase, loadSettings, percentile, round } from './lib/database';

const PROPOSALS = Number(process.env.BENCH_PROPOSALS ?? 20_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const here = fileURLToPath(new URL('.', import.meta.url));
const run = promisify(execFile);

console.error('creating database…');
const database = await benchDatabase();
console.error('seeding…');
try {
  const seeded = await seedScale(database.db, { proposals: PROPOSALS, reviewers: 100, categories: 40 });
  console.error(`seeded in ${seeded.seconds} s`);
  const config = testConfig({ LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, db: database.db, jwtSecret: config.JWT_SECRET!, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/reviews/proposals/`;
  const pages = Math.ceil(PROPOSALS / 25);
  const words = ['wallet', 'governance', 'defi', 'privacy', 'audit', 'music', 'bridge', 'oracle', 'staking', 'data'];
  const scenarios = [
    { name: 'no filter, random page', urls: Array.from({ length: 500 }, (_, i) => `${base}?size=25&page=${(i * 7919) % pages}`) },
    { name: 'no filter, first page', urls: [`${base}?size=25&page=0`] },
    { name: 'title filter (one word)', urls: words.map((word) => `${base}?size=25&page=0&title=${word}`) },
    { name: 'title filter, page 3', urls: words.map((word) => `${base}?size=25&page=3&title=${word}`) },
    { name: 'title filter, no match', urls: [`${base}?size=25&page=0&title=zzzz-nothing`] },
    // 150 different filters in turn: each total is counted once per 10 s, then served from the cache.
    {
      name: 'title filter, 150 different filters',
      urls: Array.from(
        { length: 5000 },
        (_, i) => `${base}?size=25&page=0&title=${words[i % words.length]!.slice(0, 3 + (i % 3))}${'aeiou'[i % 5]}`,
      ),
    },
    { name: 'event + title filter', urls: words.map((word) => `${base}?size=25&page=0&event_id=${seeded.eventId}&title=${word}`) },
  ];
  const results = [];
  for (const scenario of scenarios) {
    // Warm up, then measure in a separate process so the server has the CPU it would have in production.
    // (Asynchronously: the server answers from this process's event loop.)
    await run(process.execPath, [join(here, 'lib/load.mjs'), loadSettings({ urls: scenario.urls, concurrency: CONCURRENCY, seconds: 1 })]);
    const { stdout } = await run(
      process.execPath,
      [join(here, 'lib/load.mjs'), loadSettings({ urls: scenario.urls, concurrency: CONCURRENCY, seconds: SECONDS })],
      { maxBuffer: 256 * 1024 * 1024 },
    );
    const { latencies, errors } = JSON.parse(stdout) as { latencies: number[]; errors: number };
    latencies.sort((a, b) => a - b);
    results.push({
      scenario: scenario.name,
      requests: latencies.length,
      errors,
      rps: round(latencies.length / SECONDS, 0),
      p50_ms: round(percentile(latencies, 50), 2),
      p95_ms: round(percentile(latencies, 95), 2),
      p99_ms: round(percentile(latencies, 99), 2),
    });
  }
  await app.close();
  console.log(
    `Proposals list: ${PROPOSALS} proposals on PostgreSQL, ${CONCURRENCY} concurrent clients, ${SECONDS} s each (target p95 ≤ 20 ms)`,
  );
  console.table(results);
  writeFileSync(
    join(here, 'results/proposals-list.json'),
    JSON.stringify({ date: new Date().toISOString(), proposals: PROPOSALS, concurrency: CONCURRENCY, seconds: SECONDS, results }, null, 2),
  );
} finally {
  await database.drop();
}
