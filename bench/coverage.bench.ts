/**
 * Moderation coverage (issue 28 item 1): the coverage view and the top-up dry run over a round of 1,000,000 reviews
 * (50,000 reviewers × 20; `seedRound`: 500 moderators, 400,000 moderation allocations, 4 per selected review, and
 * 200,000 moderations on the first half of them), target ≤ 2 s each. Measured through the service as the routes
 * call it (a fresh call each time; nothing is cached), then the limit: the same SQL statements (text and parameters
 * as drizzle sends them) run one after another on a plain pg connection. Median of BENCH_RUNS (5).
 * Writes bench/results/coverage.json. BENCH_REVIEWERS scales the round down.
 */
import { writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { PgDialect } from 'drizzle-orm/pg-core';
import type { SQL } from 'drizzle-orm';
import { upsertConfig } from '../apps/server/src/db/config-records';
import { authoredObjectives } from '../apps/server/src/db/rules';
import * as coverage from '../apps/server/src/modules/moderations/coverage.repository';
import { createCoverageService } from '../apps/server/src/modules/moderations/coverage.service';
import { allocationModerators } from '../apps/server/src/db/rules';
import { createEventsService } from '../apps/server/src/modules/events/events.service';
import { createRunsService } from '../apps/server/src/modules/runs/runs.service';
import { benchDatabase, round } from './lib/database';
import { seedRound } from './lib/round';

const here = fileURLToPath(new URL('.', import.meta.url));
const REVIEWERS = Number(process.env.BENCH_REVIEWERS ?? 50_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const loadAverage = () => round(loadavg()[0]!, 1);

async function timed<T>(runs: number, work: () => Promise<T>) {
  const seconds: number[] = [];
  let last!: T;
  for (let i = 0; i < runs; i += 1) {
    const t0 = performance.now();
    last = await work();
    seconds.push(round((performance.now() - t0) / 1000, 3));
  }
  return { median: median(seconds), runs: seconds, last };
}

const database = await benchDatabase();
const report: Record<string, unknown> = { date: new Date().toISOString() };
try {
  const seeded = await seedRound(database.db, { reviewers: REVIEWERS });
  const eventId = seeded.eventId;
  // seed-scale writes the allocation's rows, not the run: its flag is set here; its 4 per review is the default.
  await upsertConfig(database.db, 'allocations', eventId, { proposal_allocation_generated: true, moderation_allocation_generated: true });
  console.error(`seeded ${seeded.reviews} reviews, ${seeded.moderationAllocations} allocations, ${seeded.moderations} moderations`);

  const events = createEventsService(database.db);
  const service = createCoverageService({ db: database.db, runs: createRunsService({ db: database.db, events }), events });
  const page = { size: 25, page: 0 };
  const topUpParams = { event_id: eventId, top_up_seed: 1, break_ties: true, dry_run: true };
  const loadBefore = loadAverage();
  const summary = await timed(RUNS, () => service.summary(eventId));
  const shortPage = await timed(RUNS, () => service.reviews(eventId, 'short', page));
  const moderatorsPage = await timed(RUNS, () => service.moderators(eventId, page));
  const dryRun = await timed(RUNS, () => service.topUp(seeded.adminUserId, topUpParams));

  // The limit: the statements each of them runs, captured as drizzle sends them, replayed on a plain connection.
  const { dialect } = database.db as unknown as { dialect: PgDialect };
  const captured = async (work: (db: never) => Promise<unknown>) => {
    const statements: { sql: string; params: unknown[] }[] = [];
    const capture = {
      execute: (query: SQL) => {
        statements.push(dialect.sqlToQuery(query));
        return Promise.resolve({ rows: [{}] });
      },
    };
    await work(capture as never);
    return statements;
  };
  const rule = { eventId, perReview: 4, breakTies: true };
  const summarySql = await captured(async (db) => {
    await coverage.allocationPerReview(db, eventId);
    await coverage.coverageCounts(db, rule);
    await coverage.unfinishedCounts(db, eventId);
    await coverage.topUpCounts(db, eventId);
  });
  const shortPageSql = await captured(async (db) => {
    await coverage.allocationPerReview(db, eventId);
    await coverage.coverageReviews(db, rule, 'short', page);
  });
  const moderatorsPageSql = await captured((db) => coverage.unfinishedModerators(db, eventId, page));
  const topUpSql = [
    ...(await captured(async (db) => {
      await coverage.allocationPerReview(db, eventId);
      await coverage.topUpReviews(db, rule);
      await coverage.unfinishedPerSubscription(db, eventId);
    })),
    allocationModerators(database.db, eventId).toSQL(),
    authoredObjectives(database.db, { eventId }).toSQL(),
  ];
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const replay = (statements: { sql: string; params: unknown[] }[]) =>
    timed(RUNS, async () => {
      for (const statement of statements) await client.query(statement.sql, statement.params);
    });
  let rawSummary, rawShortPage, rawModeratorsPage, rawTopUp;
  try {
    rawSummary = await replay(summarySql);
    rawShortPage = await replay(shortPageSql);
    rawModeratorsPage = await replay(moderatorsPageSql);
    rawTopUp = await replay(topUpSql);
  } finally {
    await client.end();
  }

  const rows = [
    { scenario: 'coverage figures (GET moderations/coverage)', seconds: summary.median, raw_sql_seconds: rawSummary.median },
    { scenario: 'short reviews, first page', seconds: shortPage.median, raw_sql_seconds: rawShortPage.median },
    { scenario: 'unfinished moderators, first page', seconds: moderatorsPage.median, raw_sql_seconds: rawModeratorsPage.median },
    { scenario: 'top-up dry run (POST moderations/top-up)', seconds: dryRun.median, raw_sql_seconds: rawTopUp.median },
  ].map((row) => ({ ...row, ratio: row.raw_sql_seconds ? round(row.seconds / row.raw_sql_seconds, 2) : null }));
  console.log(
    `Moderation coverage: ${seeded.reviews.toLocaleString('en')} reviews, ${seeded.moderationAllocations.toLocaleString('en')} allocations, ${seeded.moderations.toLocaleString('en')} moderations on PostgreSQL; median of ${RUNS} (target ≤ 2 s each); load average before ${loadBefore}`,
  );
  console.table(rows);
  console.log(`coverage: ${JSON.stringify(summary.last)}\ntop-up dry run: ${JSON.stringify({ ...dryRun.last, histograms: undefined })}`);
  Object.assign(report, {
    reviews: seeded.reviews,
    allocations: seeded.moderationAllocations,
    moderations: seeded.moderations,
    load_average_before: loadBefore,
    results: rows,
    runs: { summary: summary.runs, shortPage: shortPage.runs, moderatorsPage: moderatorsPage.runs, dryRun: dryRun.runs },
    raw_runs: { summary: rawSummary.runs, shortPage: rawShortPage.runs, moderatorsPage: rawModeratorsPage.runs, topUp: rawTopUp.runs },
    coverage: summary.last,
    top_up: { ...dryRun.last, histograms: undefined },
  });
} finally {
  await database.drop();
}
writeFileSync(join(here, 'results/coverage.json'), JSON.stringify(report, null, 2));
