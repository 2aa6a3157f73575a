import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UserRole } from '@cr/contract/users';
import { runCli } from '../src/cli-commands';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE } from '../src/cli-deps';
import { ConfigError } from '../src/config';
import { DatabaseLockedError, openPglite, type Database } from '../src/db/client';
import { auditLog, catalystIds, users } from '../src/db/schema/index';
import { seedDemo } from '../src/demo';
import { emptyPglite, migratedPglite } from './template-databases';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const run = promisify(execFile);

describe('operator commands (runCli) on PGlite', () => {
  let database: Database;
  let output: { out: string[]; err: string[]; opened: number; closed: number; migrated: number };

  beforeAll(async () => {
    database = await migratedPglite();
    await seedDemo(database.db);
  });
  afterAll(() => database.close());
  beforeEach(() => {
    output = { out: [], err: [], opened: 0, closed: 0, migrated: 0 };
  });

  const cli = (args: string[], options: { adminCatalystIds?: string[]; open?: () => Promise<never> } = {}) =>
    runCli(args, {
      open:
        options.open ??
        (async () => {
          output.opened += 1;
          const wrapped: Database = {
            ...database,
            migrate: async (migrateOptions) => {
              output.migrated += 1;
              return database.migrate(migrateOptions);
            },
            close: async () => {
              output.closed += 1;
            },
          };
          return { database: wrapped, adminCatalystIds: options.adminCatalystIds ?? [] };
        }),
      out: (line) => output.out.push(line),
      err: (line) => output.err.push(line),
    });

  const userOf = async (catalystId: string) => {
    const [row] = await database.db
      .select({ id: users.id, role: users.role, forceReset: users.forceReset })
      .from(users)
      .innerJoin(catalystIds, eq(users.catalystIdRef, catalystIds.id))
      .where(eq(catalystIds.catalystId, catalystId));
    return row!;
  };

  it('seed-scale generates an active round of the given size, and refuses unknown options', async () => {
    const code = await cli(['seed-scale', '--proposals=60', '--reviewers=25', '--categories=4', '--reviews=3', '--seed=3']);
    expect(output.err).toEqual([]);
    expect(code).toBe(EXIT_OK);
    expect(output.out.at(-1)).toMatch(
      /^Created the active round \d+ with 60 proposals in 4 categories, 25 subscribed reviewers .* and 75 reviews/,
    );
    const eventId = Number(/round (\d+)/.exec(output.out.at(-1)!)![1]);
    const counts = await database.db.execute(
      sql`select (select count(*)::int from proposals where event_id = ${eventId}) as proposals, (select count(*)::int from subscriptions where event_id = ${eventId} and status = 1) as subscriptions, (select count(*)::int from categories where event_id = ${eventId}) as categories, (select count(*)::int from reviews where event_id = ${eventId}) as reviews`,
    );
    expect((counts as unknown as { rows: unknown[] }).rows[0]).toEqual({ proposals: 60, subscriptions: 25, categories: 4, reviews: 75 });
    expect(await cli(['seed-scale', '--rows=5'])).toBe(EXIT_USAGE);
    expect(output.err.at(-1)).toMatch(/seed-scale takes --proposals=<positive number>/);
    expect(await cli(['seed-scale', '--proposals=0'])).toBe(EXIT_USAGE);
  });
  it('seed-scale writes flags-ready notes with planted near-duplicates, moderators, moderation allocations and moderations', async () => {
    const code = await cli([
      'seed-scale',
      '--proposals=40',
      '--reviewers=30',
      '--categories=4',
      '--reviews=4',
      '--flags-notes=1',
      '--duplicates=200',
      '--moderators=6',
      '--moderation-allocations=100',
      '--moderations=60',
    ]);
    expect(output.err).toEqual([]);
    expect(code).toBe(EXIT_OK);
    expect(output.out.at(-1)).toMatch(/120 reviews, 6 moderators with 100 moderation allocations and 60 moderations in/);
    const eventId = Number(/round (\d+)/.exec(output.out.at(-1)!)![1]);
    const rows = <T>(result: unknown) => (result as { rows: T[] }).rows;
    const [counts] = rows<Record<string, number>>(
      await database.db.execute(sql`select
        (select count(*)::int from subscriptions where event_id = ${eventId} and role = 2 and status = 1) as moderators,
        (select count(*)::int from moderation_allocations where event_id = ${eventId}) as allocations,
        (select count(distinct review_id)::int from moderation_allocations where event_id = ${eventId}) as allocated_reviews,
        (select max(n) - min(n) from (select count(*)::int as n from moderation_allocations where event_id = ${eventId} group by subscription_id) l) as spread,
        (select count(*)::int from moderations where event_id = ${eventId}) as moderations,
        (select count(*)::int from moderations m left join moderation_allocations a on a.subscription_id = m.subscription_id and a.review_id = m.review_id where m.event_id = ${eventId} and a.id is null) as unallocated,
        (select count(distinct classification)::int from moderations where event_id = ${eventId}) as classifications,
        (select count(distinct impact_alignment_note)::int from reviews where event_id = ${eventId}) as distinct_notes,
        (select min(length(impact_alignment_note))::int from reviews where event_id = ${eventId}) as shortest`),
    );
    expect(counts).toEqual({
      moderators: 6,
      allocations: 100,
      allocated_reviews: 25,
      spread: 1,
      moderations: 60,
      unallocated: 0,
      classifications: 2,
      distinct_notes: 120,
      shortest: expect.any(Number),
    });
    expect(counts!.shortest).toBeGreaterThan(200);
    // The planted near-duplicates: a note of one review shares most of its words with a note of another.
    const notes = rows<{ impact_alignment_note: string; feasibility_note: string; auditability_note: string }>(
      await database.db.execute(
        sql`select impact_alignment_note, feasibility_note, auditability_note from reviews where event_id = ${eventId} order by id`,
      ),
    ).flatMap((row) => [row.impact_alignment_note, row.feasibility_note, row.auditability_note]);
    const words = notes.map((note) => new Set(note.split(' ')));
    const near = words.some((a, i) =>
      words.some((b, j) => j > i && [...a].filter((word) => b.has(word)).length / new Set([...a, ...b]).size > 0.8),
    );
    expect(near).toBe(true);
    expect(await cli(['seed-scale', '--moderation-allocations=x'])).toBe(EXIT_USAGE);
  });
  it('grant-admin makes the account an admin, records it in the audit log and says so', async () => {
    expect(await cli(['grant-admin', 'id.catalyst://cardano/demo-reviewer'])).toBe(EXIT_OK);
    expect(output.out).toEqual(['cardano/demo-reviewer is now an admin.']);
    const user = await userOf('cardano/demo-reviewer');
    expect(user.role).toBe(UserRole.admin);
    const entries = await database.db.select().from(auditLog).where(eq(auditLog.action, 'cli.grant-admin'));
    expect(entries).toContainEqual(
      expect.objectContaining({ entity: 'user', entityId: String(user.id), before: { role: 0 }, after: { role: 100 } }),
    );
    expect(output).toMatchObject({ opened: 1, migrated: 1, closed: 1 });
  });

  it('revoke-admin makes the admin an ordinary user again', async () => {
    await cli(['grant-admin', 'cardano/demo-moderator']);
    expect(await cli(['revoke-admin', 'cardano/demo-moderator#encrypt'])).toBe(EXIT_OK);
    expect(output.out.at(-1)).toBe('cardano/demo-moderator is no longer an admin.');
    expect((await userOf('cardano/demo-moderator')).role).toBe(UserRole.user);
  });

  it('revoke-admin warns when ADMIN_CATALYST_IDS will make the account an admin again', async () => {
    expect(await cli(['revoke-admin', 'cardano/demo-admin'], { adminCatalystIds: ['id.catalyst://cardano/demo-admin'] })).toBe(EXIT_OK);
    expect(output.out[0]).toContain('ADMIN_CATALYST_IDS lists it');
    expect((await userOf('cardano/demo-admin')).role).toBe(UserRole.user);
  });

  it('force-reset sets the forced password reset', async () => {
    expect((await userOf('cardano/demo-newcomer')).forceReset).toBe(false);
    expect(await cli(['force-reset', 'cardano/demo-newcomer'])).toBe(EXIT_OK);
    expect(output.out).toEqual(['cardano/demo-newcomer must choose a new password before reviewing or moderating.']);
    expect((await userOf('cardano/demo-newcomer')).forceReset).toBe(true);
  });

  it.each(['grant-admin', 'revoke-admin', 'force-reset'])(
    '%s refuses an unknown Catalyst ID with exit code 1 and changes nothing',
    async (command) => {
      const auditBefore = (await database.db.select().from(auditLog)).length;
      expect(await cli([command, 'cardano/nobody-at-all'])).toBe(EXIT_FAILED);
      expect(output.err).toEqual(['No account has the Catalyst ID cardano/nobody-at-all. Nothing was changed.']);
      expect(output.out).toEqual([]);
      expect((await database.db.select().from(auditLog)).length).toBe(auditBefore);
      expect(output.closed).toBe(1);
    },
  );

  it('migrate applies the migrations and says so', async () => {
    expect(await cli(['migrate'])).toBe(EXIT_OK);
    expect(output.migrated).toBe(1);
    expect(output.out).toEqual([
      expect.stringMatching(/^The database \(pglite\) is migrated to the latest version \(\d+ migrations\); nothing to apply\.$/),
    ]);
  });

  it('seed-demo creates only the demo accounts that are missing', async () => {
    expect(await cli(['seed-demo'])).toBe(EXIT_OK);
    expect(output.out).toEqual(['The demo accounts exist already; nothing was created.']);
    // A fresh database: runCli migrates it, seeds it, and closes it.
    const fresh = await emptyPglite();
    const code = await runCli(['seed-demo'], {
      open: async () => ({ database: fresh, adminCatalystIds: [] }),
      out: (line) => output.out.push(line),
      err: (line) => output.err.push(line),
    });
    expect(code).toBe(EXIT_OK);
    expect(output.out[1]).toMatch(/^Created \d+ demo accounts \(password Demo-pass1\)/);
  });

  it('help prints the commands without opening the database', async () => {
    expect(await cli(['help'])).toBe(EXIT_OK);
    expect(output.out[0]).toContain('Usage: npm run cli -- <command>');
    for (const command of ['grant-admin', 'revoke-admin', 'force-reset', 'migrate', 'seed-demo']) expect(output.out[0]).toContain(command);
    expect(output.opened).toBe(0);
  });

  it.each([
    ['an unknown command', ['frobnicate'], "Unknown command 'frobnicate'."],
    ['no command', [], ''],
    ['a missing Catalyst ID', ['grant-admin'], 'grant-admin takes one argument'],
    ['two arguments', ['force-reset', 'cardano/a', 'cardano/b'], 'force-reset takes one argument'],
    ['a value that is not a Catalyst ID', ['grant-admin', 'not-an-id'], "'not-an-id' is not a Catalyst ID"],
    ['an argument to migrate', ['migrate', 'now'], "migrate takes no argument but --dry-run; 'now' is not one of them."],
  ])('answers %s with exit code 2 without opening the database', async (_label, args, message) => {
    expect(await cli(args)).toBe(EXIT_USAGE);
    expect([...output.err, ...output.out].join('\n')).toContain(message);
    expect(output.opened).toBe(0);
  });

  it.each([
    [
      'the embedded database is locked',
      new DatabaseLockedError('The embedded database in /data is in use by process 42 (a running server?).'),
    ],
    ['the configuration is invalid', new ConfigError('Invalid configuration:\n  PORT: Too big')],
  ])('prints the message and exits with 1 when %s', async (_label, error) => {
    const code = await cli(['grant-admin', 'cardano/demo-reviewer'], { open: () => Promise.reject(error) });
    expect(code).toBe(EXIT_FAILED);
    expect(output.err).toEqual([error.message]);
  });
});

describe('the embedded database lock', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'cr-lock-'));
    return () => rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a second openPglite while another live process holds the directory, touching nothing', async () => {
    // The lock names the owner's PID; the parent of this test process is alive and is not this process.
    writeFileSync(join(dataDir, 'pglite.lock'), String(process.ppid));
    const opening = openPglite(dataDir);
    await expect(opening).rejects.toBeInstanceOf(DatabaseLockedError);
    await expect(opening).rejects.toThrow(`is in use by process ${process.ppid}`);
    expect(readFileSync(join(dataDir, 'pglite.lock'), 'utf8')).toBe(String(process.ppid));
    expect(existsSync(join(dataDir, 'pglite'))).toBe(false);
  });

  it('takes over the lock of a process that no longer exists, and releases it on close', async () => {
    writeFileSync(join(dataDir, 'pglite.lock'), '2147483646');
    const database = await migratedPglite(dataDir);
    expect(readFileSync(join(dataDir, 'pglite.lock'), 'utf8')).toBe(String(process.pid));
    await database.close();
    expect(existsSync(join(dataDir, 'pglite.lock'))).toBe(false);
  });

  it('makes `npm run cli` fail with a clear message while a server holds the database, changing nothing', async () => {
    const server = await migratedPglite(dataDir);
    try {
      await seedDemo(server.db);
      const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: '' };
      const result = await run(
        join(repoRoot, 'node_modules/.bin/tsx'),
        ['apps/server/src/cli.ts', 'grant-admin', 'cardano/demo-reviewer'],
        { cwd: repoRoot, env },
      ).then(
        () => ({ code: 0, stderr: '' }),
        (error: { code: number; stderr: string }) => error,
      );
      expect(result.code).toBe(EXIT_FAILED);
      expect(result.stderr).toContain(`is in use by process ${process.pid} (a running server?)`);
      expect(result.stderr).toContain('Nothing was changed.');
      const [row] = await server.db
        .select({ role: users.role })
        .from(users)
        .innerJoin(catalystIds, eq(users.catalystIdRef, catalystIds.id))
        .where(eq(catalystIds.catalystId, 'cardano/demo-reviewer'));
      expect(row?.role).toBe(UserRole.user);
    } finally {
      await server.close();
    }
  });
});

// Issue 18 item 5: the embedded database's backup and restore, consistent because they refuse while a server runs.
describe('backup and restore of the embedded database', () => {
  let dir: string;
  let output: { out: string[]; err: string[] };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cr-backup-'));
    output = { out: [], err: [] };
    return () => rmSync(dir, { recursive: true, force: true });
  });
  const cli = (args: string[], storage: { databaseUrl?: string; dataDir: string }) =>
    runCli(args, {
      open: () => Promise.reject(new Error('backup and restore never open the database through open()')),
      storage: () => storage,
      out: (line) => output.out.push(line),
      err: (line) => output.err.push(line),
    });
  const countsOf = async (dataDir: string) => {
    const database = await openPglite(dataDir);
    try {
      const result = await database.db.execute(
        sql`select (select count(*)::int from users) as users, (select count(*)::int from catalyst_ids) as catalyst_ids, (select count(*)::int from events) as events, (select count(*)::int from audit_log) as audit`,
      );
      return (result as unknown as { rows: unknown[] }).rows[0];
    } finally {
      await database.close();
    }
  };

  it('backs a DATA_DIR up and restores it into an empty one with every row; refuses to overwrite either', async () => {
    const source = join(dir, 'source');
    const database = await migratedPglite(source);
    await seedDemo(database.db);
    await database.close();
    const file = join(dir, 'copy.tar.gz');

    expect(await cli(['backup', file], { dataDir: source })).toBe(EXIT_OK);
    expect(output.out.at(-1)).toMatch(/^Backed up the embedded database in .* to .*copy\.tar\.gz \(\d+\.\d MB\)\.$/);
    expect(existsSync(file)).toBe(true);
    expect(await cli(['backup', file], { dataDir: source })).toBe(EXIT_FAILED);
    expect(output.err.at(-1)).toBe(`${file} exists already; choose a new file name. Nothing was changed.`);

    const target = join(dir, 'target');
    expect(await cli(['restore', file], { dataDir: target })).toBe(EXIT_OK);
    expect(output.out.at(-1)).toMatch(/^Restored .* Start the server to use it\.$/);
    expect(await countsOf(target)).toEqual(await countsOf(source));

    // A DATA_DIR with a database: refused, unless --replace, which keeps the present one aside.
    expect(await cli(['restore', file], { dataDir: source })).toBe(EXIT_FAILED);
    expect(output.err.at(-1)).toContain('holds a database already');
    expect(await cli(['restore', file, '--replace'], { dataDir: source })).toBe(EXIT_OK);
    expect(output.out.at(-1)).toMatch(/The database that was there is kept in .*pglite\.replaced-/);
    expect(await countsOf(source)).toEqual(await countsOf(target));
  }, 120_000);

  it('refuses while a server holds DATA_DIR, with PostgreSQL, without a file, and for a file that is no backup', async () => {
    const dataDir = join(dir, 'data');
    await (await migratedPglite(dataDir)).close();
    // A live process (this test's parent) holds the lock, as a running server does.
    writeFileSync(join(dataDir, 'pglite.lock'), String(process.ppid));
    expect(await cli(['backup', join(dir, 'b.tar.gz')], { dataDir })).toBe(EXIT_FAILED);
    expect(output.err.at(-1)).toContain(`is in use by process ${process.ppid} (a running server?)`);
    expect(existsSync(join(dir, 'b.tar.gz'))).toBe(false);
    rmSync(join(dataDir, 'pglite.lock'));

    expect(await cli(['backup', join(dir, 'b.tar.gz')], { databaseUrl: 'postgres://x@localhost/x', dataDir })).toBe(EXIT_FAILED);
    expect(output.err.at(-1)).toContain('use pg_dump and pg_restore instead');
    expect(await cli(['backup'], { dataDir })).toBe(EXIT_USAGE);
    expect(await cli(['restore', join(dir, 'missing.tar.gz')], { dataDir: join(dir, 'new') })).toBe(EXIT_FAILED);
    expect(output.err.at(-1)).toMatch(/^There is no backup file at .*missing\.tar\.gz\. Nothing was changed\.$/);
    writeFileSync(join(dir, 'junk.tar.gz'), 'not a backup');
    expect(await cli(['restore', join(dir, 'junk.tar.gz'), '--replace'], { dataDir })).toBe(EXIT_FAILED);
    expect(output.err.at(-1)).toMatch(/could not be restored .* Nothing was changed\.$/);
    // The database that was there is back in place, whole.
    expect(await countsOf(dataDir)).toMatchObject({ events: 0 });
  }, 120_000);
});
