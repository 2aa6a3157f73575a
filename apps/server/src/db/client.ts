import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { applyMigrations, pendingMigrations, readMigrations, type MigrationReport, type SqlConnection } from './migrator';
import * as schema from './schema/index';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Applies the pending migrations (db/migrator.ts: one instance at a time, each in a transaction). */
  migrate(options?: { dryRun?: boolean; onApplied?: (name: string, ms: number) => void }): Promise<MigrationReport>;
  /** The migrations not applied yet, without changing anything; throws SchemaTooNewError on a newer schema. */
  pending(): Promise<string[]>;
  close(): Promise<void>;
}

export const migrationsFolder = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export class DatabaseLockedError extends Error {}

/** Runs `work` on one connection of the database for its whole length (the migrations' advisory lock is a session's). */
type WithConnection = <T>(work: (connection: SqlConnection) => Promise<T>) => Promise<T>;

function migrations(withConnection: WithConnection): Pick<Database, 'migrate' | 'pending'> {
  return {
    migrate: (options) => withConnection((connection) => applyMigrations(connection, readMigrations(migrationsFolder), options)),
    pending: () => withConnection((connection) => pendingMigrations(connection, readMigrations(migrationsFolder))),
  };
}

/**
 * The embedded database belongs to one process: a lock file holds the owner's PID. A second process fails with a
 * clear message instead of opening the same files twice (which would corrupt them).
 */
export function lockEmbedded(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, 'pglite.lock');
  const tryLock = () => {
    const fd = openSync(lockPath, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
  };
  try {
    tryLock();
  } catch {
    const owner = Number(readFileSync(lockPath, 'utf8'));
    if (owner && owner !== process.pid && isAlive(owner)) {
      throw new DatabaseLockedError(
        `The embedded database in ${resolve(dataDir)} is in use by process ${owner} (a running server?). ` +
          'Stop that process first, or use PostgreSQL (DATABASE_URL). Nothing was changed.',
      );
    }
    rmSync(lockPath, { force: true });
    tryLock();
  }
  return () => rmSync(lockPath, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** pg_trgm: the proposal title filter's index (as on PostgreSQL, where it is a contrib extension). */
export const pgliteOptions = { extensions: { pg_trgm } };

/**
 * `dataDir` undefined → in-memory PGlite (tests); `loadDataDir`, a dump of another in-memory database, starts it as a
 * copy of that one (the API tests start from one migrated database rather than running initdb and the migrations
 * for each).
 */
export async function openPglite(dataDir?: string, copyOf?: { loadDataDir: Blob }): Promise<Database> {
  const unlock = dataDir ? lockEmbedded(dataDir) : () => {};
  try {
    const options = { ...pgliteOptions, ...copyOf };
    const client = dataDir ? new PGlite(embeddedDatabaseDir(dataDir), options) : new PGlite(options);
    await client.waitReady;
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    return {
      db,
      kind: 'pglite',
      // One connection is all PGlite has.
      ...migrations((work) => work(client as unknown as SqlConnection)),
      close: async () => {
        await client.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

/** How long a request waits for a connection (a free one from the pool, or a new one) before it gets 503. */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * The app's PostgreSQL sessions run without parallel workers and without JIT compilation (docs/decisions.md, issue 30
 * item 6): an aggregate over a million reviews planned with two workers took three processes, every core of a small
 * host, for a second or more, and JIT compiled it for a few hundred milliseconds more, while the requests being served
 * waited. An `options` parameter in DATABASE_URL replaces these (node-postgres lets the URL's settings win), for a
 * database host with cores to spare.
 */
const SESSION_OPTIONS = '-c max_parallel_workers_per_gather=0 -c jit=off';

const logConnectionError = (error: Error) =>
  console.warn(JSON.stringify({ level: 40, time: Date.now(), msg: 'database connection lost; the pool reconnects', error: error.message }));

/** Connections in a server's pool on PostgreSQL. */
export const POOL_SIZE = 10;

/**
 * A pool on PostgreSQL that outlives the database going away: a connection that breaks (a restart, a failover, an
 * idle connection cut) is reported to `onConnectionError` and dropped, never thrown into the process (an unhandled
 * 'error' event would end it); later requests open new connections once the database is back. While it is away,
 * queries fail fast and the API answers 503 (db/errors `databaseUnavailable`).
 */
export async function openPostgres(url: string, options: { onConnectionError?: (error: Error) => void } = {}): Promise<Database> {
  const onConnectionError = options.onConnectionError ?? logConnectionError;
  const pool = new pg.Pool({
    connectionString: url,
    max: POOL_SIZE,
    // Connections are kept while idle (node-postgres closes them after 10 s by default). A new connection starts
    // cold: its backend's catalog caches are empty and it parses and plans each named statement again, which the
    // warm-up had done on every pooled connection. The pool hands out its most recently used connection first, so
    // under light load most of the pool sat idle and was closed, then reopened by the next burst (issue 45 item 14).
    idleTimeoutMillis: 0,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
    options: SESSION_OPTIONS,
  });
  // Every client reports its own connection errors, checked out (between a transaction's queries, where the pool has
  // no listener) or idle; the pool re-emits an idle client's error too, and without a listener that would throw.
  pool.on('connect', (client) => client.on('error', onConnectionError));
  pool.on('error', () => {});
  await pool.query('select 1');
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    ...migrations(async (work) => {
      const client = await pool.connect();
      try {
        return await work(client as unknown as SqlConnection);
      } finally {
        client.release();
      }
    }),
    close: () => pool.end(),
  };
}

/** The pool under a PostgreSQL database's drizzle instance (streams such as COPY need a connection of their own); none on PGlite. */
export function postgresPool(db: Db): pg.Pool | undefined {
  const client = (db as { $client?: unknown }).$client;
  return client instanceof pg.Pool ? client : undefined;
}

export function openDatabase(config: { DATABASE_URL?: string | undefined; DATA_DIR: string }): Promise<Database> {
  return config.DATABASE_URL ? openPostgres(config.DATABASE_URL) : openPglite(config.DATA_DIR);
}

/** Where the embedded database's files live inside DATA_DIR. */
export const embeddedDatabaseDir = (dataDir: string) => join(dataDir, 'pglite');

export function embeddedDatabaseExists(dataDir: string): boolean {
  return existsSync(join(embeddedDatabaseDir(dataDir), 'PG_VERSION'));
}
