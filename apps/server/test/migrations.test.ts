import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder, type Database } from '../src/db/client';
import { MigrationFailedError, SchemaTooNewError, applyMigrations, readMigrations, type SqlConnection } from '../src/db/migrator';
import { throwawayPostgres } from '../src/db/throwaway';
import { emptyPglite } from './template-databases';

// Issue 30 item 3: migrations as an operation — one instance at a time, each in a transaction, a dry run, and a
// refusal of a schema newer than the release.
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const run = promisify(execFile);
const known = readMigrations(migrationsFolder);
const FUTURE = 4_102_444_800_000; // 2100-01-01: a migration of a release after this one.

/** Runs `npm run cli -- …` as a process (tsx, as the npm script does). */
const cli = (args: string[], env: Record<string, string>) =>
  run(join(repoRoot, 'node_modules/.bin/tsx'), ['apps/server/src/cli.ts', ...args], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

const rowsOf = async (database: Database, query: string) =>
  ((await database.db.execute(query as never)) as unknown as { rows: Record<string, unknown>[] }).rows;

describe('the migrator on PGlite', () => {
  let database: Database;
  beforeAll(async () => {
    database = await emptyPglite();
  });
  afterAll(() => database.close());

  it('lists every migration in a dry run and changes nothing; then applies each once, and a second run applies none', async () => {
    expect(known.length).toBeGreaterThan(15);
    expect(known[0]!.name).toBe('0000_init');
    const dry = await database.migrate({ dryRun: true });
    expect(dry.applied).toEqual(known.map((migration) => migration.name));
    expect(await database.pending()).toHaveLength(known.length);
    expect(await rowsOf(database, `select to_regclass('public.users') as t`)).toEqual([{ t: null }]);

    const applied: string[] = [];
    const report = await database.migrate({ onApplied: (name) => applied.push(name) });
    expect(report).toEqual({ applied: known.map((m) => m.name), alreadyApplied: 0 });
    expect(applied).toEqual(report.applied);
    expect(await database.pending()).toEqual([]);
    expect(await database.migrate()).toEqual({ applied: [], alreadyApplied: known.length });
    const [count] = await rowsOf(
      database,
      'select count(*)::int as n, count(distinct created_at)::int as d from drizzle.__drizzle_migrations',
    );
    expect(count).toEqual({ n: known.length, d: known.length });
  });

  it('refuses a database migrated by a newer release, touching nothing', async () => {
    await database.db.execute(`insert into drizzle.__drizzle_migrations (hash, created_at) values ('future', ${FUTURE})` as never);
    try {
      await expect(database.migrate()).rejects.toBeInstanceOf(SchemaTooNewError);
      await expect(database.pending()).rejects.toThrow(/newer than this release/);
    } finally {
      await database.db.execute(`delete from drizzle.__drizzle_migrations where created_at = ${FUTURE}` as never);
    }
  });

  it('rolls a failing migration back whole, keeps those before it, and names it', async () => {
    const fresh = await emptyPglite();
    try {
      const connection = (fresh.db as unknown as { $client: SqlConnection }).$client;
      const migrations = [
        { name: '0000_good', createdAt: 1, hash: 'a', statements: ['create table good (id int)'] },
        { name: '0001_bad', createdAt: 2, hash: 'b', statements: ['create table half (id int)', 'select * from no_such_table'] },
        { name: '0002_after', createdAt: 3, hash: 'c', statements: ['create table after_bad (id int)'] },
      ];
      await expect(applyMigrations(connection, migrations)).rejects.toThrow(MigrationFailedError);
      await expect(applyMigrations(connection, migrations)).rejects.toThrow(/^Migration 0001_bad failed and was rolled back \(0 applied/);
      const tables = await rowsOf(
        fresh,
        `select to_regclass('good') as good, to_regclass('half') as half, to_regclass('after_bad') as after`,
      );
      expect(tables).toEqual([{ good: 'good', half: null, after: null }]);
      expect(await rowsOf(fresh, 'select created_at::int as at from drizzle.__drizzle_migrations')).toEqual([{ at: 1 }]);
    } finally {
      await fresh.close();
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('migrate on PostgreSQL, two processes at once', () => {
  let database: Awaited<ReturnType<typeof throwawayPostgres>>;
  beforeAll(async () => {
    database = await throwawayPostgres(process.env.TEST_DATABASE_URL!, 'cr_migrate');
  });
  afterAll(async () => {
    await database.close();
    await database.drop();
  });

  it('both exit 0; one applies each migration once, the other waits for it and finds nothing to do', async () => {
    const env = { DATABASE_URL: database.url };
    const dry = await cli(['migrate', '--dry-run'], env);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`has ${known.length} pending migration(s)`);
    expect(dry.stdout).toContain('Nothing was changed (--dry-run).');

    const [first, second] = await Promise.all([cli(['migrate'], env), cli(['migrate'], env)]);
    expect([first.code, second.code]).toEqual([0, 0]);
    const appliedLines = `${first.stdout}${second.stdout}`.split('\n').filter((line) => line.startsWith('Applied '));
    expect(appliedLines).toHaveLength(known.length);
    expect(`${first.stdout}${second.stdout}`).toContain('nothing to apply');

    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number; d: number }>(
        'select count(*)::int as n, count(distinct created_at)::int as d from drizzle.__drizzle_migrations',
      );
      expect(rows[0]).toEqual({ n: known.length, d: known.length });
      // A newer release's migration: the server of this one refuses to start, and `migrate` refuses to run.
      await client.query(`insert into drizzle.__drizzle_migrations (hash, created_at) values ('future', ${FUTURE})`);
    } finally {
      await client.end();
    }
    const refused = await cli(['migrate'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/schema is newer than this release/);
    const server = await run(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: database.url, PORT: '0', LOG_LEVEL: 'silent' },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(server.code).toBe(1);
    expect(server.stderr).toMatch(/^The database's schema is newer than this release/);
  }, 120_000);
});

describe('the server with MIGRATE_ON_START=false', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'cr-migrate-'));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('refuses to start on a database with pending migrations, naming the command that applies them', async () => {
    // A database as initdb leaves it, from the dump (PGlite's initdb in the server's process took most of this test).
    await (await emptyPglite(dataDir)).close();
    const result = await run(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', MIGRATE_ON_START: 'false' },
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`The database is behind this release: ${known.length} migration(s) pending (0000_init,`);
    expect(result.stderr).toContain('Run `npm run cli -- migrate`');
  }, 60_000);
});
