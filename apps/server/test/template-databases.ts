import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { migrationsFolder, openPglite, openPostgres, type Database } from '../src/db/client';
import { eventsOrConfigsChanged } from '../src/db/read-cache';

/** The installed PGlite's version (its package.json is not among its exports: found above its entry file). */
function pgliteVersion(): string {
  let dir = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  for (;;) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const { name, version } = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (name === '@electric-sql/pglite' && version) return version;
    }
    if (dirname(dir) === dir) throw new Error('PGlite is not installed');
    dir = dirname(dir);
  }
}

/**
 * Issue 26 item 18: every API test file used to make each of its databases from nothing — PGlite's initdb (seconds
 * of WASM) and the migrations, on both databases. A migrated database is made once per set of migrations and copied
 * from then on: a dump of a PGlite database in the temporary directory, and a template database on PostgreSQL. Both
 * are named after a digest of the migrations, so a changed migration makes a new one.
 */
const migrationsDigest = (() => {
  const hash = createHash('sha256');
  // A dump is PGlite's data directory: another PGlite release makes new ones.
  hash.update(pgliteVersion());
  for (const file of readdirSync(migrationsFolder, { recursive: true, encoding: 'utf8' }).sort()) {
    const path = join(migrationsFolder, file);
    if (file.endsWith('.sql') || file.endsWith('.json')) hash.update(file).update(readFileSync(path));
  }
  return hash.digest('hex').slice(0, 16);
})();

const pgliteDumps = new Map<'empty' | 'migrated', Promise<Blob>>();

/** The PGlite client under a database that `openPglite` opened. */
export const pgliteClient = (database: Pick<Database, 'db'>) => (database.db as unknown as { $client: PGlite }).$client;

/**
 * A dump of a new PGlite database, before or after the migrations, written to the temporary directory by the first
 * caller on this machine. Loading one costs about a third of PGlite's initdb (1.7 s against 5.5 s on a slow 2-core
 * machine, 2026-12-02).
 */
function pgliteDump(kind: 'empty' | 'migrated'): Promise<Blob> {
  let dump = pgliteDumps.get(kind);
  if (!dump) {
    dump = (async () => {
      const file = join(tmpdir(), `cr-test-pglite-${kind}-${migrationsDigest}.tar`);
      if (existsSync(file)) return new Blob([readFileSync(file)]);
      const database = await openPglite();
      if (kind === 'migrated') await database.migrate();
      const blob = await (pgliteClient(database).dumpDataDir('none') as Promise<Blob>);
      await database.close();
      // Another worker may write the same file at once: each writes its own and renames it into place.
      const partial = `${file}.${process.pid}`;
      writeFileSync(partial, Buffer.from(await blob.arrayBuffer()));
      renameSync(partial, file);
      return blob;
    })();
    pgliteDumps.set(kind, dump);
  }
  return dump;
}

/** A migrated PGlite database: a copy of the dump, in memory or in `dataDir` (which must hold no database yet). */
export async function migratedPglite(dataDir?: string) {
  return openPglite(dataDir, { loadDataDir: await pgliteDump('migrated') });
}

/** A new PGlite database with no migration applied, as initdb leaves it: in memory or in `dataDir` (holding none yet). */
export async function emptyPglite(dataDir?: string) {
  return openPglite(dataDir, { loadDataDir: await pgliteDump('empty') });
}

/**
 * The migrated state of a PGlite database, as SQL that brings a used one back to it: every table emptied and its
 * identity restarted, the rows the migrations inserted put back, every sequence where the migrations left it.
 */
async function resetScript(client: PGlite): Promise<string> {
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
  const { rows: tables } = await client.query<{ schema: string; name: string; columns: string[] | null }>(
    `select n.nspname as schema, c.relname as name,
            array(select quote_ident(a.attname) from pg_attribute a
                   where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
                   order by a.attnum) as columns
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema', 'drizzle')
        and n.nspname not like 'pg\\_%'
      order by 1, 2`,
  );
  if (tables.length === 0) throw new Error('The migrated PGlite database has no tables');
  const statements = [`truncate table ${tables.map((t) => `${quote(t.schema)}.${quote(t.name)}`).join(', ')} restart identity`];
  for (const table of tables) {
    const name = `${quote(table.schema)}.${quote(table.name)}`;
    const { rows } = await client.query<{ rows: unknown[] | null }>(`select json_agg(t) as rows from ${name} t`);
    if (!rows[0]?.rows) continue;
    const columns = table.columns!.join(', ');
    const literal = `'${JSON.stringify(rows[0].rows).replaceAll("'", "''")}'::json`;
    statements.push(
      `insert into ${name} (${columns}) overriding system value select ${columns} from json_populate_recordset(null::${name}, ${literal})`,
    );
  }
  const { rows: sequences } = await client.query<{ name: string; last_value: string; is_called: boolean }>(
    `select format('%I.%I', schemaname, sequencename) as name, coalesce(last_value, start_value)::text as last_value,
            last_value is not null as is_called
       from pg_sequences`,
  );
  if (sequences.length > 0) {
    statements.push(
      `select ${sequences.map((q) => `setval('${q.name.replaceAll("'", "''")}', ${q.last_value}, ${q.is_called})`).join(', ')}`,
    );
  }
  return statements.join(';\n');
}

let pgliteReset: Promise<string> | undefined;
const idlePglites: Database[] = [];

/**
 * A migrated in-memory PGlite database lent to a test file, and `drop()` to give it back: emptied to the migrated
 * state, the next file of this worker gets it rather than a new copy of the dump (issue 26 item 18: making a PGlite
 * from the dump cost about 0.9 CPU-s, 87 times a run, a quarter of the unit and API tests' CPU; bringing one back to
 * the migrated state costs a few hundredths). A database the test closed, or one that does not come back cleanly, is
 * dropped for good.
 */
export async function borrowedPglite(): Promise<Database & { drop(): Promise<void> }> {
  const database = idlePglites.pop() ?? (await migratedPglite());
  const client = pgliteClient(database);
  pgliteReset ??= resetScript(client);
  const script = await pgliteReset;
  return {
    ...database,
    // The file's app is closed before `drop`, which gives the database back (or closes it for good): `close` has
    // nothing left to do.
    close: async () => {},
    drop: async () => {
      if (client.closed) return;
      try {
        // Whatever a test left open on the one connection: a transaction, a session's advisory locks.
        await client.exec('rollback; select pg_advisory_unlock_all()');
        await client.exec(script);
        // The script wrote `events` and `configs` behind the repositories' backs: reads kept for this database (keyed
        // by its client, which the next file gets too) would show the last file's rounds for their TTL.
        eventsOrConfigsChanged();
        idlePglites.push(database);
      } catch {
        await database.close();
      }
    },
  };
}

const templateName = `cr_test_template_${migrationsDigest}`;
let templateReady: Promise<void> | undefined;

/** Makes the migrated template database on the server of `adminUrl` once (an advisory lock keeps workers apart). */
function ensureTemplate(adminUrl: string): Promise<void> {
  templateReady ??= (async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      await admin.query('select pg_advisory_lock(hashtext($1))', [templateName]);
      const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [templateName]);
      if (!rowCount) {
        const building = `${templateName}_building`;
        await admin.query(`drop database if exists ${building}`);
        await admin.query(`create database ${building}`);
        const url = new URL(adminUrl);
        url.pathname = `/${building}`;
        const database = await openPostgres(url.toString());
        await database.migrate();
        await database.close();
        // Named only once complete: a worker that died half-way leaves no template that looks finished.
        await admin.query(`alter database ${building} rename to ${templateName}`);
        await admin.query(`comment on database ${templateName} is 'made ${new Date().toISOString()}'`);
        // Templates of other migrations are of no more use here, but another checkout on the same server (another
        // branch, another run) may be using one now: only those made over a day ago go.
        const old = await admin.query(
          `select d.datname, shobj_description(d.oid, 'pg_database') as note from pg_database d
            where d.datname like 'cr_test_template_%' and d.datname <> $1`,
          [templateName],
        );
        const dayAgo = Date.now() - 86_400_000;
        for (const row of old.rows as { datname: string; note: string | null }[]) {
          const made = Date.parse(/^made (.+)$/.exec(row.note ?? '')?.[1] ?? '');
          if (Number.isNaN(made) || made < dayAgo) await admin.query(`drop database if exists ${row.datname}`).catch(() => {});
        }
      }
    } finally {
      await admin.query('select pg_advisory_unlock(hashtext($1))', [templateName]).catch(() => {});
      await admin.end();
    }
  })();
  return templateReady;
}

/** The `create database` clause that copies the migrated template (made first if need be). */
export async function migratedTemplateOn(adminUrl: string): Promise<string> {
  await ensureTemplate(adminUrl);
  return templateName;
}
