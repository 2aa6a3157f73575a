import { describe, expect, it } from 'vitest';
import { createLimiter } from '../src/lib/concurrency';
import { createCountCache, type CountOptions } from '../src/lib/count-cache';
import { countReviews } from '../src/modules/reviews/reviews.repository';

/** Lanes of the test's own, as the process's are (two first counts, one background count at a time). */
const ownLanes = () => ({ first: createLimiter(2), background: createLimiter(1) });

/** A count the test answers when it chooses, and a clock the test moves: nothing here waits on real time. */
function controlledLoads() {
  const pending: { resolve: (total: number) => void; reject: (error: Error) => void }[] = [];
  return {
    load: () => new Promise<number>((resolve, reject) => pending.push({ resolve, reject })),
    get started() {
      return pending.length;
    },
    answer: (index: number, total: number) => pending[index]!.resolve(total),
    fail: (index: number) => pending[index]!.reject(new Error('count failed')),
  };
}
const fakeClock = () => {
  let time = 1_000_000;
  return { now: () => time, advance: (ms: number) => (time += ms) };
};
/** Lets settled promises run their callbacks. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('list totals cache', () => {
  it('counts a key once while the first requests wait for it, and serves it within the TTL', async () => {
    const clock = fakeClock();
    const cache = createCountCache(10_000, 100, clock.now, 'totals', ownLanes());
    const loads = controlledLoads();
    const first = Promise.all([cache.get('k', loads.load), cache.get('k', loads.load), cache.get('k', loads.load)]);
    expect(loads.started).toBe(1);
    loads.answer(0, 42);
    expect(await first).toEqual([42, 42, 42]);
    clock.advance(9_999);
    expect(await cache.get('k', loads.load)).toBe(42);
    expect(loads.started).toBe(1);
  });

  it('serves the old total after the TTL while one background count refreshes it', async () => {
    const clock = fakeClock();
    const cache = createCountCache(10_000, 100, clock.now, 'totals', ownLanes());
    const loads = controlledLoads();
    const first = cache.get('k', loads.load);
    loads.answer(0, 42);
    await first;
    clock.advance(10_000);
    // Expired: every request answers at once with the old total; one count runs behind them.
    expect(await Promise.all([cache.get('k', loads.load), cache.get('k', loads.load), cache.get('k', loads.load)])).toEqual([42, 42, 42]);
    expect(loads.started).toBe(2);
    expect(cache.refreshing).toBe(1);
    loads.answer(1, 43);
    await settle();
    expect(cache.refreshing).toBe(0);
    expect(await cache.get('k', loads.load)).toBe(43);
    expect(loads.started).toBe(2);
  });

  it('keeps the old total when a refresh fails, and tries again on the next request', async () => {
    const clock = fakeClock();
    const cache = createCountCache(10_000, 100, clock.now, 'totals', ownLanes());
    const loads = controlledLoads();
    const first = cache.get('k', loads.load);
    loads.answer(0, 42);
    await first;
    clock.advance(10_000);
    expect(await cache.get('k', loads.load)).toBe(42);
    loads.fail(1);
    await settle();
    expect(await cache.get('k', loads.load)).toBe(42);
    expect(loads.started).toBe(3);
    loads.answer(2, 44);
    await settle();
    expect(await cache.get('k', loads.load)).toBe(44);
  });

  it('makes the first request after a clear() wait for a fresh count, and drops counts started before it', async () => {
    const clock = fakeClock();
    const cache = createCountCache(10_000, 100, clock.now, 'totals', ownLanes());
    const loads = controlledLoads();
    const old = cache.get('k', loads.load);
    cache.clear();
    loads.answer(0, 1);
    expect(await old).toBe(1);
    const fresh = cache.get('k', loads.load);
    expect(loads.started).toBe(2);
    loads.answer(1, 2);
    expect(await fresh).toBe(2);
    expect(await cache.get('k', loads.load)).toBe(2);
  });

  it('counts at most two first totals at once, the others waiting their turn (issue 30 item 6)', async () => {
    const cache = createCountCache(10_000, 100, Date.now, 'totals', ownLanes());
    const loads = controlledLoads();
    const totals = ['a', 'b', 'c', 'd', 'e'].map((key) => cache.get(key, loads.load));
    // Five filters counted for the first time together: two counts run, three wait — not on the pool's connections.
    expect(loads.started).toBe(2);
    loads.answer(1, 11);
    await settle();
    expect(loads.started).toBe(3);
    loads.answer(0, 10);
    loads.answer(2, 12);
    await settle();
    expect(loads.started).toBe(5);
    loads.answer(3, 13);
    loads.answer(4, 14);
    expect(await Promise.all(totals)).toEqual([10, 11, 12, 13, 14]);
  });

  it('counts a bounded first total at once, even while the first lane is full (issue 45 item 14)', async () => {
    const cache = createCountCache(10_000, 100, Date.now, 'totals', ownLanes());
    const loads = controlledLoads();
    const costly = ['title a', 'title b', 'title c'].map((key) => cache.get(key, loads.load));
    expect(loads.started).toBe(2);
    // One reviewer's own reviews: not queued behind the round's costly counts.
    const own = cache.get('my reviews', loads.load, { bounded: true });
    expect(loads.started).toBe(3);
    loads.answer(2, 20);
    expect(await own).toBe(20);
    // Kept as any other total, and the costly ones still two at a time.
    expect(await cache.get('my reviews', () => Promise.reject(new Error('not counted again')), { bounded: true })).toBe(20);
    expect(loads.started).toBe(3);
    loads.answer(0, 1);
    await settle();
    expect(loads.started).toBe(4);
    loads.answer(1, 2);
    loads.answer(3, 3);
    expect(await Promise.all(costly)).toEqual([1, 2, 3]);
  });

  it('has the reviews list count a reviewer’s own reviews as bounded, and every other filter not', async () => {
    const optionsOf = async (filter: Parameters<typeof countReviews>[1]) => {
      let seen: CountOptions | undefined;
      // The cache answers: the statement never runs, so no database is needed.
      await countReviews(undefined as never, filter, {} as never, (_key, _load, options) => {
        seen = options;
        return Promise.resolve(0);
      });
      return seen;
    };
    expect(await optionsOf({ subscriptionIds: [7, 8] })).toEqual({ bounded: true });
    expect(await optionsOf({ proposalTitle: 'wallet' })).toEqual({ bounded: false });
    expect(await optionsOf({})).toEqual({ bounded: false });
  });

  it('forgets the least recently counted key beyond its size', async () => {
    const clock = fakeClock();
    const cache = createCountCache(10_000, 2, clock.now, 'totals', ownLanes());
    const loads = controlledLoads();
    for (const [index, key] of ['a', 'b', 'c'].entries()) {
      const got = cache.get(key, loads.load);
      loads.answer(index, index);
      await got;
    }
    const again = cache.get('a', loads.load);
    expect(loads.started).toBe(4);
    loads.answer(3, 10);
    expect(await again).toBe(10);
    expect(await cache.get('c', loads.load)).toBe(2);
    expect(loads.started).toBe(4);
  });
});
