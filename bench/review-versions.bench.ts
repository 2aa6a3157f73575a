/**
 * Issue 28 item 3, "Writing a review version adds ≤ 10 % to a review submit's p95". The review service's submit
 * (`create`: the five reads, then the insert) run with and without the version write in one run, on PostgreSQL with a
 * round of BENCH_REVIEWERS (2,000) reviewers × 10 reviews already written (each with its version 1): BENCH_ROUNDS (20)
 * rounds, each submitting one review per client reviewer (BENCH_CLIENTS, 400) with each variant in turn (the order
 * alternating round by round, so that drift in the machine's load falls on both), BENCH_CONCURRENCY (8) at a time.
 * Measured at the service, without HTTP: the ratio is the version's share of the submit's own work, a bound on its
 * share of the whole request. Writes bench/results/review-versions.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { UserRole, AccountStatus } from '@cr/contract/users';
import { seedScale } from '../apps/server/src/scale-seed';
import { createEventConfigService } from '../apps/server/src/modules/events/event-config.service';
import { createLookupsService } from '../apps/server/src/modules/lookups/lookups.service';
import { createReviewsService } from '../apps/server/src/modules/reviews/reviews.service';
import { recordMissingReviewVersions } from '../apps/server/src/modules/reviews/review-versions.repository';
import { benchDatabase, percentile, round } from './lib/database';

const here = fileURLToPath(new URL('.', import.meta.url));
const REVIEWERS = Number(process.env.BENCH_REVIEWERS ?? 2_000);
const PROPOSALS = Number(process.env.BENCH_PROPOSALS ?? 5_000);
const CLIENTS = Math.min(Number(process.env.BENCH_CLIENTS ?? 400), REVIEWERS);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const PER_REVIEWER = 10;
const rowsOf = <T>(result: unknown) => (result as { rows?: T[] }).rows ?? (result as T[]);
const note = 'The proposal explains the problem well, the milestones are concrete and the budget is itemised by role. '.repeat(3);

const database = await benchDatabase();
try {
  const db = database.db;
  const seeded = await seedScale(db, { proposals: PROPOSALS, reviewers: REVIEWERS, reviewsPerReviewer: PER_REVIEWER, authorShare: 0 });
  await recordMissingReviewVersions(db, seeded.eventId);
  await db.execute(sql`vacuum analyze review_versions`);
  console.error(`seeded ${seeded.reviews} reviews with their versions in ${seeded.seconds} s`);

  // The reviewers in the order the seed gave them their reviews (rn), and the proposals in id order.
  const reviewers = rowsOf<{ user_id: number }>(
    await db.execute(sql`select user_id from subscriptions where event_id = ${seeded.eventId} and role < 2 order by id limit ${CLIENTS}`),
  ).map((row) => ({ id: row.user_id, role: UserRole.user, status: AccountStatus.active, forceReset: false }));
  const proposals = rowsOf<{ id: number }>(
    await db.execute(sql`select id from proposals where event_id = ${seeded.eventId} order by id`),
  ).map((row) => row.id);

  const eventConfig = createEventConfigService(db);
  const lookups = createLookupsService(db);
  const variants = {
    without: createReviewsService({ db, eventConfig, lookups, writeVersions: false }),
    with: createReviewsService({ db, eventConfig, lookups }),
  };
  type Variant = keyof typeof variants;
  const latencies: Record<Variant, number[]> = { without: [], with: [] };
  const errors: Record<Variant, number> = { without: 0, with: 0 };

  /** Reviewer r's i-th submit of a variant: a proposal they have not reviewed (theirs are r·10 … r·10+9). */
  const proposalOf = (r: number, i: number, variant: Variant) =>
    proposals[(r * PER_REVIEWER + PER_REVIEWER + 2 * i + (variant === 'with' ? 1 : 0)) % proposals.length]!;

  async function batch(variant: Variant, i: number) {
    let next = 0;
    const worker = async () => {
      while (next < reviewers.length) {
        const r = next++;
        const started = performance.now();
        try {
          await variants[variant].create(reviewers[r]!, {
            proposal_id: proposalOf(r, i, variant),
            impact_alignment_rating_given: 1 + ((r + i) % 5),
            impact_alignment_note: note,
            feasibility_rating_given: 1 + ((r + 2 * i) % 5),
            feasibility_note: note,
            auditability_rating_given: 1 + ((r * 3 + i) % 5),
            auditability_note: note,
          });
          latencies[variant].push(performance.now() - started);
        } catch (error) {
          errors[variant] += 1;
          if (errors[variant] === 1) console.error(`${variant}: ${String(error)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  }

  // A warm-up round of each, not counted.
  await batch('without', ROUNDS);
  await batch('with', ROUNDS);
  latencies.without.length = 0;
  latencies.with.length = 0;
  for (let i = 0; i < ROUNDS; i += 1) {
    const order: Variant[] = i % 2 === 0 ? ['without', 'with'] : ['with', 'without'];
    for (const variant of order) await batch(variant, i);
  }

  const figures = (variant: Variant) => {
    const sorted = [...latencies[variant]].sort((a, b) => a - b);
    return {
      submits: sorted.length,
      errors: errors[variant],
      p50_ms: round(percentile(sorted, 50), 2),
      p95_ms: round(percentile(sorted, 95), 2),
      p99_ms: round(percentile(sorted, 99), 2),
    };
  };
  const without = figures('without');
  const withVersion = figures('with');
  const ratio = round(withVersion.p95_ms / without.p95_ms, 3);
  const written = rowsOf<{ versions: number; reviews: number }>(
    await db.execute(
      sql`select (select count(*)::int from review_versions where event_id = ${seeded.eventId}) as versions,
        (select count(*)::int from reviews where event_id = ${seeded.eventId}) as reviews`,
    ),
  )[0]!;
  console.table({ 'submit without version': without, 'submit with version': withVersion });
  console.log(
    `p95 with ÷ without: ${ratio} (target ≤ 1.10: ${ratio <= 1.1 ? 'met' : 'NOT met'}); ${written.reviews} reviews, ${written.versions} versions`,
  );
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(
    join(here, 'results', 'review-versions.json'),
    JSON.stringify(
      {
        date: new Date().toISOString(),
        settings: { REVIEWERS, PROPOSALS, CLIENTS, ROUNDS, CONCURRENCY },
        without,
        with: withVersion,
        p95_ratio: ratio,
        target: '≤ 1.10',
        written,
      },
      null,
      2,
    ),
  );
} finally {
  await database.drop();
}
