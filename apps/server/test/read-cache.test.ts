import { describe, expect, it } from 'vitest';
import { cachedRead, eventsOrConfigsChanged, READ_CACHE_MAX_KEYS, READ_CACHE_TTL_MS } from '../src/db/read-cache';

describe('in-process read cache of events and configs', () => {
  const clock = () => {
    let time = 5_000_000;
    return { now: () => time, advance: (ms: number) => (time += ms) };
  };

  it('reads once within the TTL, again after it', async () => {
    const db = {};
    const { now, advance } = clock();
    let reads = 0;
    const load = async () => (reads += 1);
    expect(await cachedRead(db, 'k', load, now)).toBe(1);
    advance(READ_CACHE_TTL_MS - 1);
    expect(await cachedRead(db, 'k', load, now)).toBe(1);
    advance(1);
    expect(await cachedRead(db, 'k', load, now)).toBe(2);
  });

  it('reads again at once after a write to events or configs, and keeps databases apart', async () => {
    const [a, b] = [{}, {}];
    const { now } = clock();
    let reads = 0;
    const load = async () => (reads += 1);
    expect(await cachedRead(a, 'k', load, now)).toBe(1);
    expect(await cachedRead(b, 'k', load, now)).toBe(2);
    eventsOrConfigsChanged();
    expect(await cachedRead(a, 'k', load, now)).toBe(3);
    expect(await cachedRead(a, 'k', load, now)).toBe(3);
  });

  it('does not keep a failed read', async () => {
    const db = {};
    const { now } = clock();
    await expect(cachedRead(db, 'k', () => Promise.reject(new Error('down')), now)).rejects.toThrow('down');
    expect(await cachedRead(db, 'k', async () => 'up', now)).toBe('up');
  });

  it('keeps at most READ_CACHE_MAX_KEYS keys (keys may carry a page or an id), then starts afresh', async () => {
    const db = {};
    const { now } = clock();
    let reads = 0;
    const load = async () => (reads += 1);
    for (let key = 0; key < READ_CACHE_MAX_KEYS; key += 1) await cachedRead(db, `page:${key}`, load, now);
    expect(await cachedRead(db, 'page:0', load, now)).toBe(1); // all still kept
    await cachedRead(db, 'one-more', load, now); // the cache is full: it starts again with this key alone
    expect(await cachedRead(db, 'page:0', load, now)).toBe(READ_CACHE_MAX_KEYS + 2);
  });
});
