import { resolve } from 'node:path';
import { EXIT_FAILED, EXIT_OK, EXIT_USAGE, type CliDeps } from './cli-deps';
import { ConfigError } from './config';
import { DatabaseLockedError } from './db/client';
import { backupEmbedded, BackupError, restoreEmbedded } from './db/embedded-backup';

/**
 * `backup <file>` and `restore <file> [--replace]`: the embedded database's copy (docs/deployment.md "Backup and restore"). Both
 * take the database's lock, so they refuse while a server runs on DATA_DIR (a copy is then always consistent). With
 * DATABASE_URL they refuse and point to pg_dump / pg_restore. Never throws; answers the exit code.
 */
export async function runBackupCommand(name: 'backup' | 'restore', args: string[], deps: CliDeps): Promise<number> {
  const replace = name === 'restore' && args.includes('--replace');
  const words = args.filter((word) => !(name === 'restore' && word === '--replace'));
  if (words.length !== 1 || words[0]!.startsWith('--')) {
    deps.err(
      name === 'backup'
        ? 'backup takes one argument: the file to write, e.g. npm run cli -- backup /backups/community-review.tar.gz'
        : 'restore takes the backup file and, optionally, --replace, e.g. npm run cli -- restore /backups/community-review.tar.gz',
    );
    return EXIT_USAGE;
  }
  const file = resolve(words[0]!);
  try {
    if (!deps.storage) throw new BackupError('backup and restore are not available here.');
    const { databaseUrl, dataDir } = deps.storage();
    if (databaseUrl) {
      throw new BackupError(
        `${name} copies the embedded database; this server uses PostgreSQL (DATABASE_URL): use pg_dump and pg_restore instead (docs/deployment.md, "Backup and restore"). Nothing was changed.`,
      );
    }
    if (name === 'backup') {
      const { bytes } = await backupEmbedded(dataDir, file);
      deps.out(`Backed up the embedded database in ${resolve(dataDir)} to ${file} (${(bytes / 1024 / 1024).toFixed(1)} MB).`);
    } else {
      const { replacedTo } = await restoreEmbedded(dataDir, file, { replace });
      deps.out(
        `Restored ${file} into ${resolve(dataDir)}.${replacedTo ? ` The database that was there is kept in ${replacedTo}; remove it once you no longer need it.` : ''} Start the server to use it.`,
      );
    }
    return EXIT_OK;
  } catch (error) {
    if (error instanceof BackupError || error instanceof ConfigError || error instanceof DatabaseLockedError) deps.err(error.message);
    else deps.err(`The command failed: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_FAILED;
  }
}
