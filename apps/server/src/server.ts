import { API_PREFIX, buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { DatabaseLockedError, embeddedDatabaseExists, openDatabase } from './db/client';
import { MigrationFailedError, SchemaBehindError, SchemaTooNewError } from './db/migrator';
import { seedDemo } from './demo';
import { resolveJwtSecret } from './lib/jwt-secret';
import { WARM_UP_BUDGET_MS } from './modules/warm-up/warm-up.service';
import { warmRoutes } from './modules/warm-up/warm-routes';

/** config → database → migrations → (demo data) → app → listen → graceful close. */
async function main() {
  const config = loadConfig();
  const firstStart = !config.DATABASE_URL && !embeddedDatabaseExists(config.DATA_DIR);
  const database = await openDatabase(config);
  try {
    await migrateOrCheck(database, config.MIGRATE_ON_START);
  } catch (error) {
    await database.close();
    throw error;
  }
  const seed = config.SEED_DEMO === 'true' || (config.SEED_DEMO === 'auto' && firstStart);
  const seeded = seed ? await seedDemo(database.db) : 0;

  const app = await buildApp({ config, db: database.db, jwtSecret: resolveJwtSecret(config.JWT_SECRET, config.DATA_DIR) });
  const admins = await app.services.accounts.applyAdminList();
  if (seeded) app.log.info({ accounts: seeded }, 'demo accounts created (see README)');
  if (admins) app.log.info({ admins }, 'ADMIN_CATALYST_IDS applied');

  // SIGTERM (an orchestrator's stop) or SIGINT: stop taking connections, let the requests in flight finish (an admin
  // run's transaction commits or rolls back inside its request), stop the schedulers, close the database, exit 0.
  // Past SHUTDOWN_TIMEOUT_SECONDS the process exits 1 whatever is left.
  let closing = false;
  const close = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, timeoutSeconds: config.SHUTDOWN_TIMEOUT_SECONDS }, 'shutting down: finishing the requests in flight');
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out: exiting with requests still in flight');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_SECONDS * 1000);
    timer.unref();
    try {
      await app.close();
      await database.close();
      app.log.info('shut down');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void close('SIGINT'));
  process.on('SIGTERM', () => void close('SIGTERM'));

  // The current rounds' common list totals first, so that a server started during a round does not count them all at
  // once for its first users (modules/warm-up/warm-up.service.ts; at most WARM_UP_BUDGET_MS).
  const warmStarted = performance.now();
  const warm = await app.services.warmUp();
  // Then the HTTP layer's code, with what is left of the warm-up's time (warm-routes.ts).
  const routes = await warmRoutes(app, { base: API_PREFIX, deadline: Date.now() + WARM_UP_BUDGET_MS - (performance.now() - warmStarted) });
  app.log.info({ ...warm, routes, ms: Math.round(performance.now() - warmStarted) }, 'warmed up');
  await app.listen({ port: config.PORT, host: config.HOST });
  // Deadline reminders: every instance checks each minute; the database lets one of them send each reminder.
  app.services.reminders.start();
  app.services.mailWorker.start();
  // Issue 47: sent mails' bodies after MAIL_RETENTION_DAYS, expired sessions, links, idempotency keys and counters.
  app.services.retention.start((error) => app.log.error({ err: error }, 'retention purge failed'));
  app.log.info(`Community Review is at ${config.publicUrl} (database: ${database.kind})`);
}

/**
 * MIGRATE_ON_START: apply what is pending (one instance at a time; the others wait, then find nothing to do).
 * Otherwise only check: the operator migrates with `npm run cli -- migrate`. Either way a database migrated by a
 * newer release is refused (SchemaTooNewError).
 */
async function migrateOrCheck(database: Awaited<ReturnType<typeof openDatabase>>, migrateOnStart: boolean) {
  if (migrateOnStart) {
    await database.migrate();
    return;
  }
  const pending = await database.pending();
  if (pending.length > 0) {
    throw new SchemaBehindError(
      `The database is behind this release: ${pending.length} migration(s) pending (${pending.join(', ')}). ` +
        'Run `npm run cli -- migrate` (after a backup), or start with MIGRATE_ON_START=true.',
    );
  }
}

main().catch((error: unknown) => {
  const known = [ConfigError, DatabaseLockedError, SchemaTooNewError, SchemaBehindError, MigrationFailedError];
  if (known.some((kind) => error instanceof kind)) {
    console.error((error as Error).message);
  } else {
    console.error('The server could not start:', error);
  }
  process.exit(1);
});
