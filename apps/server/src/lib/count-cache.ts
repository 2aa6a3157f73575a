import { backgroundLane, firstCountLane, type Limiter } from './concurrency';
import { cacheLookup } from './telemetry';

/**
 * Totals of list filters, kept for a few seconds: counting every match is most of a filtered page's cost. The rows
 * themselves are always read fresh; a total may lag behind them by the TTL (proposals: until an import clears it).
 *
 * Stale-while-revalidate: once a total is older than the TTL, requests still get it at once while one background
 * count refreshes it, so no request ever waits behind a count except the very first of a filter (or the first after
 * a clear()). A failed refresh keeps the old total; the next request tries again. Background refreshes take the
 * process's background lane (lib/concurrency `backgroundLane`, one at a time with the snapshots' recounts): when many
 * totals expire together, they do not take the pooled connections and the cores from the requests being served. First
 * counts, which a request waits for, take a lane of their own (`firstCountLane`, two at a time), for the same reason —
 * except a count its caller says is `bounded` (one reviewer's own reviews: an index's few entries), which runs at once:
 * queued behind the costly first counts of a just-started server, a reviewer's "my reviews" waited up to a second for
 * a count of milliseconds (issue 45 item 14).
 */
export function createCountCache(
  ttlMs = 10_000,
  maxEntries = 2_000,
  now: () => number = Date.now,
  name = 'totals',
  // The process's lanes (tests pass their own, so that no other file's pending work holds them).
  lanes: { first: Limiter; background: Limiter } = { first: firstCountLane, background: backgroundLane },
) {
  const entries = new Map<string, { total: number; at: number }>();
  // Requests asking for the same total while it is being counted share that one count.
  const counting = new Map<string, Promise<number>>();
  // A count that started before a clear() must not store its (older) total after it.
  let generation = 0;

  function count(key: string, load: () => Promise<number>): Promise<number> {
    const running = counting.get(key);
    if (running) return running;
    const started = generation;
    const promise: Promise<number> = load()
      .then((total) => {
        if (started === generation) {
          entries.delete(key);
          if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
          entries.set(key, { total, at: now() });
        }
        return total;
      })
      .finally(() => {
        if (counting.get(key) === promise) counting.delete(key);
      });
    counting.set(key, promise);
    return promise;
  }

  return {
    async get(key: string, load: () => Promise<number>, options: CountOptions = {}): Promise<number> {
      const hit = entries.get(key);
      cacheLookup(name, hit !== undefined);
      if (!hit) return count(key, options.bounded ? load : () => lanes.first(load));
      if (now() - hit.at >= ttlMs) count(key, () => lanes.background(load)).catch(() => undefined);
      return hit.total;
    },
    clear: () => {
      generation += 1;
      entries.clear();
      counting.clear();
    },
    /** Counts under way (tests). */
    get refreshing() {
      return counting.size;
    },
  };
}

/** `bounded`: the count reads a few index entries whatever the data's size (a first count then skips the lane). */
export type CountOptions = { bounded?: boolean };

/** How a repository asks for a total: by its filter's key, with the count to run when none is kept. */
export type CachedTotal = (key: string, load: () => Promise<number>, options?: CountOptions) => Promise<number>;
