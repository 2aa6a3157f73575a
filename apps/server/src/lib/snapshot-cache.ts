import { backgroundLane } from './concurrency';
import { cacheLookup } from './telemetry';

/**
 * Snapshots of costly aggregates (the round's dashboard), kept per key for `ttlMs` and served stale while one fresh
 * count runs in the background: only the first request for a key waits for a count, and a key is never counted
 * twice at once, however many callers ask. A failed background count keeps the older snapshot (and is reported).
 * A background count takes the process's background lane (lib/concurrency `backgroundLane`: one costly statement at a
 * time with the totals' recounts) and is told so (`load(true)`), so that it can run its own parts one at a time too.
 * `forget` drops a key whose figures a write has just changed (an admin run, issue 26 item 16): the next caller
 * waits for a fresh count, and a count that was already running, having read from before the write, is not kept.
 */
export function createSnapshotCache<T>(options: {
  ttlMs: number;
  maxEntries?: number;
  onError?: (error: unknown) => void;
  /** The cache's name in the metrics' hit rates. */
  name?: string;
}) {
  const { ttlMs, maxEntries = 1_000, onError, name = 'snapshots' } = options;
  const entries = new Map<string, { value: T; at: number }>();
  const counting = new Map<string, Promise<T>>();

  function refresh(key: string, load: () => Promise<T>): Promise<T> {
    const running = counting.get(key);
    if (running) return running;
    const promise: Promise<T> = load()
      .then((value) => {
        // Forgotten while it counted: its figures may be from before the write that made it forget.
        if (counting.get(key) !== promise) return value;
        entries.delete(key);
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
        entries.set(key, { value, at: Date.now() });
        return value;
      })
      .finally(() => {
        if (counting.get(key) === promise) counting.delete(key);
      });
    counting.set(key, promise);
    return promise;
  }

  return {
    /** `load(background)`: true when nobody waits for it (a stale snapshot is being served meanwhile). */
    get(key: string, load: (background: boolean) => Promise<T>): Promise<T> {
      const hit = entries.get(key);
      cacheLookup(name, hit !== undefined);
      if (!hit) return refresh(key, () => load(false));
      if (Date.now() - hit.at >= ttlMs) refresh(key, () => backgroundLane(() => load(true))).catch((error: unknown) => onError?.(error));
      return Promise.resolve(hit.value);
    },
    /** Whether a snapshot of the key is kept (fresh or stale). */
    has: (key: string) => entries.has(key),
    /** Drops the key's snapshot and any count of it running now. */
    forget(key: string) {
      entries.delete(key);
      counting.delete(key);
    },
    clear: () => entries.clear(),
  };
}
