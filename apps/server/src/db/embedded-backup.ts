import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { embeddedDatabaseDir, embeddedDatabaseExists, lockEmbedded, pgliteOptions } from './client';

/** A backup or restore refused or failed; the message says why and what was (not) changed. */
export class BackupError extends Error {}

/**
 * Backs the embedded database in `dataDir` up into `file` (a gzipped tar of its files, PGlite's `dumpDataDir`). It
 * takes the database's lock first, so that no server writes meanwhile: while a server runs it refuses
 * (DatabaseLockedError) and the copy is always consistent. The file is written whole or not at all.
 */
export async function backupEmbedded(dataDir: string, file: string): Promise<{ bytes: number }> {
  if (existsSync(file)) throw new BackupError(`${resolve(file)} exists already; choose a new file name. Nothing was changed.`);
  if (!embeddedDatabaseExists(dataDir)) {
    throw new BackupError(`There is no embedded database in ${resolve(dataDir)} to back up (check DATA_DIR).`);
  }
  const unlock = lockEmbedded(dataDir);
  try {
    const client = new PGlite(embeddedDatabaseDir(dataDir), pgliteOptions);
    await client.waitReady;
    let bytes: Buffer;
    try {
      bytes = Buffer.from(await (await client.dumpDataDir('gzip')).arrayBuffer());
    } finally {
      await client.close();
    }
    const partial = `${file}.partial`;
    writeFileSync(partial, bytes);
    renameSync(partial, file);
    return { bytes: bytes.length };
  } finally {
    unlock();
  }
}

/**
 * Restores a backup of `backupEmbedded` into `dataDir`, under the database's lock (refused while a server runs). A
 * database already there is refused, or with `replace` put aside as `pglite.replaced-<time>` (kept for the operator
 * to remove); if the backup cannot be opened, the directory is left as it was.
 */
export async function restoreEmbedded(dataDir: string, file: string, options: { replace: boolean }): Promise<{ replacedTo?: string }> {
  if (!existsSync(file)) throw new BackupError(`There is no backup file at ${resolve(file)}. Nothing was changed.`);
  let tar = readFileSync(file);
  if (tar[0] === 0x1f && tar[1] === 0x8b) tar = gunzipSync(tar);
  const unlock = lockEmbedded(dataDir);
  try {
    const target = embeddedDatabaseDir(dataDir);
    let replacedTo: string | undefined;
    if (existsSync(target)) {
      if (!options.replace) {
        throw new BackupError(
          `${resolve(dataDir)} holds a database already. Restore into an empty DATA_DIR, or pass --replace to keep the present one aside (as pglite.replaced-<time>) and restore the backup in its place. Nothing was changed.`,
        );
      }
      replacedTo = `${target}.replaced-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      renameSync(target, replacedTo);
    }
    try {
      const client = new PGlite(target, { ...pgliteOptions, loadDataDir: new Blob([new Uint8Array(tar)]) });
      await client.waitReady;
      await client.query('select 1');
      await client.close();
    } catch (error) {
      rmSync(target, { recursive: true, force: true });
      if (replacedTo) renameSync(replacedTo, target);
      const reason = error instanceof Error ? error.message : String(error);
      throw new BackupError(`${resolve(file)} could not be restored (${reason}). Nothing was changed.`);
    }
    return replacedTo ? { replacedTo } : {};
  } finally {
    unlock();
  }
}
