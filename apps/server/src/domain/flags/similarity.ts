/**
 * Near-duplicate notes (DOMAIN.md "Flags", similarity): character shingles, MinHash signatures with LSH banding to
 * find candidate pairs, then the exact Jaccard similarity of the candidates' shingle sets. Never all pairs: the cost
 * is linear in the total text plus the candidates.
 *
 * - Text is normalised first: lower case, every run of characters that are not letters or digits becomes one space.
 * - A shingle is SHINGLE_LENGTH consecutive characters of the normalised text, hashed with a rolling polynomial hash
 *   and a 32-bit finaliser. A note's set is the set of its shingle hashes ("exact" Jaccard is over these hashes; a
 *   32-bit collision inside two notes of ~3,000 characters is rare enough not to matter).
 * - The signature is a one-permutation MinHash: each hash falls into one of SIGNATURE_BINS bins by its low bits and
 *   the bin keeps its smallest high part; empty bins borrow from the next non-empty bin (rotation densification), so
 *   that short notes still give full signatures.
 * - LSH: the first BANDS × ROWS bins form BANDS bands; notes with an equal band share a bucket. With 21 bands of 6
 *   rows, a pair at similarity 0.8 becomes a candidate with probability 1 − (1 − 0.8⁶)²¹ ≈ 0.998, a pair at 0.5
 *   with ≈ 0.28, at 0.1 with ≈ 2·10⁻⁵: unrelated notes (similarity ≈ 0.01–0.05) almost never meet. Candidates are
 *   first screened by the signatures' estimate, then measured exactly.
 * - A bucket larger than BUCKET_WINDOW (e.g. hundreds of copies of one note) pairs each note with its next
 *   BUCKET_WINDOW neighbours only, so a flood of identical notes stays linear; each copy is still flagged.
 */

export const SHINGLE_LENGTH = 9;
export const SIGNATURE_BINS = 128;
const BIN_BITS = 7;
export const BANDS = 21;
export const ROWS = 6;
export const BUCKET_WINDOW = 64;
/** Candidates whose estimated similarity is this far below the threshold skip the exact measure. */
const ESTIMATE_SLACK = 0.2;

const EMPTY = 0xffffffff;

export interface Note {
  /** The review the note belongs to. */
  review: number;
  /** Which note of the review (0 impact, 1 feasibility, 2 auditability). */
  criterion: number;
  text: string;
}

export interface SimilarPair {
  /** Indexes into the notes given. */
  a: number;
  b: number;
  similarity: number;
}

/** A letter or digit (ASCII fast path, then Unicode) in lower case, or -1 for a separator. */
function foldChar(code: number): number {
  if (code < 128) {
    if (code >= 65 && code <= 90) return code + 32;
    if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57)) return code;
    return -1;
  }
  const char = String.fromCharCode(code);
  const lower = char.toLowerCase();
  // Letters differ in case or are letters by Unicode property; anything else (punctuation, spaces) separates.
  if (lower !== char.toUpperCase() || /\p{L}|\p{N}/u.test(char)) return lower.charCodeAt(0);
  return -1;
}

/** murmur3's 32-bit finaliser: spreads a rolling hash over all bits. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const BASE = 0x01000193;
/** BASE^(SHINGLE_LENGTH − 1) mod 2³², to remove the character leaving the window. */
const BASE_OUT = (() => {
  let power = 1;
  for (let i = 0; i < SHINGLE_LENGTH - 1; i += 1) power = Math.imul(power, BASE);
  return power;
})();

let scratch = new Uint32Array(4096);
const window = new Int32Array(SHINGLE_LENGTH);

/**
 * Writes the hash of every shingle of the normalised text (duplicates included) into a shared scratch buffer and
 * returns the buffer and the count. The normalisation happens on the fly, with no intermediate string, and the loop
 * calls nothing per character on ASCII text: this is the hot path of a million-note run.
 */
export function hashShingles(text: string): { hashes: Uint32Array; count: number } {
  if (scratch.length < text.length + 1) scratch = new Uint32Array(text.length * 2);
  const hashes = scratch;
  let filled = 0;
  let hash = 0;
  let count = 0;
  // A run of separators becomes one space, written only when the next letter comes (none at the ends).
  let spacePending = false;
  for (let i = 0; i < text.length; i += 1) {
    let code = text.charCodeAt(i);
    if (code < 128) {
      if (code >= 65 && code <= 90) code += 32;
      else if (!((code >= 97 && code <= 122) || (code >= 48 && code <= 57))) code = -1;
    } else code = foldChar(code);
    if (code < 0) {
      spacePending = filled > 0;
      continue;
    }
    for (let k = spacePending ? 0 : 1; k < 2; k += 1) {
      const next = k === 0 ? 32 : code;
      const slot = filled % SHINGLE_LENGTH;
      if (filled >= SHINGLE_LENGTH) hash = (hash - Math.imul(window[slot]!, BASE_OUT)) | 0;
      hash = (Math.imul(hash, BASE) + next) | 0;
      window[slot] = next;
      filled += 1;
      if (filled >= SHINGLE_LENGTH) hashes[count++] = mix(hash);
    }
    spacePending = false;
  }
  // A note shorter than one shingle is one shingle.
  if (count === 0 && filled > 0) hashes[count++] = mix(hash);
  return { hashes, count };
}

/** The sorted, distinct shingle hashes of a text. */
export function shingleSet(text: string): Uint32Array {
  const { hashes, count } = hashShingles(text);
  const sorted = hashes.slice(0, count).sort();
  let size = 0;
  for (let i = 0; i < sorted.length; i += 1) if (i === 0 || sorted[i] !== sorted[i - 1]) sorted[size++] = sorted[i]!;
  return sorted.slice(0, size);
}

/** Jaccard similarity of two sorted sets. */
export function jaccard(a: Uint32Array, b: Uint32Array): number {
  if (a.length === 0 && b.length === 0) return 1;
  let i = 0;
  let j = 0;
  let shared = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      shared += 1;
      i += 1;
      j += 1;
    } else if (a[i]! < b[j]!) i += 1;
    else j += 1;
  }
  return shared / (a.length + b.length - shared);
}

/** Writes the note's MinHash signature into `out` at `offset` (SIGNATURE_BINS values). */
export function signatureInto(text: string, out: Uint32Array, offset: number): void {
  out.fill(EMPTY, offset, offset + SIGNATURE_BINS);
  const { hashes, count } = hashShingles(text);
  for (let i = 0; i < count; i += 1) {
    const hash = hashes[i]!;
    const bin = offset + (hash & (SIGNATURE_BINS - 1));
    const value = hash >>> BIN_BITS;
    if (value < out[bin]!) out[bin] = value;
  }
  // Rotation densification: an empty bin takes the next non-empty bin's value, offset by the distance so that two
  // notes borrowing from different bins do not look alike.
  for (let bin = 0; bin < SIGNATURE_BINS; bin += 1) {
    if (out[offset + bin] !== EMPTY) continue;
    for (let step = 1; step < SIGNATURE_BINS; step += 1) {
      const donor = out[offset + ((bin + step) % SIGNATURE_BINS)]!;
      if (donor !== EMPTY && donor < 1 << 25) {
        out[offset + bin] = donor + step * (1 << 25);
        break;
      }
    }
  }
}

function bandKey(signatures: Uint32Array, note: number, band: number): number {
  let h = 0x9747b28c ^ band;
  const start = note * SIGNATURE_BINS + band * ROWS;
  for (let r = 0; r < ROWS; r += 1) h = mix((h ^ signatures[start + r]!) + r);
  return h;
}

function estimate(signatures: Uint32Array, a: number, b: number): number {
  let equal = 0;
  const sa = a * SIGNATURE_BINS;
  const sb = b * SIGNATURE_BINS;
  for (let k = 0; k < SIGNATURE_BINS; k += 1) if (signatures[sa + k] === signatures[sb + k]) equal += 1;
  return equal / SIGNATURE_BINS;
}

export interface SimilarityOptions {
  threshold: number;
  /** Pairs of notes that may be compared; the default skips two notes of the same review. */
  comparable?: (a: Note, b: Note) => boolean;
}

/**
 * Every pair of notes (of different reviews) whose Jaccard similarity is at least the threshold, found through LSH
 * candidates. Returns the pairs with their exact similarity.
 */
export function findSimilarNotes(notes: readonly Note[], options: SimilarityOptions): SimilarPair[] {
  const count = notes.length;
  const comparable = options.comparable ?? ((a: Note, b: Note) => a.review !== b.review);
  const signatures = new Uint32Array(count * SIGNATURE_BINS);
  for (let i = 0; i < count; i += 1) signatureInto(notes[i]!.text, signatures, i * SIGNATURE_BINS);

  // Candidate pairs, deduplicated: key = smaller * count + larger (exact below 2⁵³ for any realistic count).
  const candidates = new Set<number>();
  const keyed = new Float64Array(count);
  const indexBits = 2 ** Math.max(1, Math.ceil(Math.log2(count + 1)));
  for (let band = 0; band < BANDS; band += 1) {
    for (let i = 0; i < count; i += 1) keyed[i] = bandKey(signatures, i, band) * indexBits + i;
    keyed.sort();
    let start = 0;
    while (start < count) {
      const key = Math.floor(keyed[start]! / indexBits);
      let end = start + 1;
      while (end < count && Math.floor(keyed[end]! / indexBits) === key) end += 1;
      for (let x = start; x < end - 1; x += 1) {
        const a = keyed[x]! % indexBits;
        const last = Math.min(end, x + 1 + BUCKET_WINDOW);
        for (let y = x + 1; y < last; y += 1) {
          const b = keyed[y]! % indexBits;
          candidates.add(a < b ? a * count + b : b * count + a);
        }
      }
      start = end;
    }
  }

  const sets = new Map<number, Uint32Array>();
  const setOf = (i: number) => {
    let set = sets.get(i);
    if (!set) {
      set = shingleSet(notes[i]!.text);
      sets.set(i, set);
    }
    return set;
  };
  const pairs: SimilarPair[] = [];
  for (const key of candidates) {
    const a = Math.floor(key / count);
    const b = key - a * count;
    if (!comparable(notes[a]!, notes[b]!)) continue;
    if (estimate(signatures, a, b) < options.threshold - ESTIMATE_SLACK) continue;
    const similarity = jaccard(setOf(a), setOf(b));
    if (similarity >= options.threshold) pairs.push({ a, b, similarity });
  }
  return pairs;
}
