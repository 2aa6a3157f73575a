import { describe, expect, it } from 'vitest';
import { createCountCache } from '../src/lib/count-cache';

describe('list totals cache', () => {
  it('counts a key once while requests wait for it, and serves it until the TTL', async () => {
    const cache = createCountCache(60_000);
    let loads = 0;
    const load = async () => {
      loads += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return 42;
    };
    expect(await Promise.all([cache.get('k', load), cache.get('k', load), cache.get('k', load)])).toEqual([42, 42, 42]);
    expect(await cache.get('k', load)).toBe(42);
    expect(loads).toBe(1);
  });

  it('does not keep a total counted before a clear()', async () => {
    const cache = createCountCache(60_000);
    let release!: (value: number) => void;
    const old = cache.get('k', () => new Promise<number>((resolve) => (release = resolve)));
    cache.clear();
    release(1);
    expect(await old).toBe(1);
    expect(await cache.get('k', async () => 2)).toBe(2);
  });
});
