/**
 * The server as the benchmarks measure it: a process of its own on BENCH_SERVER_DATABASE_URL (the bench's throw-away
 * database), without login limits. It prints `{"port": n}` once it listens, and stops on SIGTERM. Quiet, unless
 * BENCH_SERVER_LOG_LEVEL names a level: then it logs as in production (productionLogger of app.ts: pino's lines written
 * in batches to stdout, a pipe the bench reads as a log collector would), so that a bench pays what logging costs.
 * `node --import tsx bench/lib/server.ts`; benches start it with `startServer()` of lib/processes.ts.
 */
import { API_PREFIX, buildApp, productionLogger } from '../../apps/server/src/app';
import { testConfig } from '../../apps/server/src/config';
import { openPostgres } from '../../apps/server/src/db/client';
import { WARM_UP_BUDGET_MS } from '../../apps/server/src/modules/warm-up/warm-up.service';
import { warmRoutes } from '../../apps/server/src/modules/warm-up/warm-routes';

const database = await openPostgres(process.env.BENCH_SERVER_DATABASE_URL!);
const config = testConfig({
  LOG_LEVEL: 'silent',
  LOGIN_LIMIT_PER_ADDRESS: '1000000',
  LOGIN_LIMIT_PER_ACCOUNT: '1000000',
  LOGIN_LIMIT_PER_ACCOUNT_ADDRESS: '1000000',
  // The warm-up's read of the most used relations (issue 45 item 14): `0` to measure without it.
  ...(process.env.WARM_UP_PREWARM_MB ? { WARM_UP_PREWARM_MB: process.env.WARM_UP_PREWARM_MB } : {}),
});
const level = process.env.BENCH_SERVER_LOG_LEVEL;
const logger = level ? productionLogger(level) : false;
const app = await buildApp({ config, db: database.db, jwtSecret: config.JWT_SECRET!, logger });
// As server.ts does (BENCH_WARM_UP=0: not; BENCH_WARM_ROUTES=0: the services only, not the HTTP layer).
if (process.env.BENCH_WARM_UP !== '0') {
  const started = performance.now();
  const warm = await app.services.warmUp();
  const routes =
    process.env.BENCH_WARM_ROUTES === '0'
      ? undefined
      : await warmRoutes(app, { base: API_PREFIX, deadline: Date.now() + WARM_UP_BUDGET_MS - (performance.now() - started) });
  process.stderr.write(`${JSON.stringify({ warmedUp: { ...warm, routes, ms: Math.round(performance.now() - started) } })}\n`);
}
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: (app.server.address() as { port: number }).port })}\n`);
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
