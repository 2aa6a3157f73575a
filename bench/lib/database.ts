import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openPostgres, type Database } from '../../apps/server/src/db/client';
import { throwawayPostgres } from '../../apps/server/src/db/throwaway';

const adminUrl = () => process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A throw-away, migrated PostgreSQL database on BENCH_DATABASE_URL's server; `drop()` closes and removes it. */
export async function benchDatabase(): Promise<Database & { url: string; drop(): Promise<void> }> {
  const database = await throwawayPostgres(adminUrl(), 'cr_bench');
  await database.migrate();
  return {
    ...database,
    drop: async () => {
      await database.close();
      await database.drop();
    },
  };
}

/**
 * A throw-away copy of a database kept by `keptBenchDatabase` (PostgreSQL copies it as a template: seconds, where
 * seeding a full-size round takes minutes), with what its seed answered; `drop()` removes the copy. Nobody may be
 * connected to the kept database while it is copied.
 */
export async function copiedBenchDatabase<Seeded>(
  name: string,
): Promise<Database & { url: string; seeded: Seeded; drop(): Promise<void> }> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`bad database name ${name}`);
  const database = await throwawayPostgres(adminUrl(), 'cr_bench', { template: name });
  const pool = new pg.Pool({ connectionString: database.url, max: 1 });
  try {
    // The copy went through the write-ahead log (PostgreSQL 15's default strategy: gigabytes at full size), and the
    // checkpoint it set off would still be writing while the bench measures: it ends here, before the timing starts.
    // A checkpoint needs a superuser (or pg_checkpoint); a bench user without that right measures as it did before.
    await pool.query('checkpoint').catch(() => {});
    const [row] = (await pool.query<{ seeded: Seeded }>('select seeded from bench_seeded')).rows;
    if (!row) throw new Error(`${name} holds no seeded round (keptBenchDatabase makes one)`);
    return { ...database, seeded: row.seeded };
  } finally {
    await pool.end();
  }
}

/**
 * A seeded database kept between runs under `name` (a bench's quick iterations reuse one round instead of seeding it
 * again): made, migrated and seeded by `seed` the first time, whose answer is stored in it; later runs open it and get
 * that answer back. `drop()` only closes it; `psql -c 'drop database <name>'` removes it.
 */
export async function keptBenchDatabase<Seeded>(
  name: string,
  seed: (database: Database) => Promise<Seeded>,
): Promise<Database & { url: string; seeded: Seeded; drop(): Promise<void> }> {
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`bad database name ${name}`);
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: adminUrl() });
  await admin.connect();
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  if (!exists) await admin.query(`create database ${name}`);
  await admin.end();
  const database = await openPostgres(url.toString());
  const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
  try {
    await pool.query('create table if not exists bench_seeded (seeded jsonb not null)');
    const [row] = (await pool.query<{ seeded: Seeded }>('select seeded from bench_seeded')).rows;
    if (row) return { ...database, url: url.toString(), seeded: row.seeded, drop: () => database.close() };
    await database.migrate();
    const seeded = await seed(database);
    await pool.query('insert into bench_seeded (seeded) values ($1)', [JSON.stringify(seeded)]);
    return { ...database, url: url.toString(), seeded, drop: () => database.close() };
  } finally {
    await pool.end();
  }
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
