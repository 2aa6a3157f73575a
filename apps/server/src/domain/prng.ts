/**
 * A small, fast, seedable pseudo-random generator (mulberry32 over a 32-bit state, the seed first mixed with
 * splitmix32 so that nearby seeds give unrelated streams). The admin runs use it so that the same seed and the same
 * inputs always give the same result; it is not for secrets.
 */
export interface Prng {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  below(n: number): number;
}

function splitmix32(seed: number): number {
  let z = (seed + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

export function createPrng(seed: number): Prng {
  let state = splitmix32(Math.trunc(seed) | 0);
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, below: (n) => Math.floor(next() * n) };
}

/** Fisher–Yates shuffle in place, driven by the generator. */
export function shuffleInPlace<T>(items: T[], prng: Prng): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = prng.below(i + 1);
    const swap = items[i]!;
    items[i] = items[j]!;
    items[j] = swap;
  }
  return items;
}
