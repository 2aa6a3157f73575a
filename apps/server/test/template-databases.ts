import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { migrationsFolder, openPglite, openPostgres } from '../src/db/client';

/**
 * Issue 26 item 18: every API test file used to make each of its databases from nothing — PGlite's initdb (seconds
 * of WASM) and the migrations, on both databases. A migrated database is made once per set of migrations and copied
 * from then on: a dump of a PGlite database in the temporary directory, and a template database on PostgreSQL. Both
 * are named after a digest of the migrations, so a changed migration makes a new one.
 */
const migrationsDigest = (() => {
  const hash = createHash('sha256');
  for (const file of readdirSync(migrationsFolder, { recursive: true, encoding: 'utf8' }).sort()) {
    const path = join(migrationsFolder, file);
    if (file.endsWith('.sql') || file.endsWith('.json')) hash.update(file).update(readFileSync(path));
  }
  return hash.digest('hex').slice(0, 16);
})();

let pgliteDump: Promise<Blob> | undefined;

/** A migrated in-memory PGlite database: a copy of the dump, which the first caller on this machine writes. */
export async function migratedPglite() {
  pgliteDump ??= (async () => {
    const file = join(tmpdir(), `cr-test-pglite-${migrationsDigest}.tar`);
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const database = await openPglite();
    await database.migrate();
    const dump = await ((database.db as unknown as { $client: PGlite }).$client.dumpDataDir('none') as Promise<Blob>);
    await database.close();
    // Another worker may write the same file at once: each writes its own and renames it into place.
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
    return dump;
  })();
  return openPglite(undefined, { loadDataDir: await pgliteDump });
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
