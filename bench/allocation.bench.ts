/**
 * Proposal allocation (issue 5): the algorithm alone at 5,000 reviewers × 2,000 proposals (target ≤ 2 s) and
 * 50,000 × 20,000 (target ≤ 30 s), with the per-proposal spread, both with the constraints of a real round (30 % LV1
 * with two preferred categories, 5 % authors with a conflict) and without any (the spread must then be ≤ 1); then a
 * real run end to end on PostgreSQL (load the inputs, allocate, replace the rows) at 5,000 × 2,000.
 * Writes bench/results/allocation.json.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allocateProposals, type AllocationReviewer } from '../apps/server/src/domain/proposal-allocation';
import { createPrng } from '../apps/server/src/domain/prng';
import { createEventsService } from '../apps/server/src/modules/events/events.service';
import { createProposalAllocationService } from '../apps/server/src/modules/proposals/proposal-allocation.service';
import { createRunsService } from '../apps/server/src/modules/runs/runs.service';
import { seedScale } from '../apps/server/src/scale-seed';
import { users } from '../apps/server/src/db/schema/index';
import { benchDatabase, round } from './lib/database';

const here = fileURLToPath(new URL('.', import.meta.url));
const QUOTA = { lv0: 20, lv1: 60 };

function inputs(reviewerCount: number, proposalCount: number, constrained: boolean) {
  const prng = createPrng(42);
  const categories = 40;
  const proposals = Array.from({ length: proposalCount }, (_, i) => ({ id: i + 1, category: (i % categories) + 1 }));
  const reviewers: AllocationReviewer[] = Array.from({ length: reviewerCount }, (_, i) => {
    const lv1 = constrained && prng.next() < 0.3;
    return {
      id: i + 1,
      level: lv1 ? 1 : 0,
      preferred: lv1 ? [prng.below(categories) + 1, prng.below(categories) + 1] : [],
      conflicts: constrained && prng.next() < 0.05 ? [prng.below(categories) + 1] : [],
    };
  });
  return { reviewers, proposals };
}

const rows = [];
for (const [reviewers, proposals] of [
  [5_000, 2_000],
  [50_000, 20_000],
] as const) {
  for (const constrained of [true, false]) {
    const input = inputs(reviewers, proposals, constrained);
    const runs = reviewers <= 5_000 ? 3 : 1;
    const times: number[] = [];
    let result;
    for (let i = 0; i < runs; i += 1) {
      const started = performance.now();
      result = allocateProposals({ ...input, quotaLv0: QUOTA.lv0, quotaLv1: QUOTA.lv1, categories: [], seed: 1 });
      times.push(performance.now() - started);
    }
    const stats = result!.stats;
    rows.push({
      case: `${reviewers.toLocaleString('en')} × ${proposals.toLocaleString('en')}`,
      constraints: constrained ? '30% LV1 prefs, 5% conflicts' : 'none (LV0 only)',
      seconds: round(Math.min(...times) / 1000, 3),
      allocations: stats.tot,
      per_proposal_min: stats.per_proposal.min,
      per_proposal_max: stats.per_proposal.max,
      spread: stats.per_proposal.max - stats.per_proposal.min,
    });
  }
}
console.log(
  `Proposal allocation, algorithm only (quotas LV0 ${QUOTA.lv0}, LV1 ${QUOTA.lv1}; targets: 5k×2k ≤ 2 s, 50k×20k ≤ 30 s, spread ≤ 1 without constraints)`,
);
console.table(rows);

// End to end on PostgreSQL: a real run of the service.
const database = await benchDatabase();
let endToEnd;
try {
  const seeded = await seedScale(database.db, { proposals: 2_000, reviewers: 5_000, categories: 40 });
  const service = createProposalAllocationService({
    runs: createRunsService({ db: database.db, events: createEventsService(database.db) }),
  });
  const params = {
    event_id: seeded.eventId,
    allocation_seed: 1,
    nr_of_proposals_lv0: QUOTA.lv0,
    nr_of_proposals_lv1: QUOTA.lv1,
    categories: [],
    dry_run: false,
  };
  const [actor] = await database.db.select({ id: users.id }).from(users).limit(1);
  const started = performance.now();
  const stats = await service.generate(actor!.id, params);
  const first = performance.now() - started;
  const again = performance.now();
  await service.generate(actor!.id, params);
  const second = performance.now() - again;
  endToEnd = {
    case: '5,000 × 2,000 on PostgreSQL (real run)',
    first_run_s: round(first / 1000, 2),
    rerun_replacing_s: round(second / 1000, 2),
    allocations: stats.tot,
    spread: stats.per_proposal.max - stats.per_proposal.min,
  };
  console.log('End to end (load inputs, allocate, replace the rows, audit):');
  console.table([endToEnd]);
} finally {
  await database.drop();
}
writeFileSync(
  join(here, 'results/allocation.json'),
  JSON.stringify({ date: new Date().toISOString(), quotas: QUOTA, algorithm: rows, endToEnd }, null, 2),
);
