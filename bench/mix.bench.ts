/**
 * A realistic mix on the whole round (issue 18 item 2): BENCH_USERS (200) simulated users for BENCH_SECONDS (300)
 * from a second process (lib/mix-load.mjs) against the server in a process of its own on PostgreSQL, the round of
 * lib/round.ts `seedRound` (BENCH_REVIEWERS 50,000 × 20 reviews, 500 moderators, 400,000 moderation allocations,
 * 200,000 moderations; review and moderation submission open). One admin (dashboard, stats, users, lists, a CSV export
 * every BENCH_EXPORT_EVERY s, 60; none with BENCH_ADMIN=0), BENCH_MODERATORS (10 % of the users) moderators reading their lists and saving
 * moderations on their allocations, and reviewers browsing and filtering proposals and reviews, reading pages,
 * submitting reviews on their allocations and editing their own. Each user waits a think time, uniform in
 * [BENCH_THINK_MS − BENCH_THINK_SPREAD_MS, BENCH_THINK_MS + BENCH_THINK_SPREAD_MS) (1,000 ms ± 1,000 ms: [0, 2 s)), between
 * actions; BENCH_THINK_MS=0 makes it a closed loop. BENCH_FROM=<database> runs on a copy of a round kept by another
 * bench (`BENCH_KEEP=1 npm run bench list-ratios` keeps `cr_bench_lists_20000_50000`, the same seedRound) instead of
 * seeding one. Issue 30 item 6's mix: BENCH_USERS=180 BENCH_MODERATORS=20 BENCH_THINK_SPREAD_MS=500
 * BENCH_SECONDS=120 (targets: reads p95 ≤ 50 ms, writes p95 ≤ 80 ms). BENCH_CPU_PROF=<dir>: the servers' CPU profiles.
 * BENCH_COLD=1: PostgreSQL restarted and the page cache dropped before the server starts (a cold machine: issue 45 item
 * 14; BENCH_TIMELINE=1 then shows the first 10 s against the rest).
 * Reports p50/p95/p99 per endpoint (targets: reads ≤ 50 ms, writes ≤ 80 ms; issue 18's were 100 and 300), the errors (target 0) and, afterwards,
 * every acknowledged write checked in the database: each created review and moderation present, each edited review
 * and moderation holding its last acknowledged edit (or a later unacknowledged one). With BENCH_INSTANCES=n the same
 * mix goes through HAProxy (Debian's haproxy, lib/haproxy.ts) to n server processes on the one database (item 3;
 * BENCH_INSTANCES=1 measures one instance behind the same proxy). Writes bench/results/mix[-<n>-instances].json.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql, type SQL } from 'drizzle-orm';
import { arrayLiteral, SCALE_PASSWORD } from '../apps/server/src/scale-seed';
import { benchDatabase, copiedBenchDatabase, loadSettings, percentile, round } from './lib/database';
import { haproxyInstalled, startHaproxy } from './lib/haproxy';
import { loadAverage, login, rssSampler, startServer } from './lib/processes';
import { roundAccounts, seedRound } from './lib/round';

const here = fileURLToPath(new URL('.', import.meta.url));
/** The local PostgreSQL cluster's version (its folder under /etc/postgresql), for BENCH_COLD's restart. */
const PG_CLUSTER_VERSION = () => readdirSync('/etc/postgresql')[0]!;
const run = promisify(execFile);
const REVIEWERS = Number(process.env.BENCH_REVIEWERS ?? 50_000);
const PROPOSALS = Number(process.env.BENCH_PROPOSALS ?? 20_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 300);
const USERS = Number(process.env.BENCH_USERS ?? 200);
const MODERATORS = Number(process.env.BENCH_MODERATORS ?? Math.round(USERS / 10));
/** BENCH_ADMIN=0: no admin among the users (the independent load test's mix: reviewers and moderators only). */
const ADMINS = process.env.BENCH_ADMIN === '0' ? 0 : 1;
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 1_000);
const THINK_SPREAD_MS = Math.min(THINK_MS, Number(process.env.BENCH_THINK_SPREAD_MS ?? THINK_MS));
const FROM = process.env.BENCH_FROM;
/** BENCH_WARMUP_SECONDS: the same load first, untimed, on the just-started server (its writes are checked too). */
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 0);
const EXPORT_EVERY = Number(process.env.BENCH_EXPORT_EVERY ?? 60);
const INSTANCES = process.env.BENCH_INSTANCES ? Number(process.env.BENCH_INSTANCES) : undefined;
if (INSTANCES && !haproxyInstalled()) {
  console.log('mix: BENCH_INSTANCES needs haproxy (apt-get install -y haproxy); skipped.');
  process.exit(0);
}
const WORDS = ['wallet', 'open', 'governance', 'education', 'identity', 'payments', 'defi', 'oracle', 'tooling', 'community'];
const rowsOf = <T>(result: unknown) => (result as { rows?: T[] }).rows ?? (result as T[]);
const ids = (values: number[]) => sql`${arrayLiteral(values)}::int[]`;

type MixResult = {
  /** Per label: each acknowledged request's latency and its start (ms since the load began), in the same order. */
  labels: Record<string, { latencies: number[]; starts: number[]; errors: number; statuses: Record<string, number> }>;
  firstErrors: unknown[];
  writes: {
    reviewCreates: { row_id: number; proposal_id: number; subscription_id: number }[];
    reviewEdits: { row_id: number; marker: string; acked: boolean }[];
    moderationCreates: { id: number; review_id: number; subscription_id: number }[];
    moderationEdits: { id: number; marker: string; acked: boolean }[];
  };
  seconds: number;
};

/**
 * pg_stat_statements, when the PostgreSQL server has it loaded: reset before the mix, then the statements that took
 * the most time in it. Without it (the default configuration), nothing.
 */
async function statementStats(query: <T>(statement: SQL) => Promise<T[]>) {
  // The extension can be created where the library is not loaded; only the reset tells.
  const available = await query(sql`create extension if not exists pg_stat_statements`)
    .then(() => query(sql`select pg_stat_statements_reset()`))
    .then(
      () => true,
      () => false,
    );
  return {
    top: async (count: number) =>
      available
        ? query<Record<string, unknown>>(sql`
            select calls, round(total_exec_time::numeric, 0) as total_ms, round(mean_exec_time::numeric, 2) as mean_ms,
              round(total_plan_time::numeric, 0) as plan_ms, rows, shared_blks_read as blks_read,
              left(regexp_replace(query, '[[:space:]]+', ' ', 'g'), 160) as query
            from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
            order by total_exec_time + total_plan_time desc limit ${count}`)
        : [],
  };
}

/** Of a sequence of edits per row, the markers the row may hold: from the last acknowledged edit on. */
function acceptable(edits: { id: number; marker: string; acked: boolean }[]) {
  const byRow = new Map<number, { marker: string; acked: boolean }[]>();
  for (const edit of edits) byRow.set(edit.id, [...(byRow.get(edit.id) ?? []), edit]);
  const out = new Map<number, Set<string>>();
  for (const [id, list] of byRow) {
    const last = list.findLastIndex((edit) => edit.acked);
    if (last >= 0) out.set(id, new Set(list.slice(last).map((edit) => edit.marker)));
  }
  return out;
}

type Seeded = Awaited<ReturnType<typeof seedRound>>;
const database = FROM ? await copiedBenchDatabase<Seeded>(FROM) : { ...(await benchDatabase()), seeded: undefined };
const report: Record<string, unknown> = { date: new Date().toISOString() };
const servers: Awaited<ReturnType<typeof startServer>>[] = [];
let proxy: Awaited<ReturnType<typeof startHaproxy>> | undefined;
try {
  const db = database.db;
  const query = async <T>(statement: SQL) => rowsOf<T>(await db.execute(statement));
  const seeded = database.seeded ?? (await seedRound(db, { reviewers: REVIEWERS, proposals: PROPOSALS }));
  console.error(
    `seeded ${seeded.reviews} reviews, ${seeded.moderationAllocations} moderation allocations, ${seeded.moderations} moderations in ${seeded.seconds} s, completed in ${seeded.completedSeconds} s`,
  );
  report.seeded = seeded;
  const eventId = seeded.eventId;
  const reviewers = await roundAccounts(db, eventId, 'reviewer', USERS - ADMINS - MODERATORS);
  const moderators = await roundAccounts(db, eventId, 'moderator', MODERATORS);

  // What each user may write: reviewers their allocations not yet reviewed and their reviews, moderators their
  // allocations not yet moderated and their moderations.
  const reviewerSubs = reviewers.map((account) => account.subscriptionId);
  const moderatorSubs = moderators.map((account) => account.subscriptionId);
  const allocations = await query<{ subscription_id: number; proposal_id: number }>(sql`
    select pa.subscription_id, pa.proposal_id from proposal_allocations pa
    where pa.subscription_id = any(${ids(reviewerSubs)}) and not exists
      (select 1 from reviews r where r.subscription_id = pa.subscription_id and r.proposal_id = pa.proposal_id)
    order by pa.subscription_id, pa.proposal_id`);
  const reviews = await query<{ id: number; subscription_id: number; proposal_id: number }>(
    sql`select id, subscription_id, proposal_id from reviews where subscription_id = any(${ids(reviewerSubs)}) order by id`,
  );
  const toModerate = await query<{ subscription_id: number; review_id: number }>(sql`
    select ma.subscription_id, ma.review_id from moderation_allocations ma
    where ma.subscription_id = any(${ids(moderatorSubs)}) and not exists
      (select 1 from moderations m where m.subscription_id = ma.subscription_id and m.review_id = ma.review_id)
    order by ma.subscription_id, ma.review_id`);
  const moderations = await query<{ id: number; subscription_id: number; review_id: number }>(
    sql`select id, subscription_id, review_id from moderations where subscription_id = any(${ids(moderatorSubs)}) order by id`,
  );
  const of = <T extends { subscription_id: number }>(rows: T[], subscriptionId: number) =>
    rows.filter((row) => row.subscription_id === subscriptionId);
  const proposalIds = (
    await query<{ id: number }>(sql`select id from proposals where event_id = ${eventId} order by random() limit 500`)
  ).map((row) => row.id);
  const categoryIds = (await query<{ id: number }>(sql`select id from categories where event_id = ${eventId}`)).map((row) => row.id);
  const perModerator = Math.floor(seeded.moderationAllocations / seeded.moderators);

  // BENCH_CPU_PROF=<dir>: each server writes a CPU profile of the whole run there when it stops (node --cpu-prof).
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const startServers = async () => {
    for (let i = 0; i < (INSTANCES ?? 1); i += 1) servers.push(await startServer(database.url, profile));
    if (INSTANCES) proxy = await startHaproxy(servers.map((server) => Number(new URL(server.origin).port)));
    return proxy ? `http://127.0.0.1:${proxy.port}` : servers[0]!.origin;
  };
  let origin = await startServers();
  // Log in 8 at a time (argon2id is bounded in the server; its queue holds 64).
  const admins = ADMINS ? [{ catalystId: seeded.admin, subscriptionId: 0, userId: seeded.adminUserId }] : [];
  const accounts = [...admins, ...moderators, ...reviewers];
  const tokens: string[] = [];
  const loginStarted = performance.now();
  for (let i = 0; i < accounts.length; i += 8)
    tokens.push(...(await Promise.all(accounts.slice(i, i + 8).map((account) => login(origin, account.catalystId, SCALE_PASSWORD)))));
  console.error(`${tokens.length} users logged in in ${round((performance.now() - loginStarted) / 1000)} s`);
  const users = accounts.map((account, i) => {
    const token = tokens[i]!;
    if (i < admins.length) return { kind: 'admin', token };
    if (i < admins.length + moderators.length)
      return {
        kind: 'moderator',
        token,
        subscriptionId: account.subscriptionId,
        pages: Math.max(1, Math.floor(perModerator / 25)),
        moderate: of(toModerate, account.subscriptionId).map((row) => row.review_id),
        moderations: of(moderations, account.subscriptionId).map((row) => ({ id: row.id, review_id: row.review_id })),
      };
    const own = of(reviews, account.subscriptionId);
    return {
      kind: 'reviewer',
      token,
      subscriptionId: account.subscriptionId,
      allocations: of(allocations, account.subscriptionId).map((row) => row.proposal_id),
      reviews: own.map((row) => row.id),
      reviewed: own.map((row) => row.proposal_id),
    };
  });

  /** The mix's load process (lib/mix-load.mjs) for `seconds`, against the servers at `origin`; its JSON report. */
  const runLoad = (seconds: number, warmupSeconds: number, loadUsers: typeof users = users) =>
    run(
      process.execPath,
      [
        join(here, 'lib/mix-load.mjs'),
        loadSettings({
          base: `${origin}/api/reviews`,
          seconds,
          thinkMs: THINK_MS,
          thinkSpreadMs: THINK_SPREAD_MS,
          eventId,
          proposalIds,
          categoryIds,
          words: WORDS,
          proposalPages: Math.ceil(PROPOSALS / 25),
          reviewPages: Math.min(400, Math.ceil(seeded.reviews / 25)),
          exportEvery: EXPORT_EVERY,
          warmupSeconds,
          users: loadUsers,
        }),
      ],
      { maxBuffer: 1024 * 1024 * 1024 },
    );

  // BENCH_COLD=1: a cold machine under the cold server (issue 45 item 14). The round is served first for
  // BENCH_COLD_BEFORE_SECONDS (30) by the same users, its statistics of use counted from then on (what the database
  // knows of a round it served); then the servers stop, PostgreSQL restarts (empty shared buffers, new backends) and
  // the kernel's page cache is dropped (the tables read from disk again), as after a reboot, and new servers start.
  // The users' sessions live in the database: their tokens hold across.
  if (process.env.BENCH_COLD === '1') {
    // The server's warm-up reads the most used relations back with pg_prewarm where it is installed (a superuser's
    // step, as an operator's; BENCH_PREWARM=0 leaves it out, and WARM_UP_PREWARM_MB=0 keeps the server from using it).
    if (process.env.BENCH_PREWARM !== '0') await query(sql`create extension if not exists pg_prewarm`);
    await query(sql`select pg_stat_reset()`);
    // Each user's second half of what is left to create goes to this run, the first half to the timed one (no create
    // twice); edits may touch the same rows, the later run's being the last.
    const half = <T>(items: T[] | undefined, second: boolean) =>
      items && (second ? items.slice(Math.ceil(items.length / 2)) : items.slice(0, Math.ceil(items.length / 2)));
    const split = (second: boolean) =>
      users.map((user) => ({
        ...user,
        ...('allocations' in user ? { allocations: half(user.allocations, second) } : {}),
        ...('moderate' in user ? { moderate: half(user.moderate, second) } : {}),
      })) as typeof users;
    await runLoad(Number(process.env.BENCH_COLD_BEFORE_SECONDS ?? 30), 0, split(true));
    users.splice(0, users.length, ...split(false));
    await proxy?.stop();
    await Promise.all(servers.splice(0).map((server) => server.stop()));
    proxy = undefined;
    await run('pg_ctlcluster', ['--skip-systemctl-redirect', PG_CLUSTER_VERSION(), 'main', 'restart']);
    await run('sh', ['-c', 'sync && echo 3 > /proc/sys/vm/drop_caches']).catch(() =>
      console.error('mix: the page cache could not be dropped (needs root); PostgreSQL was restarted only'),
    );
    origin = await startServers();
  }

  // With pg_stat_statements loaded in the server (shared_preload_libraries), the statements of the mix itself.
  const statements = await statementStats(query);
  const loadBefore = loadAverage();
  const cpuBefore = servers.reduce((sum, server) => sum + server.cpuSeconds(), 0);
  const sampler = rssSampler(() => servers.reduce((sum, server) => sum + server.rss(), 0));
  const { stdout } = await runLoad(SECONDS, WARMUP_SECONDS);
  const memory = sampler.stop();
  const cpu = servers.reduce((sum, server) => sum + server.cpuSeconds(), 0) - cpuBefore;
  const loadAfter = loadAverage();
  const result = JSON.parse(stdout) as MixResult;
  if (process.env.BENCH_MIX_RAW) writeFileSync(process.env.BENCH_MIX_RAW, stdout);
  const hot = await statements.top(Number(process.env.BENCH_TOP_STATEMENTS ?? 15));

  const kindOf = (label: string) => (label.includes('export') ? 'export' : label.startsWith('GET') ? 'read' : 'write');
  const rows = Object.entries(result.labels)
    .map(([label, entry]) => {
      const sorted = [...entry.latencies].sort((a, b) => a - b);
      const kind = kindOf(label);
      const p95 = percentile(sorted, 95);
      return {
        endpoint: label,
        kind,
        requests: sorted.length + entry.errors,
        errors: entry.errors,
        p50_ms: round(percentile(sorted, 50), 1),
        p95_ms: round(p95, 1),
        p99_ms: round(percentile(sorted, 99), 1),
        max_ms: round(sorted.at(-1) ?? 0, 0),
        target: kind === 'read' ? (p95 <= 50 ? 'met' : 'missed') : kind === 'write' ? (p95 <= 80 ? 'met' : 'missed') : '—',
      };
    })
    .sort((a, b) => a.kind.localeCompare(b.kind) || b.requests - a.requests);
  const all = (kind: string) => {
    const latencies = Object.entries(result.labels)
      .filter(([label]) => kindOf(label) === kind)
      .flatMap(([, entry]) => entry.latencies)
      .sort((a, b) => a - b);
    return { requests: latencies.length, p95_ms: round(percentile(latencies, 95), 1) };
  };

  // The mix over time (BENCH_TIMELINE=1): per window, the reads' and writes' p95 and the slowest request, and which of
  // the admin's heavy requests (exports, dashboard, stats: over 500 ms) ran in it — what the tail waits behind.
  const WINDOW_MS = 10_000;
  const timeline = new Map<number, { latencies: number[]; reads: number[]; writes: number[]; heavy: Set<string> }>();
  // Per endpoint, the first window's latencies against the rest's (what is cold in a just-started server: item 14).
  const firstWindow = new Map<string, { first: number[]; rest: number[] }>();
  for (const [label, entry] of Object.entries(result.labels)) {
    entry.latencies.forEach((latency, index) => {
      const start = entry.starts[index]!;
      for (let window = Math.floor(start / WINDOW_MS); window <= Math.floor((start + latency) / WINDOW_MS); window++) {
        const slot = timeline.get(window) ?? { latencies: [], reads: [], writes: [], heavy: new Set<string>() };
        timeline.set(window, slot);
        if (window === Math.floor(start / WINDOW_MS) && kindOf(label) !== 'export') {
          slot.latencies.push(latency);
          (kindOf(label) === 'write' ? slot.writes : slot.reads).push(latency);
          const split = firstWindow.get(label) ?? { first: [], rest: [] };
          firstWindow.set(label, split);
          (window === 0 ? split.first : split.rest).push(latency);
        }
        if (latency > 500 && (kindOf(label) === 'export' || /dashboard|stats/.test(label))) slot.heavy.add(label.replace(/^GET /, ''));
      }
    });
  }
  const timelineRows = [...timeline.entries()]
    .sort(([a], [b]) => a - b)
    .map(([window, slot]) => {
      const sorted = slot.latencies.sort((a, b) => a - b);
      return {
        from_s: (window * WINDOW_MS) / 1000,
        requests: sorted.length,
        p50_ms: round(percentile(sorted, 50), 1),
        p95_ms: round(percentile(sorted, 95), 1),
        reads_p95_ms: round(
          percentile(
            slot.reads.sort((a, b) => a - b),
            95,
          ),
          1,
        ),
        writes_p95_ms: round(
          percentile(
            slot.writes.sort((a, b) => a - b),
            95,
          ),
          1,
        ),
        max_ms: round(sorted.at(-1) ?? 0, 0),
        heavy: [...slot.heavy].join(', '),
      };
    });
  const p95Of = (values: number[]) =>
    round(
      percentile(
        [...values].sort((a, b) => a - b),
        95,
      ),
      1,
    );
  const firstWindowRows = [...firstWindow.entries()]
    .map(([endpoint, split]) => ({
      endpoint,
      first_10s: split.first.length,
      first_p95_ms: p95Of(split.first),
      rest_p95_ms: p95Of(split.rest),
      ratio: round(p95Of(split.first) / Math.max(0.1, p95Of(split.rest)), 1),
    }))
    .sort((a, b) => b.first_p95_ms - a.first_p95_ms);

  // Every acknowledged write, looked for in the database.
  const { writes } = result;
  const createdReviews = new Map(
    (
      await query<{ id: number; subscription_id: number; proposal_id: number }>(
        sql`select id, subscription_id, proposal_id from reviews where id = any(${ids(writes.reviewCreates.map((w) => w.row_id))})`,
      )
    ).map((row) => [row.id, row]),
  );
  const reviewsPresent = writes.reviewCreates.filter((w) => {
    const row = createdReviews.get(w.row_id);
    return row?.subscription_id === w.subscription_id && row.proposal_id === w.proposal_id;
  }).length;
  const createdModerations = new Map(
    (
      await query<{ id: number; subscription_id: number; review_id: number }>(
        sql`select id, subscription_id, review_id from moderations where id = any(${ids(writes.moderationCreates.map((w) => w.id))})`,
      )
    ).map((row) => [row.id, row]),
  );
  const moderationsPresent = writes.moderationCreates.filter((w) => {
    const row = createdModerations.get(w.id);
    return row?.subscription_id === w.subscription_id && row.review_id === w.review_id;
  }).length;
  const reviewEdits = acceptable(writes.reviewEdits.map((w) => ({ id: w.row_id, marker: w.marker, acked: w.acked })));
  const reviewNotes = await query<{ id: number; note: string }>(
    sql`select id, impact_alignment_note as note from reviews where id = any(${ids([...reviewEdits.keys()])})`,
  );
  const reviewEditsHeld = reviewNotes.filter((row) => reviewEdits.get(row.id)?.has(row.note.split(' ')[0]!)).length;
  const moderationEdits = acceptable(writes.moderationEdits);
  const rationales = await query<{ id: number; rationale: string }>(
    sql`select id, rationale from moderations where id = any(${ids([...moderationEdits.keys()])})`,
  );
  const moderationEditsHeld = rationales.filter((row) => moderationEdits.get(row.id)?.has(row.rationale.split(' ')[0]!)).length;
  const verification = {
    review_creates_acknowledged: writes.reviewCreates.length,
    review_creates_present: reviewsPresent,
    review_edits_acknowledged: writes.reviewEdits.filter((w) => w.acked).length,
    reviews_edited: reviewEdits.size,
    reviews_holding_last_acknowledged_edit: reviewEditsHeld,
    moderation_creates_acknowledged: writes.moderationCreates.length,
    moderation_creates_present: moderationsPresent,
    moderation_edits_acknowledged: writes.moderationEdits.filter((w) => w.acked).length,
    moderations_edited: moderationEdits.size,
    moderations_holding_last_acknowledged_edit: moderationEditsHeld,
    lost:
      writes.reviewCreates.length -
      reviewsPresent +
      (reviewEdits.size - reviewEditsHeld) +
      (writes.moderationCreates.length - moderationsPresent) +
      (moderationEdits.size - moderationEditsHeld),
  };
  const errors = rows.reduce((sum, row) => sum + row.errors, 0);
  const summary = {
    instances: INSTANCES ? `${INSTANCES} behind HAProxy` : '1',
    users: users.length,
    reviewers: reviewers.length,
    moderators: moderators.length,
    warmup_s: WARMUP_SECONDS,
    seconds: round(result.seconds, 1),
    think_ms: THINK_MS,
    think_spread_ms: THINK_SPREAD_MS,
    requests: rows.reduce((sum, row) => sum + row.requests, 0),
    rps: round(rows.reduce((sum, row) => sum + row.requests, 0) / result.seconds, 0),
    errors,
    reads_p95_ms: all('read').p95_ms,
    writes_p95_ms: all('write').p95_ms,
    server_rss_peak_mib: round(memory.peak / 2 ** 20, 0),
    // The servers' CPU: seconds used (over the warm-up too), its share of that wall time, and per request (the timed
    // part's share of the CPU over its requests).
    server_cpu_s: round(cpu, 1),
    server_cpu_share: round(cpu / (result.seconds + WARMUP_SECONDS), 2),
    server_cpu_ms_per_request: round(
      (cpu * 1000 * (result.seconds / (result.seconds + WARMUP_SECONDS))) /
        Math.max(
          1,
          rows.reduce((sum, row) => sum + row.requests, 0),
        ),
      1,
    ),
    load_avg_before: loadBefore,
    load_avg_after: loadAfter,
  };
  Object.assign(report, {
    summary,
    rows,
    verification,
    timeline: timelineRows,
    firstWindow: firstWindowRows,
    firstErrors: result.firstErrors,
  });
  console.log(
    `Mix on the whole round, ${INSTANCES ? `${INSTANCES} instance(s) behind HAProxy` : 'one instance'} (${seeded.reviews.toLocaleString('en')} reviews, ${seeded.moderationAllocations.toLocaleString('en')} moderation allocations): ${users.length} users, ${SECONDS} s, think time ${THINK_MS} ± ${THINK_SPREAD_MS} ms (targets: reads p95 ≤ 50 ms, writes p95 ≤ 80 ms (issue 30; issue 18's: 100 and 300), 0 errors, every acknowledged write present)`,
  );
  console.table([summary]);
  console.table(rows);
  console.table([verification]);
  if (process.env.BENCH_TIMELINE === '1') {
    console.table(timelineRows);
    console.table(firstWindowRows);
  }
  if (hot.length) {
    report.statements = hot;
    console.log('PostgreSQL statements of the mix by total time (pg_stat_statements):');
    console.table(hot);
  }
  if (result.firstErrors.length) console.log('first errors:', JSON.stringify(result.firstErrors.slice(0, 5), null, 1));
} finally {
  await proxy?.stop();
  await Promise.all(servers.map((server) => server.stop()));
  await database.drop();
}
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, `results/mix${INSTANCES ? `-${INSTANCES}-instances` : ''}.json`), JSON.stringify(report, null, 2));
