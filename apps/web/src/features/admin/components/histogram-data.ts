/** Wider ranges than this are drawn as they come, without the zero bars in between. */
const MAX_FILLED_RANGE = 200;

/** [value, count] pairs with the missing values between the smallest and the largest as zero bars. */
export function withGaps(pairs: readonly (readonly [number, number])[]): [number, number][] {
  if (pairs.length === 0) return [];
  const sorted = [...pairs].sort((a, b) => a[0] - b[0]);
  const first = sorted[0]![0];
  const last = sorted.at(-1)![0];
  if (last - first > MAX_FILLED_RANGE) return sorted.map(([value, count]) => [value, count]);
  const counts = new Map(sorted);
  const filled: [number, number][] = [];
  for (let value = first; value <= last; value += 1) filled.push([value, counts.get(value) ?? 0]);
  return filled;
}
