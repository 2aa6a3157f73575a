import { FlagType, NOTE_CRITERIA, type NoteCriterion } from '@cr/contract/flags';
import { aiGeneratedScore } from './ai-generated';
import { ProfanityMatcher } from './profanity';
import { findSimilarNotes, type Note } from './similarity';

/** The flags of one review as stored (spec §3 "Flag"). */
export interface ComputedFlag {
  flag_type: FlagType;
  score: number;
  related_reviews: number[];
  related_criteria: NoteCriterion[] | null;
}

export interface FlagInputReview {
  id: number;
  /** The three notes in NOTE_CRITERIA order. */
  notes: readonly [string, string, string];
}

export interface FlagOptions {
  similarityThreshold: number;
  aiGeneratedThreshold: number;
  /** Reuse one matcher across runs (its token cache makes later runs faster). */
  profanity?: ProfanityMatcher;
}

export interface FlagResult {
  flags: Map<number, ComputedFlag[]>;
  perType: { profanity: number; similarity: number; ai_generated: number };
}

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

type PerType = FlagResult['perType'];

const addTo = (flags: Map<number, ComputedFlag[]>, review: number, flag: ComputedFlag) => {
  const list = flags.get(review);
  if (list) list.push(flag);
  else flags.set(review, [flag]);
};

/** The two types judged one review at a time (profanity, then ai_generated): a worker thread can run them. */
export function perReviewFlags(
  reviews: readonly FlagInputReview[],
  options: Pick<FlagOptions, 'aiGeneratedThreshold' | 'profanity'>,
): FlagResult {
  const profanity = options.profanity ?? new ProfanityMatcher();
  const flags = new Map<number, ComputedFlag[]>();
  const perType: PerType = { profanity: 0, similarity: 0, ai_generated: 0 };
  for (const review of reviews) {
    if (review.notes.some((note) => profanity.hasProfanity(note))) {
      addTo(flags, review.id, { flag_type: FlagType.profanity, score: 1, related_reviews: [], related_criteria: null });
      perType.profanity += 1;
    }
    const ai = aiGeneratedScore(review.notes.join('\n'));
    if (ai > options.aiGeneratedThreshold) {
      addTo(flags, review.id, { flag_type: FlagType.ai_generated, score: ai, related_reviews: [], related_criteria: null });
      perType.ai_generated += 1;
    }
  }
  return { flags, perType };
}

/**
 * Similarity flags: a review's flag lists every other review with a note at or above the threshold, most similar
 * first, with the criterion of that review's matching note; its score is the highest similarity.
 */
export function similarityFlags(reviews: readonly FlagInputReview[], options: Pick<FlagOptions, 'similarityThreshold'>): FlagResult {
  const flags = new Map<number, ComputedFlag[]>();
  const notes: Note[] = [];
  for (const review of reviews)
    review.notes.forEach((text, criterion) => {
      if (text.trim()) notes.push({ review: review.id, criterion, text });
    });
  // Per review: the best similarity to each related review and which of its notes matched.
  const related = new Map<number, Map<number, { similarity: number; criterion: number }>>();
  const relate = (from: Note, to: Note, similarity: number) => {
    let byReview = related.get(from.review);
    if (!byReview) related.set(from.review, (byReview = new Map()));
    const known = byReview.get(to.review);
    if (!known || similarity > known.similarity) byReview.set(to.review, { similarity, criterion: to.criterion });
  };
  for (const pair of findSimilarNotes(notes, { threshold: options.similarityThreshold })) {
    relate(notes[pair.a]!, notes[pair.b]!, pair.similarity);
    relate(notes[pair.b]!, notes[pair.a]!, pair.similarity);
  }
  for (const [review, byReview] of related) {
    const ordered = [...byReview.entries()].sort((x, y) => y[1].similarity - x[1].similarity || x[0] - y[0]);
    addTo(flags, review, {
      flag_type: FlagType.similarity,
      score: round4(ordered[0]![1].similarity),
      related_reviews: ordered.map(([id]) => id),
      related_criteria: ordered.map(([, match]) => NOTE_CRITERIA[match.criterion]!),
    });
  }
  return { flags, perType: { profanity: 0, similarity: related.size, ai_generated: 0 } };
}

/** Both parts together: each review's flags in type order (profanity, ai_generated, similarity). */
export function mergeFlagResults(perReview: FlagResult, similarity: FlagResult): FlagResult {
  const flags = new Map([...perReview.flags].map(([review, list]) => [review, [...list]]));
  for (const [review, list] of similarity.flags) for (const flag of list) addTo(flags, review, flag);
  return { flags, perType: { ...perReview.perType, similarity: similarity.perType.similarity } };
}

/** All three flag types over an event's submitted reviews (DOMAIN.md "Flags"). Pure: the run loads and stores. */
export function computeFlags(reviews: readonly FlagInputReview[], options: FlagOptions): FlagResult {
  return mergeFlagResults(perReviewFlags(reviews, options), similarityFlags(reviews, options));
}
