import type { Database } from './db/client';

/**
 * What every operator command is handed, and the exit codes they answer. Kept apart from the commands so that the
 * files of single commands (cli-backup.ts) and the dispatcher (cli-commands.ts) import it, not each other.
 */
export interface CliDeps {
  /** Loads the configuration and opens the database (the embedded one is locked to this process until closed). */
  open(): Promise<{ database: Database; adminCatalystIds: string[] }>;
  /** Where the database is, without opening it (backup and restore); loads the configuration. */
  storage?(): { databaseUrl?: string | undefined; dataDir: string };
  out(line: string): void;
  err(line: string): void;
}

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
