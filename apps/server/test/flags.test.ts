import { FlagType, externalFlag, reviewFlag } from '@cr/contract/flags';
import { describe, expect, it } from 'vitest';
import {
  AI_FEATURE_WEIGHTS,
  aiFeatures,
  aiGeneratedScore,
  STOCK_PATTERN,
  TRANSITIONS,
  type AiFeatures,
} from '../src/domain/flags/ai-generated';
import { computeFlags } from '../src/domain/flags/compute-flags';
import { computeFlagsOnThreads } from '../src/modules/flags/flag-threads';
import { ProfanityMatcher } from '../src/domain/flags/profanity';
import { findSimilarNotes, jaccard, shingleSet, type Note } from '../src/domain/flags/similarity';
import { createPrng } from '../src/domain/prng';
import { nearDuplicate, syntheticNote, syntheticReviews } from '../src/lib/note-corpus';

// Issue 14 item 1; DOMAIN.md "Flags"; spec §3 "Flag".

describe('profanity (flag type 0)', () => {
  const matcher = new ProfanityMatcher();
  it.each(['This is shit.', 'What the FUCK is this', 'sh1t happens', 'A bitchy tone', 'fuuuck'])('finds %j', (text) => {
    expect(matcher.hasProfanity(text)).toBe(true);
  });
  it.each(['Scunthorpe is a town', 'An assessment of the class', 'The cocktail party', 'A grassy hill', 'Analysis of Sussex'])(
    'respects word boundaries: %j is clean',
    (text) => {
      expect(matcher.hasProfanity(text)).toBe(false);
    },
  );
  it('names the profane words as written', () => {
    expect(matcher.profaneWords('Good plan, but the budget is Shit. Really.')).toEqual(['Shit.']);
  });
});

describe('similarity (flag type 1)', () => {
  it('measures Jaccard over shingles after normalising case, punctuation and spaces', () => {
    const a = shingleSet('The Team delivers, on time!');
    const b = shingleSet('the team   delivers on time');
    expect(jaccard(a, b)).toBe(1);
    expect(jaccard(shingleSet('completely different words here'), a)).toBeLessThan(0.1);
  });

  it('finds every planted near-duplicate pair at Jaccard ≥ 0.8 (recall ≥ 0.95 against all pairs), never within a review', () => {
    const reviews = syntheticReviews(300, { seed: 11, duplicateRate: 0.1 });
    const notes: Note[] = reviews.flatMap((review) => review.notes.map((text, criterion) => ({ review: review.id, criterion, text })));
    const found = new Set(findSimilarNotes(notes, { threshold: 0.8 }).map((pair) => `${pair.a}-${pair.b}`));
    const sets = notes.map((note) => shingleSet(note.text));
    let truth = 0;
    let hits = 0;
    for (let a = 0; a < notes.length; a += 1)
      for (let b = a + 1; b < notes.length; b += 1) {
        if (notes[a]!.review === notes[b]!.review || jaccard(sets[a]!, sets[b]!) < 0.8) continue;
        truth += 1;
        if (found.has(`${a}-${b}`)) hits += 1;
      }
    expect(truth).toBeGreaterThan(15);
    expect(hits / truth).toBeGreaterThanOrEqual(0.95);
    for (const key of found) {
      const [a, b] = key.split('-').map(Number);
      expect(notes[a!]!.review).not.toBe(notes[b!]!.review);
      expect(jaccard(sets[a!]!, sets[b!]!)).toBeGreaterThanOrEqual(0.8);
    }
  });

  it('stays linear on a flood of identical notes (each copy is still found)', () => {
    const text = syntheticNote(createPrng(3));
    const notes: Note[] = Array.from({ length: 400 }, (_, i) => ({ review: i + 1, criterion: 0, text }));
    const pairs = findSimilarNotes(notes, { threshold: 0.8 });
    const flagged = new Set(pairs.flatMap((pair) => [pair.a, pair.b]));
    expect(flagged.size).toBe(400);
    expect(pairs.length).toBeLessThan((400 * 399) / 2);
  });
});

describe('ai_generated (flag type 2)', () => {
  const stock =
    'It is important to note that this comprehensive proposal leverages a robust framework. Furthermore, the team ' +
    'delivers a seamless experience. Moreover, the roadmap plays a crucial role in the ecosystem landscape. ' +
    'Additionally, the budget aligns well with the goals. Overall, it is a testament to holistic planning. ' +
    'In conclusion, the proposal fosters a multifaceted community.';
  const human =
    "I read it twice. The budget for the meetups looks too high to me, 40k ADA for three events?? They don't say " +
    'who pays the venue. Team seems ok, I checked two of their GitHub repos and they do ship stuff, though one of them ' +
    'has not had a commit since March. KPIs are vague. Would fund a smaller first phase.';

  it('scores stock, uniform, connective-heavy prose high and plain human notes low, always within 0..1', () => {
    expect(aiGeneratedScore(stock)).toBeGreaterThan(0.6);
    expect(aiGeneratedScore(human)).toBeLessThan(0.3);
    for (const text of ['', '.', 'a', stock.repeat(10), human.toUpperCase(), '!!! ??? ...']) {
      expect(aiGeneratedScore(text)).toBeGreaterThanOrEqual(0);
      expect(aiGeneratedScore(text)).toBeLessThanOrEqual(1);
    }
  });

  it('documents its features: each in 0..1, weights summing to 1', () => {
    expect(Object.values(AI_FEATURE_WEIGHTS).reduce((a, b) => a + b, 0)).toBeCloseTo(1);
    for (const value of Object.values(aiFeatures(stock))) {
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(1);
    }
    expect(aiFeatures(stock).stockPhrases).toBe(1);
    expect(aiFeatures(human).stockPhrases).toBe(0);
  });
});

/** The features' definitions as regular expressions (the scan in ai-generated.ts must answer exactly these). */
function aiFeaturesByDefinition(text: string): AiFeatures {
  const clamp = (value: number) => Math.min(1, Math.max(0, value));
  const lower = text.toLowerCase();
  const words = lower.match(/[\p{L}\p{N}'’-]+/gu) ?? [];
  if (words.length === 0) return { stockPhrases: 0, uniformity: 0, transitions: 0, wordLength: 0 };
  const stock = lower.match(STOCK_PATTERN)?.length ?? 0;
  const sentences = text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => /[\p{L}]/u.test(sentence));
  const lengths = sentences.map((sentence) => (sentence.match(/[\p{L}\p{N}'’-]+/gu) ?? []).length);
  let uniformity = 0;
  if (lengths.length >= 4) {
    const mean = lengths.reduce((a, b) => a + b, 0) / lengths.length;
    const variance = lengths.reduce((sum, length) => sum + (length - mean) ** 2, 0) / lengths.length;
    const cv = mean > 0 ? Math.sqrt(variance) / mean : 0;
    uniformity = clamp((0.6 - cv) / 0.4);
  }
  const opening = sentences.filter((sentence) => TRANSITIONS.test(sentence)).length;
  const letters = words.reduce((sum, word) => sum + word.length, 0);
  return {
    stockPhrases: clamp(((stock / words.length) * 100) / 3),
    uniformity,
    transitions: sentences.length ? clamp((opening / sentences.length) * 3) : 0,
    wordLength: clamp((letters / words.length - 4.6) / 1.2),
  };
}

describe('the one-pass scans answer exactly their regular-expression definitions', () => {
  const edgeCases = [
    '',
    ' ',
    '.',
    'Furthermore',
    '  Moreover, it works.\n\n\nThus done. However\tfine!  Overall. furthermore? thusly not. Notably',
    'First.\u00a0Second!\u2003Third?\u3000Fourth.\ufeffFifth',
    'a.\n b\n\n.c d. . . e',
    "It's important to note: the team’s well-structured, ever-evolving roadmap—robust; robustness; ROBUST.",
    'İstanbul ŞEHİR çok güzel. Ünlü straße. ΣΟΦΊΑ σοφία. 東京は大きい。 Дом 42 — кот.',
    'Emoji 😀 words 𝒜𝒷𝒸 and 𝟘𝟙 numbers. 🙂🙂🙂. Next line\r\nwith CRLF.\rAnd CR.',
    'in conclusion,in summary,overall,robust-seamless leverage-leverages navigate the theory navigate the, end',
    "--- ' ' ’’ - - 123 4.5.6 !!! ??? ...",
  ];
  it('ai_generated features on edge cases (unicode, breaks, punctuation)', () => {
    for (const text of edgeCases) expect(aiFeatures(text), JSON.stringify(text)).toEqual(aiFeaturesByDefinition(text));
  });

  it('ai_generated features and profanity on a corpus of 1,000 synthetic reviews', () => {
    const matcher = new ProfanityMatcher();
    const plain = new ProfanityMatcher();
    for (const review of syntheticReviews(1000, { seed: 9, duplicateRate: 0.02 })) {
      const text = review.notes.join('\n');
      expect(aiFeatures(text)).toEqual(aiFeaturesByDefinition(text));
      const bySplit = text
        .toLowerCase()
        .split(/\s+/)
        .some((token) => token !== '' && plain.profaneWords(token).length > 0);
      expect(matcher.hasProfanity(text)).toBe(bySplit);
    }
    for (const text of ['clean\u00a0shit', 'fine\u2028sh1t', 'x\tfuck', 'nothing here', '']) {
      const bySplit = text
        .toLowerCase()
        .split(/\s+/)
        .some((token) => token !== '' && plain.profaneWords(token).length > 0);
      expect(matcher.hasProfanity(text), text).toBe(bySplit);
    }
  });
});

describe('computeFlags over an event', () => {
  const prng = createPrng(5);
  const base = syntheticNote(prng);
  const reviews = [
    { id: 1, notes: [base, syntheticNote(prng), syntheticNote(prng)] as [string, string, string] },
    // review 2's feasibility note copies review 1's impact note (across criteria)
    { id: 2, notes: [syntheticNote(prng), nearDuplicate(base, prng, 0.02), syntheticNote(prng)] as [string, string, string] },
    { id: 3, notes: [syntheticNote(prng), syntheticNote(prng), `${syntheticNote(prng)} What a shit plan.`] as [string, string, string] },
    { id: 4, notes: [syntheticNote(prng), syntheticNote(prng), syntheticNote(prng)] as [string, string, string] },
  ];
  const { flags, perType } = computeFlags(reviews, { similarityThreshold: 0.8, aiGeneratedThreshold: 0.6 });

  it('fills related_reviews and related_criteria with the other review and its matching note', () => {
    const one = flags.get(1)!.find((flag) => flag.flag_type === FlagType.similarity)!;
    const two = flags.get(2)!.find((flag) => flag.flag_type === FlagType.similarity)!;
    expect(one.related_reviews).toEqual([2]);
    expect(one.related_criteria).toEqual(['feasibility_note']);
    expect(two.related_reviews).toEqual([1]);
    expect(two.related_criteria).toEqual(['impact_note']);
    expect(one.score).toBe(two.score);
    expect(one.score).toBeGreaterThanOrEqual(0.8);
    expect(reviewFlag.safeParse(one).success).toBe(true);
  });

  it('flags profanity with score 1 and leaves clean reviews unflagged', () => {
    expect(flags.get(3)).toEqual([{ flag_type: FlagType.profanity, score: 1, related_reviews: [], related_criteria: null }]);
    expect(flags.has(4)).toBe(false);
    expect(perType).toEqual({ profanity: 1, similarity: 2, ai_generated: 0 });
  });
});

describe('Compute flags on two threads', () => {
  it('answers exactly what one thread answers, the per-review types computed in a worker thread', async () => {
    const reviews = syntheticReviews(300, { seed: 4, duplicateRate: 0.05 }).map((review, index) => ({
      id: review.id,
      notes: (index === 7 ? [review.notes[0], 'This is shit.', review.notes[2]] : review.notes) as [string, string, string],
    }));
    const options = { similarityThreshold: 0.8, aiGeneratedThreshold: 0.3 };
    const expected = computeFlags(reviews, options);
    expect(expected.perType.profanity).toBe(1);
    expect(expected.perType.similarity).toBeGreaterThan(0);
    const threadErrors: unknown[] = [];
    const onThreads = await computeFlagsOnThreads(reviews, {
      ...options,
      minReviews: 0,
      onThreadError: (error) => threadErrors.push(error),
    });
    expect(threadErrors).toEqual([]);
    expect(onThreads).toEqual(expected);
  });
});

describe('external flags file (issue 14 item 1)', () => {
  it('accepts documented lines and refuses unknown types, scores out of range, extra keys and mismatched criteria', () => {
    expect(externalFlag.parse({ review_id: 4, flag_type: 2, score: 0.9 })).toEqual({
      review_id: 4,
      flag_type: 2,
      score: 0.9,
      related_reviews: [],
      related_criteria: null,
    });
    expect(externalFlag.safeParse({ review_id: 4, flag_type: 3, score: 0.9 }).success).toBe(false);
    expect(externalFlag.safeParse({ review_id: 4, flag_type: 1, score: 1.5 }).success).toBe(false);
    expect(externalFlag.safeParse({ review_id: 4, flag_type: 1, score: 1, extra: true }).success).toBe(false);
    expect(externalFlag.safeParse({ review_id: '4', flag_type: 1, score: 1 }).success).toBe(false);
    expect(reviewFlag.safeParse({ flag_type: 1, score: 1, related_reviews: [1, 2], related_criteria: ['impact_note'] }).success).toBe(
      false,
    );
  });
});
