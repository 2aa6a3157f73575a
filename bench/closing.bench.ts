/**
 * Moderation and closing a round (issues 14 and 15) on one PostgreSQL round of 1,000,000 reviews (50,000 reviewers ×
 * 20 over 20,000 proposals), 500 LV2 moderators, 400,000 moderation allocations (4 per review) and 200,000
 * moderations, the server in a process of its own, its clients in another:
 * (1) `GET proposal-reviews/allocated/` p95 for 8 clients, each request a moderator's page (target ≤ 30 ms), against
 *     its limit: the same SQL, captured from the endpoint and replayed raw behind a bare Fastify route;
 * (2) review outcomes, the real run through the endpoint, the write included (target ≤ 30 s); its dry run (load and
 *     compute) beside it;
 * (3) proposal scores, likewise (target ≤ 10 s);
 * (4) the full CSV export over loopback: MB/s (target ≥ 50) and the server's memory growth (target ≤ 100 MB), against
 *     its limit: PostgreSQL's own `COPY (the same columns) TO STDOUT` through psql over the same loopback.
 * (5) the limit of the outcomes' write: one raw `update reviews set ranking = ranking` over the round.
 * Each figure carries the load average. BENCH_REVIEWERS (default 50,000) and BENCH_SECONDS (10) scale it; BENCH_ONLY
 * (list, outcomes, scores, export — comma-separated) picks parts (scores need the outcomes).
 * Writes bench/results/closing.json.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { OUTCOME_DEFAULTS, SCORE_DEFAULTS } from '@cr/contract/outcomes';
import { buildApp } from '../apps/server/src/app';
import { testConfig } from '../apps/server/src/config';
import { SCALE_PASSWORD, seedScale } from '../apps/server/src/scale-seed';
import { benchDatabase, round } from './lib/database';
import { promoteFirstReviewer } from './lib/round';
import { captureQueries, load, loadAverage, login, postJson, rssSampler, startReplayServer, startServer } from './lib/processes';

const here = fileURLToPath(new URL('.', import.meta.url));
const REVIEWERS = Number(process.env.BENCH_REVIEWERS ?? 50_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ONLY = process.env.BENCH_ONLY?.split(',');
const wanted = (part: string) => !ONLY || ONLY.includes(part);
const rowsOf = <T>(result: unknown) => (result as { rows?: T[] }).rows ?? (result as T[]);
const MiB = 2 ** 20;

const database = await benchDatabase();
const report: Record<string, unknown> = { date: new Date().toISOString() };
const server = { current: undefined as Awaited<ReturnType<typeof startServer>> | undefined };
try {
  const scale = Math.max(1, Math.round(REVIEWERS / 125));
  const seeded = await seedScale(database.db, {
    proposals: 20_000,
    reviewers: REVIEWERS,
    categories: 40,
    reviewsPerReviewer: 20,
    moderators: 500,
    moderationAllocations: scale * 1_000,
    moderations: scale * 500,
  });
  console.error(
    `seeded ${seeded.reviews} reviews, ${seeded.moderationAllocations} moderation allocations, ${seeded.moderations} moderations in ${seeded.seconds} s`,
  );
  report.seeded = seeded;
  const eventId = seeded.eventId;
  // An admin: the round's first reviewer.
  const admin = await promoteFirstReviewer(database.db, eventId);
  const moderatorIds = rowsOf<{ catalyst_id: string }>(
    await database.db.execute(
      sql`select c.catalyst_id from subscriptions s join users u on u.id = s.user_id join catalyst_ids c on c.id = u.catalyst_id_ref where s.event_id = ${eventId} and s.role = 2 order by s.id limit 50`,
    ),
  ).map((row) => row.catalyst_id);

  server.current = await startServer(database.url);
  const origin = server.current.origin;
  const adminToken = await login(origin, admin.catalystId, SCALE_PASSWORD);

  if (wanted('list')) {
    const tokens = await Promise.all(moderatorIds.map((id) => login(origin, id, SCALE_PASSWORD)));
    const perModerator = Math.floor(seeded.moderationAllocations / seeded.moderators);
    const pages = Math.max(1, Math.floor(perModerator / 25));
    const urls: string[] = [];
    const urlHeaders: Record<string, string>[] = [];
    const requests: { token: string; page: number }[] = [];
    for (let i = 0; i < 200; i += 1) {
      const token = tokens[i % tokens.length]!;
      const page = (i * 7) % pages;
      requests.push({ token, page });
      urls.push(`${origin}/api/reviews/proposal-reviews/allocated/?page=${page}&size=25`);
      urlHeaders.push({ authorization: `Bearer ${token}` });
    }
    const endpoint = { load_avg_before: loadAverage(), ...(await load({ urls, urlHeaders, concurrency: 8, seconds: SECONDS })) };
    // The limit: the endpoint's SQL (the same statements, values and row mode), captured from the app in this
    // process and replayed raw behind a bare Fastify route in a process of its own.
    const config = testConfig({ LOG_LEVEL: 'silent' });
    const app = await buildApp({ config, db: database.db, jwtSecret: config.JWT_SECRET!, logger: false });
    const captured: unknown[][] = [];
    for (const request of requests.slice(0, 50)) {
      const queries = await captureQueries(async () => {
        const response = await app.inject({
          url: `/api/reviews/proposal-reviews/allocated/?page=${request.page}&size=25`,
          headers: { authorization: `Bearer ${request.token}` },
        });
        if (response.statusCode !== 200) throw new Error(`allocated list: ${response.statusCode} ${response.body}`);
      });
      captured.push(queries);
    }
    await app.close();
    const replay = await startReplayServer(database.url, captured);
    const replayUrls = captured.map((_, i) => `${replay.origin}/replay/${i}`);
    const limit = { load_avg_before: loadAverage(), ...(await load({ urls: replayUrls, concurrency: 8, seconds: SECONDS })) };
    await replay.stop();
    const list = {
      allocations: seeded.moderationAllocations,
      per_moderator: perModerator,
      statements_per_request: captured[0]!.length,
      endpoint,
      limit_raw_sql: limit,
      p95_ratio: round(endpoint.p95_ms / limit.p95_ms, 2),
    };
    report.list = list;
    console.log(
      `Moderator's allocated list: ${seeded.moderationAllocations.toLocaleString('en')} moderation allocations, ${perModerator} per moderator, 8 clients, ${SECONDS} s (target p95 ≤ 30 ms); limit = the same ${list.statements_per_request} statements replayed raw behind a bare route`,
    );
    console.table([
      { what: 'GET proposal-reviews/allocated/', ...endpoint },
      { what: 'same SQL replayed raw', ...limit },
    ]);
    console.log(`p95 ratio endpoint / raw: ${list.p95_ratio}`);
  }

  const post = async (path: string, body: unknown) => {
    const sampler = rssSampler(server.current!.rss);
    const loadAvg = loadAverage();
    const started = performance.now();
    let response: { status: number; body: unknown };
    try {
      response = await postJson(`${origin}/api/reviews/${path}`, adminToken, body);
    } finally {
      sampler.stop();
    }
    const answer = response.body;
    const seconds = (performance.now() - started) / 1000;
    const memory = sampler.stop();
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
    return {
      seconds: round(seconds, 2),
      server_rss_peak_mib: round(memory.peak / MiB, 0),
      server_rss_growth_mib: round(memory.growth / MiB, 0),
      load_avg_before: loadAvg,
      answer,
    };
  };

  if (wanted('outcomes')) {
    const params = { event_id: eventId, ...OUTCOME_DEFAULTS };
    const dry = await post('proposal-reviews/generate-results', { results_params: { ...params, dry_run: true } });
    const real = await post('proposal-reviews/generate-results', { results_params: { ...params, dry_run: false } });
    const counts = real.answer as Record<string, unknown>;
    const outcomes = {
      reviews: seeded.reviews,
      moderations: seeded.moderations,
      dry_run_s: dry.seconds,
      real_run_s: real.seconds,
      write_and_audit_s: round(real.seconds - dry.seconds, 2),
      server_rss_peak_mib: real.server_rss_peak_mib,
      load_avg_before: real.load_avg_before,
      excluded_reviewers: (counts.excluded_reviewers as unknown[] | undefined)?.length,
    };
    report.outcomes = { ...outcomes, stats: { ...counts, excluded_reviewers: undefined } };
    console.log(
      `Review outcomes: ${seeded.reviews.toLocaleString('en')} reviews, ${seeded.moderations.toLocaleString('en')} moderations (target ≤ 30 s with the write)`,
    );
    console.table([outcomes]);
  }

  if (wanted('scores')) {
    const params = { event_id: eventId, ...SCORE_DEFAULTS };
    const dry = await post('proposals/generate-results', { results_params: { ...params, dry_run: true } });
    const real = await post('proposals/generate-results', { results_params: { ...params, dry_run: false } });
    const rows = real.answer as { score_weighted_avg: unknown }[];
    const scores = {
      proposals: rows.length,
      scored: rows.filter((row) => row.score_weighted_avg !== null).length,
      reviews: seeded.reviews,
      dry_run_s: dry.seconds,
      real_run_s: real.seconds,
      write_and_audit_s: round(real.seconds - dry.seconds, 2),
      server_rss_peak_mib: real.server_rss_peak_mib,
      load_avg_before: real.load_avg_before,
    };
    report.scores = scores;
    console.log(`Proposal scores: 20,000 proposals, ${seeded.reviews.toLocaleString('en')} reviews (target ≤ 10 s)`);
    console.table([scores]);
  }

  if (wanted('export')) {
    // A fresh server process, so that its memory growth is the export's and not the runs' before it.
    await server.current.stop();
    server.current = await startServer(database.url);
    const exportOrigin = server.current.origin;
    const exportToken = await login(exportOrigin, admin.catalystId, SCALE_PASSWORD);
    const download = () =>
      new Promise<{ bytes: number; seconds: number; firstByteMs: number; status: number }>((resolve, reject) => {
        const started = performance.now();
        http
          .get(
            `${exportOrigin}/api/reviews/proposal-reviews/export/full-csv/${eventId}`,
            { headers: { authorization: `Bearer ${exportToken}` } },
            (response) => {
              const firstByteMs = performance.now() - started;
              let bytes = 0;
              response.on('data', (chunk: Buffer) => (bytes += chunk.length));
              response.on('end', () =>
                resolve({ bytes, seconds: (performance.now() - started) / 1000, firstByteMs, status: response.statusCode ?? 0 }),
              );
              response.on('error', reject);
            },
          )
          .on('error', reject);
      });
    const loadAvg = loadAverage();
    const sampler = rssSampler(server.current.rss);
    const got = await download();
    const memory = sampler.stop();
    if (got.status !== 200) throw new Error(`export: ${got.status}`);
    // The limit: PostgreSQL writing the same columns as CSV to psql over the same loopback.
    const copy = `copy (select r.ranking = 1 as valid, r.id as row_id, s.user_id,
        (select count(*) from moderations m where m.review_id = r.id) as moderations_tot,
        (select count(*) from moderations m where m.review_id = r.id and m.classification = 1) as moderations_as_valid,
        r.proposal_id, p.pr_id, p.title as proposal_title, s.anonymous_id as assessor, s.role as assessor_level, r.ranking,
        r.impact_alignment_rating_given, r.impact_alignment_note, r.feasibility_rating_given, r.feasibility_note,
        r.auditability_rating_given, r.auditability_note
      from reviews r join subscriptions s on s.id = r.subscription_id join proposals p on p.id = r.proposal_id
      where r.event_id = ${eventId} order by r.id) to stdout with (format csv, header)`;
    const loadAvgCopy = loadAverage();
    const copied = await new Promise<{ bytes: number; seconds: number }>((resolve, reject) => {
      const url = new URL(database.url);
      url.hostname = '127.0.0.1';
      const started = performance.now();
      const child = spawn('psql', [url.toString(), '-X', '-q', '-c', copy.replace(/\s+/g, ' ')], { stdio: ['ignore', 'pipe', 'inherit'] });
      let bytes = 0;
      child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length));
      child.on('exit', (code) =>
        code === 0 ? resolve({ bytes, seconds: (performance.now() - started) / 1000 }) : reject(new Error(`psql ${code}`)),
      );
    });
    const mbps = got.bytes / 1e6 / got.seconds;
    const copyMbps = copied.bytes / 1e6 / copied.seconds;
    const exported = {
      reviews: seeded.reviews,
      mb: round(got.bytes / 1e6, 0),
      seconds: round(got.seconds, 2),
      first_byte_ms: round(got.firstByteMs, 0),
      mb_per_s: round(mbps, 1),
      server_rss_baseline_mib: round(memory.baseline / MiB, 0),
      server_rss_growth_mib: round(memory.growth / MiB, 0),
      load_avg_before: loadAvg,
      limit_copy_mb: round(copied.bytes / 1e6, 0),
      limit_copy_s: round(copied.seconds, 2),
      limit_copy_mb_per_s: round(copyMbps, 1),
      limit_load_avg_before: loadAvgCopy,
      ratio_to_copy: round(mbps / copyMbps, 2),
    };
    report.export = exported;
    console.log(
      `Full CSV export of ${seeded.reviews.toLocaleString('en')} reviews over loopback (targets ≥ 50 MB/s, server memory growth ≤ 100 MB); limit = COPY … TO STDOUT through psql`,
    );
    console.table([exported]);
  }

  if (wanted('outcomes')) {
    // The limit of the outcomes' write: PostgreSQL rewriting every review's ranking in one raw statement (last, as
    // it leaves a million dead rows behind).
    const loadAvg = loadAverage();
    const started = performance.now();
    await database.db.execute(sql`update reviews set ranking = ranking where event_id = ${eventId}`);
    const limit = { limit_raw_update_s: round((performance.now() - started) / 1000, 2), limit_load_avg_before: loadAvg };
    report.outcomes = { ...(report.outcomes as object), ...limit };
    console.log('Limit of the outcomes write: one raw `update reviews set ranking = ranking` over the round');
    console.table([limit]);
  }
} finally {
  await server.current?.stop();
  await database.drop();
}
writeFileSync(join(here, 'results/closing.json'), JSON.stringify(report, null, 2));
