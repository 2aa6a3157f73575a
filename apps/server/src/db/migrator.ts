import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readMigrationFiles } from 'drizzle-orm/migrator';

/**
 * Migrations as an operation (issue 30 item 3). drizzle-kit writes the migrations (SQL files and a journal); this
 * applies them, in place of drizzle's own migrator, because an operator needs what that one lacks:
 * - **one at a time across instances**: the whole run holds a PostgreSQL advisory lock on one connection, so of two
 *   instances starting together one migrates and the other waits, then finds nothing left to do;
 * - **each migration in its own transaction**, recorded in the same transaction: a failure leaves the database at the
 *   previous migration, never half-way through one, and names the migration that failed;
 * - **a dry run** that lists what would be applied;
 * - **a refusal to run on a newer schema**: a database migrated by a newer release (a migration this build does not
 *   know) is not touched, and the server does not start on it.
 * It keeps drizzle's bookkeeping table (`drizzle.__drizzle_migrations`, one row per migration with its journal time),
 * so that databases migrated before keep their history.
 */

/** What the migrator needs of a connection: PGlite and a checked-out node-postgres client both have it. */
export interface SqlConnection {
  query<Row = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: Row[] }>;
}

export interface Migration {
  /** The journal's tag, e.g. `0016_api_tokens_idempotency`. */
  name: string;
  /** The journal's `when`: drizzle's `created_at`, which orders the migrations. */
  createdAt: number;
  hash: string;
  statements: string[];
}

export interface MigrationReport {
  /** What this run applied (or, in a dry run, would apply), in order. */
  applied: string[];
  /** How many were applied before this run. */
  alreadyApplied: number;
}

/** The database was migrated by a newer release than this one. */
export class SchemaTooNewError extends Error {}
/** Migrations are pending and this process was told not to apply them. */
export class SchemaBehindError extends Error {}
/** A migration failed: nothing of it was applied. */
export class MigrationFailedError extends Error {}

/** The advisory lock's keys: the first names the app's locks (see runs.repository's run lock), the second this one. */
const LOCK_SPACE = 0x43520002;
const LOCK_KEY = 1;

export function readMigrations(folder: string): Migration[] {
  const journal = JSON.parse(readFileSync(join(folder, 'meta/_journal.json'), 'utf8')) as {
    entries: { when: number; tag: string }[];
  };
  const tags = new Map(journal.entries.map((entry) => [entry.when, entry.tag]));
  return readMigrationFiles({ migrationsFolder: folder }).map((file) => ({
    name: tags.get(file.folderMillis) ?? String(file.folderMillis),
    createdAt: file.folderMillis,
    hash: file.hash,
    statements: file.sql.map((statement) => statement.trim()).filter(Boolean),
  }));
}

async function appliedTimes(connection: SqlConnection): Promise<number[]> {
  const table = await connection.query<{ present: boolean }>(`select to_regclass('drizzle.__drizzle_migrations') is not null as present`);
  if (!table.rows[0]?.present) return [];
  const rows = await connection.query<{ created_at: string | number }>('select created_at from drizzle.__drizzle_migrations');
  return rows.rows.map((row) => Number(row.created_at));
}

/** What a database holds compared with this build's migrations; throws SchemaTooNewError for a newer database. */
async function compare(connection: SqlConnection, migrations: Migration[]) {
  const applied = new Set(await appliedTimes(connection));
  const known = new Set(migrations.map((migration) => migration.createdAt));
  const newest = Math.max(0, ...known);
  const unknown = [...applied].filter((time) => !known.has(time) && time > newest);
  if (unknown.length > 0) {
    throw new SchemaTooNewError(
      `The database's schema is newer than this release: ${unknown.length} migration(s) applied to it are unknown here ` +
        '(a newer release migrated it). Run that release or a newer one, or restore the backup taken before the upgrade. ' +
        'Nothing was changed.',
    );
  }
  return { pending: migrations.filter((migration) => !applied.has(migration.createdAt)), alreadyApplied: applied.size };
}

/** Checks the schema without changing it: too new → SchemaTooNewError; behind → the pending migrations' names. */
export async function pendingMigrations(connection: SqlConnection, migrations: Migration[]): Promise<string[]> {
  return (await compare(connection, migrations)).pending.map((migration) => migration.name);
}

/**
 * Applies the pending migrations, each in a transaction, under the advisory lock (taken on `connection`, which must be
 * one session for the whole call). `dryRun` takes the lock too, so that it reports what a migration run would do now.
 */
export async function applyMigrations(
  connection: SqlConnection,
  migrations: Migration[],
  options: { dryRun?: boolean; onApplied?: (name: string, ms: number) => void } = {},
): Promise<MigrationReport> {
  await connection.query('select pg_advisory_lock($1::int, $2::int)', [LOCK_SPACE, LOCK_KEY]);
  try {
    const { pending, alreadyApplied } = await compare(connection, migrations);
    if (options.dryRun || pending.length === 0) return { applied: pending.map((m) => m.name), alreadyApplied };
    await connection.query('create schema if not exists drizzle');
    await connection.query(
      'create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)',
    );
    const applied: string[] = [];
    for (const migration of pending) {
      const started = Date.now();
      await connection.query('begin');
      try {
        for (const statement of migration.statements) await connection.query(statement);
        await connection.query('insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)', [
          migration.hash,
          migration.createdAt,
        ]);
        await connection.query('commit');
      } catch (error) {
        await connection.query('rollback');
        throw new MigrationFailedError(
          `Migration ${migration.name} failed and was rolled back (${applied.length} applied before it): ` +
            (error instanceof Error ? error.message : String(error)),
        );
      }
      applied.push(migration.name);
      options.onApplied?.(migration.name, Date.now() - started);
    }
    return { applied, alreadyApplied };
  } finally {
    await connection.query('select pg_advisory_unlock($1::int, $2::int)', [LOCK_SPACE, LOCK_KEY]);
  }
}
