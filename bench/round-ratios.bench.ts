/**
 * Every list and read endpoint the web app uses, on the whole round of issue 18 item 1 (lib/round.ts `seedRound`:
 * 20,000 proposals, 50,000 reviewers × 20 = 1,000,000 reviews, 500 moderators, 400,000 moderation allocations,
 * 200,000 moderations, proposal allocations, scores), each against its limits in the same run (lib/ratios.ts
 * `endpointRatios`): the API (the server in a process of its own, 8 clients in another) against the statements one
 * warm request ran, replayed raw (unprepared and prepared) from another process, and against a bare Fastify route
 * answering a body of the same size. Targets: p95 ≤ 30 ms, API ÷ raw SQL ≤ 2.
 * BENCH_REVIEWERS (50,000), BENCH_PROPOSALS (20,000), BENCH_SECONDS (5 per measurement), BENCH_CONCURRENCY (8) and
 * BENCH_ONLY (comma-separated words of the scenario names) scale it. Writes bench/results/round-ratios.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type SQL } from 'drizzle-orm';
import { buildApp } from '../apps/server/src/app';
import { testConfig } from '../apps/server/src/config';
import { SCALE_PASSWORD } from '../apps/server/src/scale-seed';
import { benchDatabase } from './lib/database';
import { captureQueries, loadAverage, login, startServer } from './lib/processes';
import { endpointRatios, type Statement } from './lib/ratios';
import { roundAccounts, seedRound } from './lib/round';

const here = fileURLToPath(new URL('.', import.meta.url));
const REVIEWERS = Number(process.env.BENCH_REVIEWERS ?? 50_000);
const PROPOSALS = Number(process.env.BENCH_PROPOSALS ?? 20_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const ONLY = process.env.BENCH_ONLY?.split(',');
const rowsOf = <T>(result: unknown) => (result as { rows?: T[] }).rows ?? (result as T[]);

const database = await benchDatabase();
const report: Record<string, unknown> = { date: new Date().toISOString() };
let server: Awaited<ReturnType<typeof startServer>> | undefined;
try {
  const seeded = await seedRound(database.db, { reviewers: REVIEWERS, proposals: PROPOSALS });
  console.error(
    `seeded ${seeded.reviews} reviews, ${seeded.moderationAllocations} moderation allocations, ${seeded.moderations} moderations in ${seeded.seconds} s, completed in ${seeded.completedSeconds} s`,
  );
  report.seeded = seeded;
  const eventId = seeded.eventId;
  const db = database.db;
  const one = async <T>(query: SQL) => rowsOf<T>(await db.execute(query))[0]!;
  const [reviewer] = await roundAccounts(db, eventId, 'reviewer', 1);
  const [moderator] = await roundAccounts(db, eventId, 'moderator', 1);
  // The ids the detail endpoints read: the reviewer's own review, a proposal and category, the moderator's moderation.
  const own = await one<{ id: number; proposal_id: number }>(
    sql`select id, proposal_id from reviews where subscription_id = ${reviewer!.subscriptionId} order by id limit 1`,
  );
  const moderation = await one<{ id: number; review_id: number }>(
    sql`select id, review_id from moderations where subscription_id = ${moderator!.subscriptionId} order by id limit 1`,
  );
  const category = await one<{ id: number }>(sql`select id from categories where event_id = ${eventId} order by id limit 1`);
  const reviewIds = rowsOf<{ id: number }>(
    await db.execute(sql`select id from reviews where event_id = ${eventId} order by id desc limit 20`),
  ).map((row) => row.id);

  server = await startServer(database.url);
  const tokens = {
    anonymous: undefined,
    reviewer: await login(server.origin, reviewer!.catalystId, SCALE_PASSWORD),
    moderator: await login(server.origin, moderator!.catalystId, SCALE_PASSWORD),
    admin: await login(server.origin, seeded.admin, SCALE_PASSWORD),
  };
  type Who = keyof typeof tokens;
  const page = Math.floor(PROPOSALS / 50);
  const scenarios: { name: string; path: string; who: Who }[] = [
    { name: 'users/me', path: 'users/me/', who: 'reviewer' },
    { name: 'catalyst-ids/me', path: 'catalyst-ids/me', who: 'reviewer' },
    { name: 'events, current', path: 'events/current/', who: 'anonymous' },
    { name: 'events, list', path: 'events/?size=25&page=0', who: 'admin' },
    { name: 'event', path: `events/${eventId}/`, who: 'anonymous' },
    { name: 'categories', path: `categories/?event_id=${eventId}`, who: 'anonymous' },
    { name: 'configs/reviews', path: `configs/reviews/${eventId}/`, who: 'anonymous' },
    { name: 'configs/level-qualifiers', path: `configs/reviews-level-qualifiers/${eventId}/`, who: 'admin' },
    { name: 'configs/allocations', path: `configs/allocations/${eventId}/`, who: 'admin' },
    { name: 'configs/status', path: 'configs/status/', who: 'anonymous' },
    { name: 'dashboard', path: `events/${eventId}/dashboard/`, who: 'admin' },
    { name: 'proposals, first page', path: 'proposals/?size=25&page=0', who: 'anonymous' },
    { name: 'proposals, deep page', path: `proposals/?size=25&page=${page}`, who: 'anonymous' },
    { name: 'proposals, title filter', path: 'proposals/?size=25&page=0&title=wallet', who: 'anonymous' },
    { name: 'proposals, category filter', path: `proposals/?size=25&page=0&category=${category.id}`, who: 'anonymous' },
    { name: 'proposals, event + title', path: `proposals/?size=25&page=1&event_id=${eventId}&title=open`, who: 'anonymous' },
    { name: 'proposal', path: `proposals/${own.proposal_id}/`, who: 'reviewer' },
    { name: 'proposals, allocated', path: 'proposals/allocated?size=25&page=0', who: 'reviewer' },
    { name: 'proposal, submitted review', path: `proposals/${own.proposal_id}/submitted-review/`, who: 'reviewer' },
    { name: 'reviews, no filter', path: 'proposal-reviews/filtered?size=25&page=0', who: 'anonymous' },
    { name: 'reviews, event filter', path: `proposal-reviews/filtered?size=25&page=0&event_id=${eventId}`, who: 'anonymous' },
    { name: 'reviews, rankings=1', path: 'proposal-reviews/filtered?size=25&page=0&rankings=1', who: 'anonymous' },
    { name: 'reviews, proposal', path: `proposal-reviews/filtered?size=25&page=0&proposal_id=${own.proposal_id}`, who: 'anonymous' },
    { name: 'reviews, proposal title', path: 'proposal-reviews/filtered?size=25&page=0&proposal=wallet', who: 'anonymous' },
    { name: 'reviews, objective', path: `proposal-reviews/filtered?size=25&page=0&objective=${category.id}`, who: 'anonymous' },
    { name: 'reviews, my reviews', path: 'proposal-reviews/filtered?size=25&page=0&my_reviews=true', who: 'reviewer' },
    { name: 'review', path: `proposal-reviews/${own.id}/`, who: 'reviewer' },
    { name: 'reviews by ids (20)', path: `proposal-reviews/by-ids/?${reviewIds.map((id) => `ids=${id}`).join('&')}`, who: 'moderator' },
    { name: 'moderator: allocated', path: 'proposal-reviews/allocated/?size=25&page=0', who: 'moderator' },
    { name: 'moderator: allocated count', path: 'proposal-reviews/allocated/count/', who: 'moderator' },
    { name: 'moderator: moderated', path: 'proposal-reviews/moderated/?size=25&page=0', who: 'moderator' },
    { name: 'moderator: moderated count', path: 'proposal-reviews/moderated/count/', who: 'moderator' },
    { name: 'moderations of a review', path: `moderations/by-review/${moderation.review_id}/`, who: 'moderator' },
    { name: 'moderation', path: `moderations/${moderation.id}/`, who: 'moderator' },
    { name: 'moderation stats', path: `moderations/stats/?event_id=${eventId}`, who: 'admin' },
    { name: 'admin: users', path: 'admin/users?size=25&page=0', who: 'admin' },
    { name: 'admin: users search', path: 'admin/users?size=25&page=0&search=scale', who: 'admin' },
    { name: 'admin: user', path: `admin/users/${reviewer!.userId}`, who: 'admin' },
  ].filter((scenario) => !ONLY || ONLY.some((word) => scenario.name.includes(word))) as { name: string; path: string; who: Who }[];

  // The statements come from the app in this process (same database, same JWT secret), warmed like the server.
  const config = testConfig({ LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, db, jwtSecret: config.JWT_SECRET!, logger: false });
  const rows = [];
  for (const scenario of scenarios) {
    const token = tokens[scenario.who];
    const headers = token ? { authorization: `Bearer ${token}` } : undefined;
    const request = () => app.inject({ url: `/api/reviews/${scenario.path}`, headers });
    for (let i = 0; i < 3; i += 1) await request();
    let body = '';
    let contentType: string | undefined;
    const statements = (await captureQueries(async () => {
      const response = await request();
      if (response.statusCode !== 200) throw new Error(`${scenario.name}: ${response.statusCode} ${response.body.slice(0, 300)}`);
      body = response.body;
      contentType = String(response.headers['content-type'] ?? '');
    })) as Statement[];
    const loadAvg = loadAverage();
    const row = {
      endpoint: scenario.name,
      ...(await endpointRatios({
        url: `${server.origin}/api/reviews/${scenario.path}`,
        headers,
        statements,
        body,
        contentType,
        databaseUrl: database.url,
        concurrency: CONCURRENCY,
        seconds: SECONDS,
      })),
      load_avg: loadAvg,
    };
    console.error(JSON.stringify(row));
    rows.push(row);
  }
  await app.close();
  report.rows = rows;
  console.log(
    `Read endpoints on the whole round: ${seeded.proposals.toLocaleString('en')} proposals, ${seeded.reviews.toLocaleString('en')} reviews, ${seeded.moderationAllocations.toLocaleString('en')} moderation allocations; ${CONCURRENCY} clients, ${SECONDS} s each (targets p95 ≤ 30 ms, API ÷ raw ≤ 2)`,
  );
  console.table(
    rows.map((row) => ({
      endpoint: row.endpoint,
      stmts: row.statements,
      kb: row.body_kb,
      rps: row.api_rps,
      p50: row.api_p50,
      p95: row.api_p95,
      p99: row.api_p99,
      'raw p95': row.raw_p95,
      'prep p95': row.prep_p95,
      'bare p95': row.bare_p95,
      'api/raw p95': row['api/raw p95'],
      'api/bare p95': row['api/bare p95'],
      err: row.api_errors,
      load: row.load_avg,
    })),
  );
} finally {
  await server?.stop();
  await database.drop();
}
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results/round-ratios.json'), JSON.stringify(report, null, 2));
