import { describe, expect, it } from 'vitest';
import { allLimited, createLimiter } from '../src/lib/concurrency';

/** A task that records how many tasks run while it runs, and ends when told to. */
function tracked() {
  let running = 0;
  let peak = 0;
  const ends: (() => void)[] = [];
  const task = (value: number) => async () => {
    running += 1;
    peak = Math.max(peak, running);
    await new Promise<void>((resolve) => ends.push(resolve));
    running -= 1;
    return value;
  };
  return { task, ends, peak: () => peak, running: () => running };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('createLimiter', () => {
  it('runs at most its slots at once, the rest in order as slots free up', async () => {
    const limited = createLimiter(2);
    const t = tracked();
    const results = [1, 2, 3, 4, 5].map((n) => limited(t.task(n)));
    await settle();
    expect(t.running()).toBe(2);
    while (t.ends.length > 0) {
      t.ends.shift()!();
      await settle();
      expect(t.running()).toBeLessThanOrEqual(2);
    }
    expect(await Promise.all(results)).toEqual([1, 2, 3, 4, 5]);
    expect(t.peak()).toBe(2);
  });

  it('frees the slot of a task that fails', async () => {
    const limited = createLimiter(1);
    await expect(limited(() => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await limited(() => Promise.resolve('next'))).toBe('next');
  });
});

describe('allLimited', () => {
  it('answers every result in order with at most the given number running', async () => {
    const t = tracked();
    const all = allLimited(2, [t.task(1), t.task(2), t.task(3)] as const);
    await settle();
    expect(t.running()).toBe(2);
    while (t.ends.length > 0) {
      t.ends.shift()!();
      await settle();
    }
    expect(await all).toEqual([1, 2, 3]);
    expect(t.peak()).toBe(2);
  });
});
