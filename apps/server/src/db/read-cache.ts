import { cacheLookup } from '../lib/telemetry';

/**
 * Small, hot, rarely changing reads (which events are active, the configuration records of a kind) kept in process
 * for a short TTL, so that a list request runs its page query alone. Every write to `events` or `configs` through
 * the repositories calls `eventsOrConfigsChanged()`, which drops every cached read at once; the TTL bounds what
 * another server process (or a write racing a read in flight) may leave stale.
 *
 * Only ever read through the pool (`db`), never inside a transaction: a transaction reads its own snapshot.
 */
export const READ_CACHE_TTL_MS = 2_000;
/** Keys kept per database at most (some carry a request's page or id): beyond it the cache starts afresh. */
export const READ_CACHE_MAX_KEYS = 1_000;

let version = 0;

/** Drops every cached read in this process (the next request of each reads afresh). */
export function eventsOrConfigsChanged(): void {
  version += 1;
}

interface Entry {
  value: Promise<unknown>;
  at: number;
  version: number;
}
const caches = new WeakMap<object, Map<string, Entry>>();

/** The cached answer of `load` for this database and key, read again after the TTL or after a change. */
export function cachedRead<T>(db: object, key: string, load: () => Promise<T>, now: () => number = Date.now): Promise<T> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const hit = cache.get(key);
  const fresh = hit !== undefined && hit.version === version && now() - hit.at < READ_CACHE_TTL_MS;
  cacheLookup('reads', fresh);
  if (fresh) return hit.value as Promise<T>;
  const entry: Entry = { value: load(), at: now(), version };
  if (!hit && cache.size >= READ_CACHE_MAX_KEYS) cache.clear();
  cache.set(key, entry);
  // A failed read is not kept: the next request tries again.
  entry.value.catch(() => {
    if (cache.get(key) === entry) cache.delete(key);
  });
  return entry.value as Promise<T>;
}
