/**
 * Issue 29 item 2, "Upload of a 500-review file (dry run and real) ≤ 2 s". On PostgreSQL: a round of BENCH_PROPOSALS
 * (2,000) proposals and 50 reviewers from the scale seed; one reviewer is allocated 500 proposals, downloads the file
 * (the service's `download`), fills every entry, and uploads it: the dry run, then the real run (500 reviews created
 * through the reviews service, with their versions), then a second file editing all 500 (500 updates). Measured at
 * the service (no HTTP). Writes bench/results/review-file.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { AccountStatus, UserRole } from '@cr/contract/users';
import { seedScale } from '../apps/server/src/scale-seed';
import { createEventConfigService } from '../apps/server/src/modules/events/event-config.service';
import { createLookupsService } from '../apps/server/src/modules/lookups/lookups.service';
import { createReviewFilesService } from '../apps/server/src/modules/reviews/review-files.service';
import { createReviewsService } from '../apps/server/src/modules/reviews/reviews.service';
import { benchDatabase, round } from './lib/database';

const here = fileURLToPath(new URL('.', import.meta.url));
const PROPOSALS = Number(process.env.BENCH_PROPOSALS ?? 2_000);
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 500);
const rowsOf = <T>(result: unknown) => (result as { rows?: T[] }).rows ?? (result as T[]);
const note = (word: string) => `The ${word} milestones are concrete and the budget is itemised by role and by month. `.repeat(3);

const database = await benchDatabase();
try {
  const db = database.db;
  const seeded = await seedScale(db, { proposals: PROPOSALS, reviewers: 50, reviewsPerReviewer: 0, authorShare: 0 });
  const [subscription] = rowsOf<{ id: number; user_id: number }>(
    await db.execute(sql`select id, user_id from subscriptions where event_id = ${seeded.eventId} and role < 2 order by id limit 1`),
  );
  await db.execute(sql`delete from proposal_allocations where subscription_id = ${subscription!.id}`);
  await db.execute(sql`insert into proposal_allocations (event_id, subscription_id, proposal_id)
    select ${seeded.eventId}, ${subscription!.id}, id from proposals where event_id = ${seeded.eventId} order by id limit ${ENTRIES}`);
  await db.execute(sql`update events set active = true where id = ${seeded.eventId}`);
  const user = { id: subscription!.user_id, role: UserRole.user, status: AccountStatus.active, forceReset: false };
  const reviews = createReviewsService({ db, eventConfig: createEventConfigService(db), lookups: createLookupsService(db) });
  const files = createReviewFilesService({ db, reviews, publicUrl: 'http://bench.test' });

  const timed = async <T>(run: () => Promise<T>) => {
    const started = performance.now();
    const value = await run();
    return { value, ms: round(performance.now() - started, 1) };
  };
  const fillAll = (file: Awaited<ReturnType<typeof files.download>>, word: string) => {
    for (const entry of file.reviews) {
      Object.assign(entry, {
        impact_alignment_rating_given: 4,
        impact_alignment_note: note(word),
        feasibility_rating_given: 3,
        feasibility_note: note(word),
        auditability_rating_given: 5,
        auditability_note: note(word),
      });
    }
    return file;
  };
  const download = await timed(() => files.download(user));
  const first = fillAll(download.value, 'first');
  const dry = await timed(() => files.upload(user, first, true));
  const real = await timed(() => files.upload(user, first, false));
  const second = fillAll(await files.download(user), 'second');
  const dryUpdate = await timed(() => files.upload(user, second, true));
  const realUpdate = await timed(() => files.upload(user, second, false));
  const figures = {
    entries: first.reviews.length,
    download_ms: download.ms,
    dry_run_create_ms: dry.ms,
    real_create_ms: real.ms,
    created: real.value.created.length,
    dry_run_update_ms: dryUpdate.ms,
    real_update_ms: realUpdate.ms,
    updated: realUpdate.value.updated.length,
    refused: real.value.refused.length + realUpdate.value.refused.length,
    errors: real.value.errors.length + realUpdate.value.errors.length,
  };
  console.table(figures);
  const worst = Math.max(dry.ms, real.ms, dryUpdate.ms, realUpdate.ms);
  console.log(`slowest upload ${worst} ms for ${figures.entries} reviews (target ≤ 2000 ms: ${worst <= 2000 ? 'met' : 'NOT met'})`);
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', 'review-file.json'), `${JSON.stringify({ date: new Date().toISOString(), ...figures }, null, 2)}\n`);
} finally {
  await database.drop();
}
