/** One piece of a note: `shared` when it belongs to a passage that the other note has too. */
export interface Segment {
  text: string;
  shared: boolean;
}

const SHINGLE = 3;
const normalise = (word: string) => word.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

function words(text: string) {
  // Words with the spaces after them, so that the segments join back to the text.
  const parts = text.match(/\S+\s*|\s+/g) ?? [];
  return parts.map((part) => ({ part, word: normalise(part) }));
}

function shingles(list: { word: string }[], size: number) {
  const found = new Set<string>();
  const kept = list.filter((item) => item.word !== '');
  for (let start = 0; start + size <= kept.length; start += 1)
    found.add(
      kept
        .slice(start, start + size)
        .map((item) => item.word)
        .join(' '),
    );
  return found;
}

/**
 * Splits `text` into segments, marking the words that belong to a run of `size` words (word shingles, case and
 * punctuation ignored) which `other` also contains: the passages two near-duplicate notes share (issue 14 item 5).
 */
export function sharedPassages(text: string, other: string, size = SHINGLE): Segment[] {
  const own = words(text);
  const theirs = shingles(words(other), size);
  const marked = new Array<boolean>(own.length).fill(false);
  const indexed = own.map((item, index) => ({ ...item, index })).filter((item) => item.word !== '');
  for (let start = 0; start + size <= indexed.length; start += 1) {
    const run = indexed.slice(start, start + size);
    if (theirs.has(run.map((item) => item.word).join(' '))) for (const item of run) marked[item.index] = true;
  }
  const segments: Segment[] = [];
  own.forEach((item, index) => {
    const last = segments.at(-1);
    if (last && last.shared === marked[index]) last.text += item.part;
    else segments.push({ text: item.part, shared: marked[index] ?? false });
  });
  return segments;
}

/** How much of `text` is shared with `other`, 0..1 of its words: picks which of a review's notes matched. */
export function sharedShare(text: string, other: string): number {
  const segments = sharedPassages(text, other);
  const total = segments.reduce((sum, segment) => sum + segment.text.length, 0);
  return total === 0 ? 0 : segments.filter((segment) => segment.shared).reduce((sum, segment) => sum + segment.text.length, 0) / total;
}
