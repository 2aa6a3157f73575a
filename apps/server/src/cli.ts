import { runCli } from './cli-commands';
import { loadConfig } from './config';
import { openDatabase } from './db/client';

/** Operator commands: `npm run cli -- <command>` (see `help`). The logic lives in cli-commands.ts. */
const code = await runCli(process.argv.slice(2), {
  async open() {
    const config = loadConfig();
    return { database: await openDatabase(config), adminCatalystIds: config.adminCatalystIds };
  },
  storage() {
    const config = loadConfig();
    return { databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR };
  },
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
process.exit(code);
