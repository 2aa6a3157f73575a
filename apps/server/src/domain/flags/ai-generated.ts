import { isSpace } from './text-scan';

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

export const TRANSITIONS =
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
export const STOCK_PATTERN = new RegExp(
  `(?<![\\p{L}])(?:${[...STOCK_PHRASES]
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|')})(?![\\p{L}])`,
  'gu',
);

const APOSTROPHE = 0x27;
const RIGHT_QUOTE = 0x2019;
const HYPHEN = 0x2d;
const LETTER = /\p{L}/u;
const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;
/** Per UTF-16 unit of the Basic Multilingual Plane: 0 unknown, 1 other, 2 number, 3 letter (filled as met). */
const bmpClass = new Uint8Array(0x10000);

/** 3 letter, 2 number, 1 anything else; a code point beyond the BMP is tested each time (rare). */
function classOf(code: number): number {
  if (code < 0x10000) {
    let known = bmpClass[code]!;
    if (known === 0) {
      const char = String.fromCharCode(code);
      known = LETTER.test(char) ? 3 : LETTER_OR_NUMBER.test(char) ? 2 : 1;
      bmpClass[code] = known;
    }
    return known;
  }
  const char = String.fromCodePoint(code);
  return LETTER.test(char) ? 3 : LETTER_OR_NUMBER.test(char) ? 2 : 1;
}

/** A sentence-ending mark before white space: `.`, `!` or `?`. */
const isStop = (code: number) => code === 0x2e || code === 0x21 || code === 0x3f;

/** TRANSITIONS at a given index (sticky; its `^` dropped, as a sticky `^` would only match at 0). */
const TRANSITION_AT = new RegExp(TRANSITIONS.source.replace(/^\^/, ''), 'iy');

/**
 * The features by one pass over the text (a million notes are scored in one run). Its definitions are regular
 * expressions, kept in the unit tests, which check this scan against them on a corpus and on edge cases:
 * - a word is a run of `[\p{L}\p{N}'’-]` (its length in UTF-16 units);
 * - sentences are the text split at `(?<=[.!?])\s+` or `\n+`, trimmed, keeping those with a letter;
 * - a sentence opens with a connective when `TRANSITIONS` matches at its start;
 * - stock phrases are counted by `STOCK_PATTERN` over the lower-case text.
 */
export function aiFeatures(text: string): AiFeatures {
  const lower = text.toLowerCase();
  let words = 0;
  let letters = 0;
  let wordStart = -1;
  for (let i = 0; i <= lower.length; i += 1) {
    const code = i < lower.length ? lower.codePointAt(i)! : -1;
    const wordChar = code >= 0 && (code === APOSTROPHE || code === RIGHT_QUOTE || code === HYPHEN || classOf(code) >= 2);
    if (wordChar) {
      if (wordStart < 0) wordStart = i;
    } else if (wordStart >= 0) {
      words += 1;
      letters += i - wordStart;
      wordStart = -1;
    }
    if (code > 0xffff) i += 1;
  }
  if (words === 0) return { stockPhrases: 0, uniformity: 0, transitions: 0, wordLength: 0 };
  STOCK_PATTERN.lastIndex = 0;
  let stock = 0;
  while (STOCK_PATTERN.exec(lower) !== null) stock += 1;

  // Sentences over the text as written: their word counts, and whether each opens with a connective.
  const lengths: number[] = [];
  let opening = 0;
  let sentenceWords = 0;
  let hasLetter = false;
  let sentenceStart = -1; // the first character that is not white space
  let inWord = false;
  const endSentence = () => {
    if (hasLetter) {
      lengths.push(sentenceWords);
      TRANSITION_AT.lastIndex = sentenceStart;
      if (TRANSITION_AT.test(text)) opening += 1;
    }
    sentenceWords = 0;
    hasLetter = false;
    sentenceStart = -1;
    inWord = false;
  };
  let i = 0;
  while (i < text.length) {
    const code = text.codePointAt(i)!;
    const breaksAfterStop = isSpace(code) && i > 0 && isStop(text.charCodeAt(i - 1));
    if (breaksAfterStop || code === 0x0a) {
      endSentence();
      if (breaksAfterStop) while (i < text.length && isSpace(text.charCodeAt(i))) i += 1;
      else while (i < text.length && text.charCodeAt(i) === 0x0a) i += 1;
      continue;
    }
    if (sentenceStart < 0 && !isSpace(code)) sentenceStart = i;
    const kind = code === APOSTROPHE || code === RIGHT_QUOTE || code === HYPHEN ? 2 : classOf(code);
    if (kind === 3) hasLetter = true;
    if (kind >= 2) {
      if (!inWord) sentenceWords += 1;
      inWord = true;
    } else inWord = false;
    i += code > 0xffff ? 2 : 1;
  }
  endSentence();

  let uniformity = 0;
  if (lengths.length >= 4) {
    const mean = lengths.reduce((a, b) => a + b, 0) / lengths.length;
    const variance = lengths.reduce((sum, length) => sum + (length - mean) ** 2, 0) / lengths.length;
    const cv = mean > 0 ? Math.sqrt(variance) / mean : 0;
    uniformity = clamp((0.6 - cv) / 0.4);
  }
  return {
    stockPhrases: clamp(((stock / words) * 100) / 3),
    uniformity,
    transitions: lengths.length ? clamp((opening / lengths.length) * 3) : 0,
    wordLength: clamp((letters / words - 4.6) / 1.2),
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
