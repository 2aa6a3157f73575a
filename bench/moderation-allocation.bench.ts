/**
 * Moderation allocation (issue 14): 100,000 selected reviews × 500 moderators × 4 moderations each (target ≤ 5 s,
 * spread ≤ 1, zero conflicts), with 40 objectives and 5 % of the moderators authors in one of them.
 * Writes bench/results/moderation-allocation.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allocateModerations, type ModerationModerator, type ModerationReview } from '../apps/server/src/domain/moderation-allocation';
import { createPrng } from '../apps/server/src/domain/prng';
import { round } from './lib/database';

const here = fileURLToPath(new URL('.', import.meta.url));

function run(reviewCount: number, moderatorCount: number, perReview: number, conflicted: number) {
  const prng = createPrng(3);
  // Every review flagged, so that exactly `reviewCount` are selected.
  const reviews: ModerationReview[] = Array.from({ length: reviewCount }, (_, i) => ({
    id: i + 1,
    reviewer: 1_000_000 + (i % 20_000),
    category: (i % 40) + 1,
    flagged: true,
  }));
  const moderators: ModerationModerator[] = Array.from({ length: moderatorCount }, (_, i) => ({
    id: i + 1,
    conflicts: prng.next() < conflicted ? [1 + prng.below(40)] : [],
  }));
  const start = performance.now();
  const result = allocateModerations({ reviews, moderators, perReview, minSpotChecks: 10, seed: 42 });
  const seconds = (performance.now() - start) / 1000;
  let conflicts = 0;
  const byId = new Map(moderators.map((m) => [m.id, m]));
  for (let i = 0; i < result.reviewIds.length; i += 1) {
    const review = reviews[result.reviewIds[i]! - 1]!;
    if (byId.get(result.moderatorIds[i]!)!.conflicts.includes(review.category)) conflicts += 1;
  }
  return {
    case: `${reviewCount.toLocaleString('en')} × ${moderatorCount} × ${perReview}`,
    conflicted_moderators: `${conflicted * 100} %`,
    seconds: round(seconds, 2),
    allocations: result.stats.tot,
    spread: result.stats.per_moderator.max - result.stats.per_moderator.min,
    conflicts,
  };
}

const results = [run(100_000, 500, 4, 0), run(100_000, 500, 4, 0.05)];
console.table(results);
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'moderation-allocation.json'), `${JSON.stringify(results, null, 2)}\n`);
