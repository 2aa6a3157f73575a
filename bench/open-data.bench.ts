/**
 * Issue 48 item 4: the open data of a full round and its checks, on PostgreSQL. The round: 20,000 proposals
 * (BENCH_PROPOSALS), BENCH_REVIEWERS (50,000) × 20 reviews = 1,000,000, 500 LV2 moderators, 400,000 moderation
 * allocations and 200,000 moderations (seed-scale), its review outcomes and proposal scores run through the API.
 * (1) `GET events/{id}/open-data` over loopback from a fresh server process: seconds to the last byte (target ≤ 60 s),
 *     archive size, and the server's peak RSS over its baseline (streamed: it must stay flat whatever the round);
 * (2) the verifier (`packages/verify`) on that archive, in a process of its own: seconds (target ≤ 60 s), peak RSS,
 *     and that every figure is reproduced;
 * (3) `audit verify` over BENCH_AUDIT_ENTRIES (1,000,000) chained audit entries (written in bulk, chained as the app
 *     chains them): seconds (target ≤ 30 s).
 * BENCH_ONLY (open-data, audit — comma-separated) picks parts; BENCH_NOTES=corpus seeds varied notes (the archive's
 * size then is a real round's order; the fixed note compresses to almost nothing). Each figure carries the load average. Writes
 * bench/results/open-data.json.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { OUTCOME_DEFAULTS, SCORE_DEFAULTS } from '@cr/contract/outcomes';
import { SCALE_PASSWORD, seedScale } from '../apps/server/src/scale-seed';
import { asStored, dataDigest, entryHash } from '../apps/server/src/modules/system/audit-chain';
import { verifyAuditChain } from '../apps/server/src/modules/system/audit.repository';
import { readZipDirectory } from '../packages/verify/src/zip';
import { benchDatabase, round } from './lib/database';
import { promoteFirstReviewer } from './lib/round';
import { loadAverage, login, postJson, rssSampler, startServer } from './lib/processes';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..');
const PROPOSALS = Number(process.env.BENCH_PROPOSALS ?? 20_000);
const REVIEWERS = Number(process.env.BENCH_REVIEWERS ?? 50_000);
const AUDIT_ENTRIES = Number(process.env.BENCH_AUDIT_ENTRIES ?? 1_000_000);
/** BENCH_NOTES=corpus: varied notes of a few hundred characters (the flags bench's corpus) instead of one fixed note. */
const CORPUS_NOTES = process.env.BENCH_NOTES === 'corpus';
const ONLY = process.env.BENCH_ONLY?.split(',');
const wanted = (part: string) => !ONLY || ONLY.includes(part);
const rowsOf = <T>(result: unknown) => (result as { rows?: T[] }).rows ?? (result as T[]);
const MiB = 2 ** 20;

const database = await benchDatabase();
const work = mkdtempSync(join(tmpdir(), 'open-data-bench-'));
const report: Record<string, unknown> = { date: new Date().toISOString() };
let server: Awaited<ReturnType<typeof startServer>> | undefined;
try {
  if (wanted('open-data')) {
    const scale = Math.max(1, Math.round(REVIEWERS / 125));
    const seeded = await seedScale(database.db, {
      proposals: PROPOSALS,
      reviewers: REVIEWERS,
      categories: 40,
      reviewsPerReviewer: 20,
      moderators: 500,
      moderationAllocations: scale * 1_000,
      moderations: scale * 500,
      ...(CORPUS_NOTES ? { flagsNotes: true } : {}),
    });
    console.error(`seeded ${seeded.reviews} reviews, ${seeded.moderations} moderations in ${seeded.seconds} s`);
    report.seeded = seeded;
    const eventId = seeded.eventId;
    // An admin: the round's first reviewer.
    const admin = await promoteFirstReviewer(database.db, eventId);
    await database.db.execute(
      sql`update configs set value = value || '{"moderation_submission_enabled": false}'::jsonb where kind = 'reviews' and event_id = ${eventId}`,
    );

    server = await startServer(database.url);
    const token = await login(server.origin, admin.catalystId, SCALE_PASSWORD);
    const outcomes = await postJson(`${server.origin}/api/reviews/proposal-reviews/generate-results`, token, {
      results_params: { event_id: eventId, ...OUTCOME_DEFAULTS, validity_threshold: 0.5, acceptance_threshold: 0.5, dry_run: false },
    });
    if (outcomes.status !== 200) throw new Error(`outcomes: ${outcomes.status} ${JSON.stringify(outcomes.body)}`);
    const scores = await postJson(`${server.origin}/api/reviews/proposals/generate-results`, token, {
      results_params: { event_id: eventId, ...SCORE_DEFAULTS, dry_run: false },
    });
    if (scores.status !== 200) throw new Error(`scores: ${scores.status}`);
    await server.stop();

    // (1) A fresh server process: its memory growth is the archive's.
    server = await startServer(database.url);
    const file = join(work, `round-${eventId}-open-data.zip`);
    const loadBuild = loadAverage();
    const sampler = rssSampler(server.rss);
    const started = performance.now();
    const status = await new Promise<number>((resolve, reject) => {
      http
        .get(`${server!.origin}/api/reviews/events/${eventId}/open-data`, (response) => {
          const out = createWriteStream(file);
          response.pipe(out);
          out.on('finish', () => resolve(response.statusCode ?? 0));
          response.on('error', reject);
        })
        .on('error', reject);
    });
    const buildSeconds = (performance.now() - started) / 1000;
    const memory = sampler.stop();
    if (status !== 200) throw new Error(`open data: ${status}`);
    report.build = {
      seconds: round(buildSeconds, 1),
      archive_mb: round(statSync(file).size / MiB, 1),
      uncompressed_mb: round((await readZipDirectory(file)).reduce((sum, entry) => sum + entry.size, 0) / MiB, 1),
      notes: CORPUS_NOTES ? 'corpus' : 'fixed',
      server_rss_baseline_mb: round(memory.baseline / MiB),
      server_rss_peak_mb: round(memory.peak / MiB),
      server_rss_growth_mb: round(memory.growth / MiB),
      load: loadBuild,
    };
    console.table([report.build]);
    await server.stop();
    server = undefined;

    // (2) The verifier in a process of its own, as `npx @community-review/verify` runs.
    const loadVerify = loadAverage();
    const script = `const { verifyArchive } = await import(${JSON.stringify(join(root, 'packages/verify/src/verify.ts'))});
      const t = performance.now(); const r = await verifyArchive(${JSON.stringify(file)});
      console.log(JSON.stringify({ seconds: (performance.now() - t) / 1000, figures: r.figures, reproduced: r.reproduced,
        differences: r.differences.slice(0, 5), integrity: r.integrity, max_rss_mb: process.resourceUsage().maxRSS / 1024 }));`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 1 << 24,
    });
    if (run.status !== 0) throw new Error(`verifier: ${run.stderr}`);
    const verified = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    report.verify = {
      ...verified,
      seconds: round(verified.seconds as number, 1),
      max_rss_mb: round(verified.max_rss_mb as number),
      load: loadVerify,
    };
    console.table([{ ...(report.verify as object), differences: (verified.differences as unknown[]).length }]);
  }

  if (wanted('audit')) {
    // (3) AUDIT_ENTRIES chained entries, written in bulk as insertAuditEntry chains them (a run's params and stats each).
    const existing = await verifyAuditChain(database.db);
    let prev = existing.head?.hash ?? null;
    // The app's entries so far (the round's runs) stay the chain's start: each event goes on from its head.
    const eventPrev = new Map<number, string>(
      rowsOf<{ chain: number; hash: string }>(await database.db.execute(sql`select chain, hash from audit_heads where chain > 0`)).map(
        (head) => [head.chain, head.hash],
      ),
    );
    const [{ next } = { next: 0 }] = rowsOf<{ next: number }>(
      await database.db.execute(sql`select coalesce(max(id), 0)::int + 1 as next from audit_log`),
    );
    const base = Date.UTC(2026, 0, 1);
    const writeStarted = performance.now();
    const BATCH = 20_000;
    for (let from = 0; from < AUDIT_ENTRIES; from += BATCH) {
      const columns: unknown[][] = [[], [], [], [], [], [], [], [], [], [], [], [], []];
      for (let i = from; i < Math.min(AUDIT_ENTRIES, from + BATCH); i += 1) {
        const id = next + i;
        const eventId = 1 + (i % 50);
        const before = asStored({ proposal_allocation_generated: true, moderation_allocation_generated: i % 2 === 0 });
        const after = asStored({ params: { event_id: eventId, seed: i, dry_run: false }, stats: { tot: i % 1000, avg: (i % 97) / 7 } });
        const header = {
          id,
          createdAt: new Date(base + i * 1000),
          actorUserId: null,
          action: 'bench.run',
          entity: 'event',
          entityId: String(eventId),
          eventId,
          dataSha256: dataDigest(before, after),
          prevHash: prev,
          eventPrevHash: eventPrev.get(eventId) ?? null,
        };
        const hash = entryHash(header);
        const values = [
          id,
          header.createdAt.toISOString(),
          null,
          'bench.run',
          'event',
          header.entityId,
          eventId,
          JSON.stringify(before),
          JSON.stringify(after),
          header.dataSha256,
          prev,
          header.eventPrevHash,
          hash,
        ];
        values.forEach((value, c) => columns[c]!.push(value));
        prev = hash;
        eventPrev.set(eventId, hash);
      }
      const array = (values: unknown[]) =>
        `{${values.map((value) => (value === null ? 'NULL' : `"${String(value).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)).join(',')}}`;
      const types = ['int8', 'timestamptz', 'int4', 'text', 'text', 'text', 'int4', 'jsonb', 'jsonb', 'text', 'text', 'text', 'text'];
      await database.db.execute(
        sql`insert into audit_log (id, created_at, actor_user_id, action, entity, entity_id, event_id, before, after, data_sha256, prev_hash, event_prev_hash, hash)
            select * from unnest(${sql.join(
              columns.map((values, c) => sql`${array(values)}::${sql.raw(types[c]!)}[]`),
              sql`, `,
            )})`,
      );
    }
    await database.db.execute(
      sql`insert into audit_heads (chain, entry_id, hash) values (0, ${next + AUDIT_ENTRIES - 1}, ${prev}) on conflict (chain) do update set entry_id = excluded.entry_id, hash = excluded.hash`,
    );
    for (const [eventId, hash] of eventPrev) {
      const [{ id } = { id: 0 }] = rowsOf<{ id: number }>(
        await database.db.execute(sql`select max(id)::int as id from audit_log where hash = ${hash}`),
      );
      await database.db.execute(
        sql`insert into audit_heads (chain, entry_id, hash) values (${eventId}, ${id}, ${hash}) on conflict (chain) do update set entry_id = excluded.entry_id, hash = excluded.hash`,
      );
    }
    console.error(`wrote ${AUDIT_ENTRIES} chained entries in ${round((performance.now() - writeStarted) / 1000)} s`);
    const loadAudit = loadAverage();
    const started = performance.now();
    const result = await verifyAuditChain(database.db);
    report.audit = {
      entries: result.entries,
      verified: result.verified,
      broken: result.broken?.reason ?? null,
      seconds: round((performance.now() - started) / 1000, 1),
      heap_mb: round(process.memoryUsage().heapUsed / MiB),
      load: loadAudit,
    };
    console.table([report.audit]);
  }
} finally {
  await server?.stop();
  await database.drop();
  rmSync(work, { recursive: true, force: true });
}
writeFileSync(join(here, 'results', 'open-data.json'), `${JSON.stringify(report, null, 2)}\n`);
