/**
 * What the code tells the metrics (issue 30 item 2) from places that should not know about Prometheus: cache
 * lookups and admin runs. Each call is a test of an empty set while no metrics are on (the default), so the hot paths
 * pay nothing for it; the metrics plugin listens while its app runs.
 */
export type TelemetryEvent =
  { type: 'cache'; cache: string; hit: boolean } | { type: 'run'; action: string; dryRun: boolean; seconds: number; ok: boolean };

type Listener = (event: TelemetryEvent) => void;
const listeners = new Set<Listener>();

/** Listens until the returned function is called. */
export function observeTelemetry(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function cacheLookup(cache: string, hit: boolean): void {
  if (listeners.size === 0) return;
  for (const listener of listeners) listener({ type: 'cache', cache, hit });
}

/** Times `work` as an admin run named `action` (its audit action), and reports its end, failed or not. */
export async function timedRun<T>(action: string, dryRun: boolean, work: () => Promise<T>): Promise<T> {
  if (listeners.size === 0) return work();
  const started = process.hrtime.bigint();
  const report = (ok: boolean) => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    for (const listener of listeners) listener({ type: 'run', action, dryRun, seconds, ok });
  };
  try {
    const result = await work();
    report(true);
    return result;
  } catch (error) {
    report(false);
    throw error;
  }
}
