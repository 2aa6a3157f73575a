/**
 * A transparent "possibly machine-written" score in 0..1 (DOMAIN.md "Flags", type 2). It is a hint for moderators,
 * never a verdict: every feature below is something a person can check in the text, and the weights are fixed here.
 *
 * Features, each mapped to 0..1:
 * - stockPhrases (weight 0.4): phrases language models overuse ("it is important to note", "delve", "robust",
 *   "seamless", "in conclusion"…), per 100 words; 3 or more per 100 words counts fully.
 * - uniformity (0.25): how alike the sentences' lengths are. People vary (coefficient of variation ≈ 0.5–0.8);
 *   generated prose is even. CV ≥ 0.6 counts 0, CV ≤ 0.2 counts fully. Needs at least 4 sentences.
 * - transitions (0.2): the share of sentences that open with a connective ("Furthermore,", "Moreover,",
 *   "Additionally,", "Overall,"…); a third or more counts fully.
 * - wordLength (0.15): mean word length; 4.6 letters counts 0, 5.8 or more counts fully.
 */
export const AI_FEATURE_WEIGHTS = { stockPhrases: 0.4, uniformity: 0.25, transitions: 0.2, wordLength: 0.15 } as const;

const STOCK_PHRASES = [
  'it is important to note',
  'it is worth noting',
  "it's important to note",
  'in conclusion',
  'in summary',
  'overall,',
  'delve',
  'delves',
  'robust',
  'seamless',
  'seamlessly',
  'holistic',
  'leverage',
  'leverages',
  'leveraging',
  'comprehensive',
  'plays a crucial role',
  'plays a pivotal role',
  'a testament to',
  'pivotal',
  'paramount',
  'landscape',
  'foster',
  'fostering',
  'navigate the',
  'ever-evolving',
  'cutting-edge',
  "in today's",
  'multifaceted',
  'underscores',
  'showcases',
  'meticulous',
  'tapestry',
  'furthermore',
  'moreover',
  'additionally',
  'ensuring that',
  'aligns well with',
  'well-structured',
  'a clear roadmap',
];

const TRANSITIONS =
  /^(furthermore|moreover|additionally|overall|in conclusion|in summary|however|notably|ultimately|consequently|thus|therefore)\b/i;

const clamp = (value: number) => Math.min(1, Math.max(0, value));

export interface AiFeatures {
  stockPhrases: number;
  uniformity: number;
  transitions: number;
  wordLength: number;
}

const escape = (phrase: string) => phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** All stock phrases in one pass; a phrase ending in a letter must end a word ("leverage" is not "leverages"). */
const STOCK_PATTERN = new RegExp(
  `(?<![\\p{L}])(?:${[...STOCK_PHRASES]
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|')})(?![\\p{L}])`,
  'gu',
);

export function aiFeatures(text: string): AiFeatures {
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

/** The weighted score in 0..1, to four decimals. */
export function aiGeneratedScore(text: string): number {
  const features = aiFeatures(text);
  const score = (Object.keys(AI_FEATURE_WEIGHTS) as (keyof AiFeatures)[]).reduce(
    (sum, name) => sum + AI_FEATURE_WEIGHTS[name] * features[name],
    0,
  );
  return Math.round(clamp(score) * 10_000) / 10_000;
}
