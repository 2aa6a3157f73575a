/**
 * Flags (issue 14): similarity over 1,000,000 notes (333,334 reviews × 3) end to end on the machine's cores, with its
 * peak memory (targets ≤ 60 s, ≤ 4 GiB); recall and precision on a 20,000-note sample with planted near-duplicates
 * against exact Jaccard ≥ 0.8 (target recall ≥ 0.95). The exact pairs come from an all-pairs join with prefix
 * filtering (a pair at Jaccard ≥ t shares a token among the first |x| − ⌈t·|x|⌉ + 1 of each set ordered by rarity),
 * which finds every such pair without comparing all 200 million. Also times the other two flag types per review.
 * `FLAGS_BENCH_NOTES` changes the large run's size. Writes bench/results/flags.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { aiGeneratedScore } from '../apps/server/src/domain/flags/ai-generated';
import { ProfanityMatcher } from '../apps/server/src/domain/flags/profanity';
import { findSimilarNotes, jaccard, shingleSet, type Note } from '../apps/server/src/domain/flags/similarity';
import { syntheticReviews } from '../apps/server/src/lib/note-corpus';
import { round } from './lib/database';

const here = fileURLToPath(new URL('.', import.meta.url));
const THRESHOLD = 0.8;

function notesOf(reviewCount: number, seed: number, duplicateRate: number): Note[] {
  return syntheticReviews(reviewCount, { seed, duplicateRate }).flatMap((review) =>
    review.notes.map((text, criterion) => ({ review: review.id, criterion, text })),
  );
}

/** Every pair of notes of different reviews at Jaccard ≥ threshold, exactly (prefix-filtered all-pairs join). */
function exactPairs(notes: Note[], threshold: number): Set<string> {
  const sets = notes.map((note) => shingleSet(note.text));
  const frequency = new Map<number, number>();
  for (const set of sets) for (const token of set) frequency.set(token, (frequency.get(token) ?? 0) + 1);
  const index = new Map<number, number[]>();
  const pairs = new Set<string>();
  sets.forEach((set, i) => {
    const ordered = [...set].sort((a, b) => frequency.get(a)! - frequency.get(b)! || a - b);
    const prefix = ordered.length - Math.ceil(threshold * ordered.length) + 1;
    const candidates = new Set<number>();
    for (const token of ordered.slice(0, prefix)) {
      const list = index.get(token);
      if (list) {
        for (const j of list) candidates.add(j);
        list.push(i);
      } else index.set(token, [i]);
    }
    for (const j of candidates)
      if (notes[i]!.review !== notes[j]!.review && jaccard(set, sets[j]!) >= threshold) pairs.add(`${Math.min(i, j)}-${Math.max(i, j)}`);
  });
  return pairs;
}

function sample() {
  const notes = notesOf(6667, 21, 0.03);
  const truth = exactPairs(notes, THRESHOLD);
  const found = findSimilarNotes(notes, { threshold: THRESHOLD });
  const foundKeys = new Set(found.map((pair) => `${pair.a}-${pair.b}`));
  const hits = [...truth].filter((key) => foundKeys.has(key)).length;
  const correct = [...foundKeys].filter((key) => truth.has(key)).length;
  return {
    notes: notes.length,
    exact_pairs: truth.size,
    found_pairs: found.length,
    recall: round(truth.size ? hits / truth.size : 1, 4),
    precision: round(found.length ? correct / found.length : 1, 4),
  };
}

function large(noteCount: number) {
  const reviews = Math.ceil(noteCount / 3);
  const notes = notesOf(reviews, 5, 0.01);
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const start = performance.now();
  const pairs = findSimilarNotes(notes, { threshold: THRESHOLD });
  const seconds = (performance.now() - start) / 1000;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024);
  const flagged = new Set(pairs.flatMap((pair) => [notes[pair.a]!.review, notes[pair.b]!.review])).size;
  // The other two flag types on a slice, per review.
  const slice = syntheticReviews(20_000, { seed: 9 });
  const profanity = new ProfanityMatcher();
  let t = performance.now();
  for (const review of slice) review.notes.some((note) => profanity.hasProfanity(note));
  const profanityMs = (performance.now() - t) / slice.length;
  t = performance.now();
  for (const review of slice) aiGeneratedScore(review.notes.join('\n'));
  const aiMs = (performance.now() - t) / slice.length;
  return {
    notes: notes.length,
    reviews,
    seconds: round(seconds, 2),
    peak_rss_gib: round(peak / 2 ** 30, 2),
    similar_pairs: pairs.length,
    flagged_reviews: flagged,
    profanity_ms_per_review: round(profanityMs, 3),
    ai_generated_ms_per_review: round(aiMs, 3),
  };
}

const results = { sample: sample(), large: large(Number(process.env.FLAGS_BENCH_NOTES ?? 1_000_000)) };
console.table([results.sample]);
console.table([results.large]);
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'flags.json'), `${JSON.stringify(results, null, 2)}\n`);
