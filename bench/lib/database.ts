import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { throwawayPostgres } from '../../apps/server/src/db/throwaway';
import type { Database } from '../../apps/server/src/db/client';

/** A throw-away, migrated PostgreSQL database on BENCH_DATABASE_URL's server; `drop()` closes and removes it. */
export async function benchDatabase(): Promise<Database & { url: string; drop(): Promise<void> }> {
  const database = await throwawayPostgres(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres', 'cr_bench');
  await database.migrate();
  return {
    ...database,
    drop: async () => {
      await database.close();
      await database.drop();
    },
  };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Settings for lib/load.mjs as its argument: a file reference, so that thousands of URLs fit. */
export function loadSettings(settings: object): string {
  const file = join(mkdtempSync(join(tmpdir(), 'cr-load-')), 'settings.json');
  writeFileSync(file, JSON.stringify(settings));
  return `@${file}`;
}
