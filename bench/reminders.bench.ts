/**
 * Issue 27, "Queue 100,000 reminder mails (100,000 reviewers with unfinished allocations) in ≤ 10 s": one PostgreSQL
 * round of BENCH_REVIEWERS (default 100,000) LV0 reviewers with 5 allocated proposals each, 2 of them reviewed, and
 * review reminders on; `runDueReminders(now)` at 71 hours before the review window closes queues the 72-hour
 * reminder: one INSERT … SELECT of a mail per reviewer (params, no bodies) in the transaction that records the
 * reminder. Its limit: the same INSERT … SELECT (text and parameters) replayed raw on a plain connection, after the
 * first run's rows were removed. Each is run BENCH_RUNS (default 3) times on an emptied outbox; the median counts.
 * Writes bench/results/reminders.json.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import type { PgDialect } from 'drizzle-orm/pg-core';
import { upsertConfig } from '../apps/server/src/db/config-records';
import { queueReviewReminders } from '../apps/server/src/modules/notifications/notifications.repository';
import { createRemindersService } from '../apps/server/src/modules/notifications/reminders.service';
import { seedScale } from '../apps/server/src/scale-seed';
import { benchDatabase, round } from './lib/database';
import { loadAverage } from './lib/processes';

const here = fileURLToPath(new URL('.', import.meta.url));
const REVIEWERS = Number(process.env.BENCH_REVIEWERS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const HOUR = 3_600_000;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const rowsOf = <T>(result: unknown) => (result as { rows?: T[] }).rows ?? (result as T[]);

const database = await benchDatabase();
const report: Record<string, unknown> = { date: new Date().toISOString() };
try {
  const seeded = await seedScale(database.db, {
    proposals: 2_000,
    reviewers: REVIEWERS,
    categories: 20,
    lv1Share: 0,
    authorShare: 0,
    reviewsPerReviewer: 2,
  });
  const eventId = seeded.eventId;
  // Each reviewer: their two reviewed proposals and three more allocated, so 2 of 5 are done.
  const started = performance.now();
  await database.db.execute(sql`
    insert into proposal_allocations (event_id, subscription_id, proposal_id)
    select ${eventId}, r.subscription_id, r.proposal_id from reviews r where r.event_id = ${eventId}
    on conflict do nothing`);
  await database.db.execute(sql`
    insert into proposal_allocations (event_id, subscription_id, proposal_id)
    select ${eventId}, s.id, p.id
    from subscriptions s
    cross join generate_series(1, 3) as k
    join lateral (
      select id from proposals where event_id = ${eventId} order by id offset ((s.id * 7 + k * 311) % 1500) limit 1
    ) p on true
    where s.event_id = ${eventId} and s.role < 2
    on conflict do nothing`);
  await database.db.execute(sql`analyze`);
  const [counts] = rowsOf<{ allocations: number; reviewers: number }>(
    await database.db.execute(
      sql`select count(*)::int as allocations, count(distinct subscription_id)::int as reviewers from proposal_allocations where event_id = ${eventId}`,
    ),
  );
  console.error(
    `seeded ${seeded.reviewers} reviewers, ${seeded.reviews} reviews in ${seeded.seconds} s; ${counts!.allocations} allocations in ${round((performance.now() - started) / 1000)} s`,
  );

  const windowEnd = new Date(Date.now() + 10 * 24 * HOUR);
  windowEnd.setUTCMilliseconds(0);
  await upsertConfig(database.db, 'reviews', eventId, {
    reviewer_subscription_enabled: true,
    review_submission_enabled: true,
    review_submission_ends_at: windowEnd.toISOString(),
  });
  await upsertConfig(database.db, 'notifications', eventId, {
    review_reminders_enabled: true,
    moderation_reminders_enabled: false,
    hours_before: [72, 24],
  });
  const reminders = createRemindersService({ db: database.db });
  const now = new Date(windowEnd.getTime() - 71 * HOUR);
  const reset = async () => {
    await database.db.execute(sql`delete from outbox`);
    await database.db.execute(sql`delete from reminder_runs`);
    await database.db.execute(sql`vacuum analyze outbox`);
  };

  // The endpoint: runDueReminders, as the scheduler calls it.
  const runs: { seconds: number; queued: number; load_avg_before: number }[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    await reset();
    const load = loadAverage();
    const t0 = performance.now();
    const outcomes = await reminders.runDueReminders(now);
    runs.push({ seconds: round((performance.now() - t0) / 1000, 2), queued: outcomes[0]?.queued ?? 0, load_avg_before: load });
  }

  // The limit: the same statement, its text and parameters as drizzle sends them, on a plain pg connection.
  const { dialect } = database.db as unknown as { dialect: PgDialect };
  const [event] = rowsOf<{ name: string }>(await database.db.execute(sql`select name from events where id = ${eventId}`));
  const context = { eventId, eventName: event!.name, windowEnd: windowEnd.toISOString(), hoursBefore: 72 };
  let statement: { sql: string; params: unknown[] } | undefined;
  const capture = {
    execute: (query: Parameters<PgDialect['sqlToQuery']>[0]) => {
      statement = dialect.sqlToQuery(query);
      return Promise.resolve({ rows: [{ queued: 0 }] });
    },
  };
  await queueReviewReminders(capture as never, context);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const raw: { seconds: number; queued: number; load_avg_before: number }[] = [];
  try {
    for (let i = 0; i < RUNS; i += 1) {
      await reset();
      const load = loadAverage();
      const t0 = performance.now();
      const result = await client.query(statement!.sql, statement!.params);
      raw.push({ seconds: round((performance.now() - t0) / 1000, 2), queued: Number(result.rows[0].queued), load_avg_before: load });
    }
  } finally {
    await client.end();
  }

  const endpointSeconds = median(runs.map((run) => run.seconds));
  const rawSeconds = median(raw.map((run) => run.seconds));
  report.reminders = {
    reviewers: seeded.reviewers,
    allocations: counts!.allocations,
    reviews: seeded.reviews,
    target_seconds: 10,
    runDueReminders: { median_seconds: endpointSeconds, runs },
    limit_raw_insert_select: { median_seconds: rawSeconds, runs: raw },
    ratio: round(endpointSeconds / rawSeconds, 2),
  };
  console.log(
    `Queue the review reminder: ${seeded.reviewers.toLocaleString('en')} reviewers with unfinished allocations (${counts!.allocations.toLocaleString('en')} allocations, ${seeded.reviews.toLocaleString('en')} reviews), median of ${RUNS} (target ≤ 10 s)`,
  );
  console.log('| | seconds (median) | mails queued | load average before |');
  console.log('| --- | ---: | ---: | --- |');
  console.log(`| runDueReminders(now) | ${endpointSeconds} | ${runs[0]!.queued.toLocaleString('en')} | ${runs[0]!.load_avg_before} |`);
  console.log(
    `| limit: the same INSERT … SELECT raw | ${rawSeconds} | ${raw[0]!.queued.toLocaleString('en')} | ${raw[0]!.load_avg_before} |`,
  );
  console.log(`ratio runDueReminders / raw: ${round(endpointSeconds / rawSeconds, 2)}`);
} finally {
  await database.drop();
}
writeFileSync(join(here, 'results/reminders.json'), JSON.stringify(report, null, 2));
