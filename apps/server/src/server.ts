import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { DatabaseLockedError, embeddedDatabaseExists, openDatabase } from './db/client';
import { seedDemo } from './demo';
import { resolveJwtSecret } from './lib/jwt-secret';

/** config → database → migrations → (demo data) → app → listen → graceful close. */
async function main() {
  const config = loadConfig();
  const firstStart = !config.DATABASE_URL && !embeddedDatabaseExists(config.DATA_DIR);
  const database = await openDatabase(config);
  await database.migrate();
  const seed = config.SEED_DEMO === 'true' || (config.SEED_DEMO === 'auto' && firstStart);
  const seeded = seed ? await seedDemo(database.db) : 0;

  const app = await buildApp({ config, db: database.db, jwtSecret: resolveJwtSecret(config.JWT_SECRET, config.DATA_DIR) });
  const admins = await app.services.accounts.applyAdminList();
  if (seeded) app.log.info({ accounts: seeded }, 'demo accounts created (see README)');
  if (admins) app.log.info({ admins }, 'ADMIN_CATALYST_IDS applied');

  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void close('SIGINT'));
  process.on('SIGTERM', () => void close('SIGTERM'));

  await app.listen({ port: config.PORT, host: config.HOST });
  // Deadline reminders: every instance checks each minute; the database lets one of them send each reminder.
  app.services.reminders.start();
  app.services.mailWorker.start();
  app.log.info(`Community Review is at ${config.publicUrl} (database: ${database.kind})`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DatabaseLockedError) {
    console.error(error.message);
  } else {
    console.error('The server could not start:', error);
  }
  process.exit(1);
});
