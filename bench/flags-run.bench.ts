/**
 * Flags end to end on PostgreSQL (issue 14): the real "Compute flags" run (`POST flags/compute`, a real run) on a
 * round whose notes come from seed-scale's flags-ready corpus (varied text, 1 % planted near-duplicates): the server,
 * in a process of its own, loads the notes from the database, computes the three flag types and writes the flags in
 * its transaction. Targets: similarity over 1,000,000 notes (333,334 reviews × 3) ≤ 60 s end to end, memory ≤ 4 GiB
 * (the server's peak RSS). Beside it, its limit: reading the same notes with psql (`COPY … TO STDOUT`, the bytes
 * the load moves). FLAGS_RUN_REVIEWS (default 333,340 = 16,667 reviewers × 20) scales it.
 * Writes bench/results/flags-run.json.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { SCALE_PASSWORD, seedScale } from '../apps/server/src/scale-seed';
import { benchDatabase, round } from './lib/database';
import { promoteFirstReviewer } from './lib/round';
import { loadAverage, login, postJson, rssSampler, startServer } from './lib/processes';

const here = fileURLToPath(new URL('.', import.meta.url));
const REVIEWS = Number(process.env.FLAGS_RUN_REVIEWS ?? 333_340);
const rowsOf = <T>(result: unknown) => (result as { rows?: T[] }).rows ?? (result as T[]);
const GiB = 2 ** 30;

const database = await benchDatabase();
let server: Awaited<ReturnType<typeof startServer>> | undefined;
try {
  const reviewers = Math.ceil(REVIEWS / 20);
  const seeded = await seedScale(database.db, {
    proposals: 20_000,
    reviewers,
    categories: 40,
    reviewsPerReviewer: 20,
    flagsNotes: true,
    duplicateRate: 0.01,
  });
  console.error(`seeded ${seeded.reviews} reviews with flags-ready notes in ${seeded.seconds} s`);
  // An admin: the round's first reviewer.
  const admin = await promoteFirstReviewer(database.db, seeded.eventId);
  server = await startServer(database.url);
  const token = await login(server.origin, admin.catalystId, SCALE_PASSWORD);

  const loadAvg = loadAverage();
  const sampler = rssSampler(server.rss);
  const started = performance.now();
  let response: { status: number; body: unknown };
  try {
    response = await postJson(`${server.origin}/api/reviews/flags/compute`, token, {
      compute_params: { event_id: seeded.eventId, dry_run: false },
    });
  } finally {
    sampler.stop();
  }
  const answer = response.body as { reviews: number; flagged: number; per_type: Record<string, number> };
  const seconds = (performance.now() - started) / 1000;
  const memory = sampler.stop();
  if (response.status !== 200) throw new Error(`flags/compute: ${response.status} ${JSON.stringify(answer)}`);
  const [stored] = rowsOf<{ n: number; similarity: number }>(
    await database.db.execute(
      sql`select count(*)::int as n, count(*) filter (where flag_type = 1)::int as similarity from review_flags where event_id = ${seeded.eventId}`,
    ),
  );

  // The limit of the load: PostgreSQL sending the same notes to psql over the same loopback.
  const loadAvgCopy = loadAverage();
  const copy = await new Promise<{ bytes: number; seconds: number }>((resolve, reject) => {
    const url = new URL(database.url);
    const t = performance.now();
    const child = spawn(
      'psql',
      [
        url.toString(),
        '-X',
        '-q',
        '-c',
        `copy (select id, impact_alignment_note, feasibility_note, auditability_note from reviews where event_id = ${seeded.eventId} order by id) to stdout`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let bytes = 0;
    child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length));
    child.on('exit', (code) =>
      code === 0 ? resolve({ bytes, seconds: (performance.now() - t) / 1000 }) : reject(new Error(`psql ${code}`)),
    );
  });

  const result = {
    reviews: answer.reviews,
    notes: answer.reviews * 3,
    seconds: round(seconds, 1),
    server_rss_peak_gib: round(memory.peak / GiB, 2),
    server_rss_growth_gib: round(memory.growth / GiB, 2),
    flagged_reviews: answer.flagged,
    ...Object.fromEntries(Object.entries(answer.per_type).map(([type, n]) => [`flagged_${type}`, n])),
    stored_flags: stored!.n,
    load_avg_before: loadAvg,
    limit_copy_notes_mb: round(copy.bytes / 1e6, 0),
    limit_copy_notes_s: round(copy.seconds, 1),
    limit_load_avg_before: loadAvgCopy,
  };
  console.log(
    `Compute flags, real run through the endpoint on PostgreSQL: load ${answer.reviews.toLocaleString('en')} reviews' notes, compute the three types, write (target ≤ 60 s and ≤ 4 GiB at 1,000,000 notes)`,
  );
  console.table([result]);
  writeFileSync(join(here, 'results/flags-run.json'), JSON.stringify({ date: new Date().toISOString(), seeded, result }, null, 2));
} finally {
  await server?.stop();
  await database.drop();
}
