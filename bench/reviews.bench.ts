/**
 * Reviews (issue 6). (1) `GET proposal-reviews/filtered` on PostgreSQL with 1,000,000 reviews (50,000 reviewers ×
 * 20), each filter alone and combined, first ten pages, 8 clients in a second process (target p95 ≤ 30 ms).
 * (2) Review submissions from 200 concurrent clients over loopback for 60 s (target ≥ 500/s sustained), then a check
 * that every accepted review is stored and none is duplicated per reviewer and proposal.
 * Writes bench/results/reviews.json. BENCH_REVIEWERS, BENCH_SECONDS, BENCH_SUBMIT_SECONDS scale it down.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app';
import { testConfig } from '../apps/server/src/config';
import { SCALE_PASSWORD, seedScale } from '../apps/server/src/scale-seed';
import { benchDatabase, loadSettings, percentile, round } from './lib/database';

const here = fileURLToPath(new URL('.', import.meta.url));
const run = promisify(execFile);
const REVIEWERS = Number(process.env.BENCH_REVIEWERS ?? 50_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const SUBMIT_SECONDS = Number(process.env.BENCH_SUBMIT_SECONDS ?? 60);
const CLIENTS = 200;
const rowsOf = <T>(result: unknown) => (result as { rows?: T[] }).rows ?? (result as T[]);

async function listBench(database: Awaited<ReturnType<typeof benchDatabase>>) {
  const seeded = await seedScale(database.db, { proposals: 20_000, reviewers: REVIEWERS, categories: 40, reviewsPerReviewer: 20 });
  console.error(`seeded ${seeded.reviews} reviews in ${seeded.seconds} s`);
  const config = testConfig({ LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, db: database.db, jwtSecret: config.JWT_SECRET!, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/reviews/proposal-reviews/filtered?size=25`;
  const sample = rowsOf<{ proposal_id: number; anonymous_id: string; category_id: number; title: string }>(
    await database.db.execute(
      sql`select r.proposal_id, s.anonymous_id, p.category_id, p.title from reviews r join subscriptions s on s.id = r.subscription_id join proposals p on p.id = r.proposal_id order by random() limit 200`,
    ),
  );
  const page = (i: number) => `&page=${i % 10}`;
  const words = ['wallet', 'governance', 'defi', 'privacy', 'audit', 'music', 'bridge', 'oracle', 'staking', 'data'];
  const scenarios = [
    { name: 'no filter', urls: Array.from({ length: 10 }, (_, i) => `${base}${page(i)}`) },
    { name: 'proposal_id', urls: sample.map((row, i) => `${base}&proposal_id=${row.proposal_id}${page(i % 2)}`) },
    {
      name: 'assessors (2 ids)',
      urls: sample.map((row, i) => `${base}&assessors=${row.anonymous_id}&assessors=${sample[(i + 1) % sample.length]!.anonymous_id}`),
    },
    { name: 'rankings=1', urls: Array.from({ length: 10 }, (_, i) => `${base}&rankings=1${page(i)}`) },
    { name: 'rankings=2&include_pending', urls: Array.from({ length: 10 }, (_, i) => `${base}&rankings=2&include_pending=true${page(i)}`) },
    { name: 'objective', urls: sample.map((row, i) => `${base}&objective=${row.category_id}${page(i)}`) },
    { name: 'proposal title', urls: words.map((word, i) => `${base}&proposal=${word}${page(i)}`) },
    { name: 'event_id', urls: Array.from({ length: 10 }, (_, i) => `${base}&event_id=${seeded.eventId}${page(i)}`) },
    {
      name: 'combined: objective + rankings + title',
      urls: sample.map(
        (row, i) => `${base}&objective=${row.category_id}&rankings=1&include_pending=true&proposal=${words[i % words.length]}`,
      ),
    },
    {
      name: 'combined: proposal_id + assessors + rankings',
      urls: sample.map(
        (row) => `${base}&proposal_id=${row.proposal_id}&assessors=${row.anonymous_id}&rankings=0&rankings=1&rankings=2&rankings=3`,
      ),
    },
  ];
  const results = [];
  for (const scenario of scenarios) {
    await run(process.execPath, [join(here, 'lib/load.mjs'), loadSettings({ urls: scenario.urls, concurrency: 8, seconds: 1 })]);
    const { stdout } = await run(
      process.execPath,
      [join(here, 'lib/load.mjs'), loadSettings({ urls: scenario.urls, concurrency: 8, seconds: SECONDS })],
      { maxBuffer: 256 * 1024 * 1024 },
    );
    const { latencies, errors } = JSON.parse(stdout) as { latencies: number[]; errors: number };
    latencies.sort((a, b) => a - b);
    results.push({
      filter: scenario.name,
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
    `Reviews list: ${seeded.reviews.toLocaleString('en')} reviews on PostgreSQL, 8 clients, ${SECONDS} s per filter, pages 1–10 (target p95 ≤ 30 ms)`,
  );
  console.table(results);
  return { reviews: seeded.reviews, results };
}

async function submitBench(database: Awaited<ReturnType<typeof benchDatabase>>) {
  const seeded = await seedScale(database.db, {
    proposals: 2_000,
    reviewers: CLIENTS,
    categories: 40,
    reviewsPerReviewer: 0,
    authorShare: 0,
  });
  const config = testConfig({ LOG_LEVEL: 'silent', LOGIN_LIMIT_PER_ADDRESS: '100000', LOGIN_LIMIT_PER_ACCOUNT: '100000' });
  const app = await buildApp({ config, db: database.db, jwtSecret: config.JWT_SECRET!, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const ids = rowsOf<{ catalyst_id: string }>(
    await database.db.execute(
      sql`select c.catalyst_id from subscriptions s join users u on u.id = s.user_id join catalyst_ids c on c.id = u.catalyst_id_ref where s.event_id = ${seeded.eventId} order by s.id`,
    ),
  );
  const tokens: string[] = [];
  for (const { catalyst_id: id } of ids) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/reviews/users/token/login',
      payload: `username=${encodeURIComponent(id)}&password=${SCALE_PASSWORD}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    tokens.push(response.json().access_token);
  }
  const proposalIds = rowsOf<{ id: number }>(
    await database.db.execute(sql`select id from proposals where event_id = ${seeded.eventId} order by id`),
  ).map((row) => row.id);
  const { stdout } = await run(
    process.execPath,
    [
      join(here, 'lib/submit-load.mjs'),
      JSON.stringify({ url: `${origin}/api/reviews/proposal-reviews/`, tokens, proposalIds, perClient: 2_000, seconds: SUBMIT_SECONDS }),
    ],
    { maxBuffer: 512 * 1024 * 1024 },
  );
  const outcome = JSON.parse(stdout) as {
    latencies: number[];
    statuses: Record<string, number>;
    accepted: { row_id: number }[];
    seconds: number;
  };
  await app.close();
  const stored = rowsOf<{ n: number }>(
    await database.db.execute(sql`select count(*)::int as n from reviews where event_id = ${seeded.eventId}`),
  )[0]!.n;
  const duplicates = rowsOf<{ n: number }>(
    await database.db.execute(
      sql`select count(*)::int as n from (select subscription_id, proposal_id from reviews group by 1, 2 having count(*) > 1) d`,
    ),
  )[0]!.n;
  const acceptedIds = new Set(outcome.accepted.map((item) => item.row_id));
  const present = rowsOf<{ n: number }>(
    await database.db.execute(sql`select count(*)::int as n from reviews where id = any(${`{${[...acceptedIds].join(',')}}`}::int[])`),
  )[0]!.n;
  outcome.latencies.sort((a, b) => a - b);
  const summary = {
    clients: CLIENTS,
    seconds: round(outcome.seconds, 1),
    accepted: outcome.accepted.length,
    per_second: round(outcome.accepted.length / outcome.seconds, 0),
    statuses: JSON.stringify(outcome.statuses),
    p50_ms: round(percentile(outcome.latencies, 50), 1),
    p95_ms: round(percentile(outcome.latencies, 95), 1),
    stored,
    accepted_present: present,
    duplicates,
  };
  console.log(
    `Review submissions: ${CLIENTS} concurrent clients for ${SUBMIT_SECONDS} s (target ≥ 500/s, every accepted review stored, no duplicates)`,
  );
  console.table([summary]);
  return summary;
}

const report: Record<string, unknown> = { date: new Date().toISOString() };
for (const [name, bench] of [
  ['list', listBench],
  ['submit', submitBench],
] as const) {
  if (process.env.BENCH_ONLY && process.env.BENCH_ONLY !== name) continue;
  const database = await benchDatabase();
  try {
    report[name] = await bench(database);
  } finally {
    await database.drop();
  }
}
writeFileSync(join(here, 'results/reviews.json'), JSON.stringify(report, null, 2));
