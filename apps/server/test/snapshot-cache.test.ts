import { describe, expect, it } from 'vitest';
import { createCountCache } from '../src/lib/count-cache';
import { createSnapshotCache } from '../src/lib/snapshot-cache';

// Issue 15 item 5: the dashboard's snapshots are counted once at a time and served stale while a recount runs.

const deferred = <T>() => {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  return { promise, resolve, reject };
};

describe('snapshot cache', () => {
  it('counts a key once however many callers ask at once, then serves the snapshot until it is stale', async () => {
    const cache = createSnapshotCache<number>({ ttlMs: 60_000 });
    const count = deferred<number>();
    let loads = 0;
    const load = () => {
      loads += 1;
      return count.promise;
    };
    const first = cache.get('a', load);
    const second = cache.get('a', load);
    count.resolve(1);
    expect([await first, await second]).toEqual([1, 1]);
    expect(await cache.get('a', () => Promise.resolve(2))).toBe(1);
    expect(loads).toBe(1);
    expect([cache.has('a'), cache.has('b')]).toEqual([true, false]);
  });

  it('serves the stale snapshot while one recount runs, then the recounted one; a failed recount keeps the old one', async () => {
    const errors: unknown[] = [];
    const cache = createSnapshotCache<number>({ ttlMs: 0, onError: (error) => errors.push(error) });
    expect(await cache.get('a', () => Promise.resolve(1))).toBe(1);
    const recount = deferred<number>();
    let loads = 0;
    const load = () => {
      loads += 1;
      return recount.promise;
    };
    expect(await cache.get('a', load)).toBe(1);
    expect(await cache.get('a', load)).toBe(1);
    expect(loads).toBe(1);
    recount.resolve(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await cache.get('a', () => Promise.reject(new Error('down')))).toBe(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(errors).toHaveLength(1);
    expect(await cache.get('a', () => Promise.resolve(3))).toBe(2);
  });

  // Issue 30 item 6: background recounts of every cache share one lane (lib/concurrency `backgroundLane`).
  it('runs background recounts one at a time across the snapshot and totals caches; a caller who waits is not queued', async () => {
    const snapshots = createSnapshotCache<number>({ ttlMs: 0 });
    const totals = createCountCache(0);
    const told: boolean[] = [];
    expect(await snapshots.get('s', async (background) => (told.push(background), 1))).toBe(1);
    expect(await totals.get('t', () => Promise.resolve(10))).toBe(10);
    const recount = deferred<number>();
    expect(await snapshots.get('s', (background) => (told.push(background), recount.promise))).toBe(1);
    let totalsStarted = 0;
    const refresh = deferred<number>();
    expect(
      await totals.get('t', () => {
        totalsStarted += 1;
        return refresh.promise;
      }),
    ).toBe(10);
    // The totals' refresh waits in the lane behind the snapshot's recount; a first count of a new key does not.
    expect(totalsStarted).toBe(0);
    expect(await totals.get('new', () => Promise.resolve(7))).toBe(7);
    expect(told).toEqual([false, true]);
    recount.resolve(2);
    await new Promise((resolve) => setImmediate(resolve));
    expect(totalsStarted).toBe(1);
    refresh.resolve(11);
    await new Promise((resolve) => setImmediate(resolve));
    expect([
      // Answers the kept 2, and recounts behind it (settled below: a recount left pending would hold the process's lane
      // for every later test file in this worker).
      await snapshots.get('s', () => Promise.resolve(3)),
      await totals.get('t', () => Promise.resolve(12)),
    ]).toEqual([2, 11]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await snapshots.get('s', () => Promise.resolve(4))).toBe(3);
  });

  it('makes the first caller of a key wait for the count, and passes its failure on', async () => {
    const cache = createSnapshotCache<number>({ ttlMs: 60_000 });
    await expect(cache.get('a', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('a', () => Promise.resolve(4))).toBe(4);
  });

  // Issue 26 item 16: an admin run makes the event's dashboard forgotten.
  it('forgets a key: the next caller waits for a fresh count, and a count running meanwhile is not kept', async () => {
    const cache = createSnapshotCache<number>({ ttlMs: 60_000 });
    expect(await cache.get('a', () => Promise.resolve(1))).toBe(1);
    cache.forget('a');
    expect(cache.has('a')).toBe(false);
    expect(await cache.get('a', () => Promise.resolve(2))).toBe(2);

    const before = deferred<number>();
    const running = cache.get('b', () => before.promise);
    cache.forget('b');
    const after = cache.get('b', () => Promise.resolve(4));
    before.resolve(3);
    // The count from before the write answers its own caller, but the snapshot kept is the one counted after.
    expect([await running, await after]).toEqual([3, 4]);
    expect(await cache.get('b', () => Promise.resolve(5))).toBe(4);
  });
});
