import { ProfanityMatcher } from '../domain/flags/profanity';
import { createPrng, type Prng } from '../domain/prng';

/**
 * Synthetic review notes for tests, benchmarks and `seed-scale`: plausible English built from a fixed vocabulary by
 * a seeded generator, so that unrelated notes share words (as real reviews do) but rarely long passages, plus
 * planted near-duplicates (a note copied with a few words changed) that the similarity flag must find.
 */
const pick = <T>(items: readonly T[], prng: Prng) => items[prng.below(items.length)]!;

const COMMON = (
  'the a of and to in is for that it this with as on be are by not will can its their more have an from which ' +
  'team proposal project budget plan would should also but very well clear some there has been they how what ' +
  'impact feasibility value money community cardano milestones roadmap risk deliverables users developers'
).split(' ');
const SYLLABLES =
  'ba be bi bo bu ca ce co da de di do fa fe fi ga ge go ha he hi ka ke ko la le li lo ma me mi mo na ne ni no pa pe pi po ra re ri ro sa se si so ta te ti to va ve vi wa we ya yo za ze'.split(
    ' ',
  );

/** A fixed vocabulary: common English words and 4,000 made-up words of two to four syllables, none of them profane. */
const VOCABULARY = (() => {
  const prng = createPrng(2024);
  const profanity = new ProfanityMatcher();
  const made = new Set<string>();
  while (made.size < 4000) {
    const syllables = 2 + prng.below(3);
    let madeWord = '';
    for (let i = 0; i < syllables; i += 1) madeWord += pick(SYLLABLES, prng);
    if (!profanity.hasProfanity(madeWord)) made.add(madeWord);
  }
  return [...COMMON, ...made];
})();

/** A word with a Zipf-like frequency: the first words of the vocabulary are by far the most used. */
function word(prng: Prng): string {
  const rank = Math.floor(VOCABULARY.length ** prng.next()) - 1;
  return VOCABULARY[rank]!;
}

/** One note of roughly `length` characters (the notes of a review are 200–3000 non-space characters). */
export function syntheticNote(prng: Prng, length = 600): string {
  const sentences: string[] = [];
  let size = 0;
  while (size < length) {
    const words = Array.from({ length: 6 + prng.below(18) }, () => word(prng));
    const sentence = `${words.join(' ')}.`;
    sentences.push(sentence[0]!.toUpperCase() + sentence.slice(1));
    size += sentence.length + 1;
  }
  return sentences.join(' ');
}

/** A near-duplicate: the note with about `rate` of its words replaced or dropped. */
export function nearDuplicate(note: string, prng: Prng, rate = 0.03): string {
  return note
    .split(' ')
    .flatMap((word) => {
      if (prng.next() >= rate) return [word];
      return prng.next() < 0.5 ? [] : [pick(['really', 'also', 'quite', 'clearly', 'maybe'], prng)];
    })
    .join(' ');
}

export interface CorpusReview {
  id: number;
  notes: [string, string, string];
}

/**
 * `count` reviews of three notes; `duplicateRate` of them copy one note of an earlier review (near-duplicate), half of
 * those into another criterion than the original's, so both "per criterion" and "across criteria" matches exist.
 */
export function syntheticReviews(count: number, options: { seed?: number; duplicateRate?: number; length?: number } = {}): CorpusReview[] {
  const prng = createPrng(options.seed ?? 7);
  const duplicateRate = options.duplicateRate ?? 0.01;
  const reviews: CorpusReview[] = [];
  for (let i = 0; i < count; i += 1) {
    const notes: [string, string, string] = [
      syntheticNote(prng, options.length),
      syntheticNote(prng, options.length),
      syntheticNote(prng, options.length),
    ];
    if (i > 0 && prng.next() < duplicateRate) {
      const source = reviews[prng.below(reviews.length)]!;
      const from = prng.below(3);
      const to = prng.next() < 0.5 ? from : (from + 1 + prng.below(2)) % 3;
      notes[to] = nearDuplicate(source.notes[from]!, prng);
    }
    reviews.push({ id: i + 1, notes });
  }
  return reviews;
}
