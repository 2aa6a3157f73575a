/**
 * Totals of list filters, kept for a few seconds: counting every match is most of a filtered page's cost. The rows
 * themselves are always read fresh; a total may lag behind them by the TTL (proposals: until an import clears it).
 */
export function createCountCache(ttlMs = 10_000, maxEntries = 2_000) {
  const entries = new Map<string, { total: number; at: number }>();
  // Requests asking for the same total while it is being counted wait for that one count.
  const counting = new Map<string, Promise<number>>();
  // A count that started before a clear() must not store its (older) total after it.
  let generation = 0;
  return {
    async get(key: string, load: () => Promise<number>) {
      const hit = entries.get(key);
      if (hit && Date.now() - hit.at < ttlMs) return hit.total;
      const running = counting.get(key);
      if (running) return running;
      const started = generation;
      const promise: Promise<number> = load()
        .then((total) => {
          if (started === generation) {
            if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
            entries.set(key, { total, at: Date.now() });
          }
          return total;
        })
        .finally(() => {
          if (counting.get(key) === promise) counting.delete(key);
        });
      counting.set(key, promise);
      return promise;
    },
    clear: () => {
      generation += 1;
      entries.clear();
      counting.clear();
    },
  };
}
