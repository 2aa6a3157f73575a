/**
 * Issue 30's operations figures, one run each:
 * 1. **Cold start to ready, compiled vs tsx.** The server process started BENCH_STARTS (5) times each way, alternating
 *    (`node --enable-source-maps apps/server/dist/server.mjs`, as `npm start` runs it, against `node --import tsx
 *    apps/server/src/server.ts`, as it ran before), on one throw-away migrated PostgreSQL database: the time from
 *    spawn to the first `readyz` 200. The median of each and their ratio.
 * 2. **What `/metrics` adds to the proposals list.** Two apps on one database with demo data, one with METRICS_TOKEN,
 *    one without; the same first page of `GET proposals/` BENCH_REQUESTS (4,000) times on each, in alternating
 *    blocks of 50, BENCH_CONCURRENCY (8) at a time, through `app.inject`; p50 and p95 of each and the ratio (target
 *    ≤ 1.03 at p50). The app without metrics runs while the other's telemetry listener exists (it is process-wide):
 *    it pays the cache-lookup notifications too, which makes the ratio, if anything, a little kind to the metrics.
 * Writes bench/results/operations.json.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../apps/server/src/app';
import { testConfig } from '../apps/server/src/config';
import { seedDemo } from '../apps/server/src/demo';
import { benchDatabase, percentile, round } from './lib/database';
import { freePort } from './lib/haproxy';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('..', import.meta.url));
const STARTS = Number(process.env.BENCH_STARTS ?? 5);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const BLOCK = 50;
const API = '/api/reviews';
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

/** Milliseconds from spawning the server to its first readyz 200; then stops it. */
async function coldStart(args: string[], databaseUrl: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', SEED_DEMO: 'false' },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before it was ready`);
      const ready = await fetch(`http://127.0.0.1:${port}${API}/readyz`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ready) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const database = await benchDatabase();
try {
  if (spawnSync(process.execPath, ['scripts/build-server.mjs'], { cwd: root, stdio: 'inherit' }).status !== 0)
    throw new Error('build failed');
  const compiled: number[] = [];
  const tsx: number[] = [];
  for (let i = 0; i < STARTS; i += 1) {
    compiled.push(await coldStart(['--enable-source-maps', 'apps/server/dist/server.mjs'], database.url));
    tsx.push(await coldStart(['--import', 'tsx', 'apps/server/src/server.ts'], database.url));
  }
  const start = {
    compiled_ms: round(median(compiled), 0),
    tsx_ms: round(median(tsx), 0),
    ratio: round(median(compiled) / median(tsx), 3),
    runs: STARTS,
  };
  console.table({ compiled: { median_ms: start.compiled_ms }, tsx: { median_ms: start.tsx_ms } });
  console.log(`Cold start to the first readyz 200: compiled ${start.compiled_ms} ms, tsx ${start.tsx_ms} ms (×${start.ratio})`);

  await seedDemo(database.db);
  const make = async (metrics: boolean) => {
    const config = testConfig({ LOG_LEVEL: 'silent', ...(metrics ? { METRICS_TOKEN: 'bench-metrics-token-0123456789' } : {}) });
    const app = await buildApp({ config, db: database.db, jwtSecret: config.JWT_SECRET!, logger: false });
    await app.ready();
    return app;
  };
  const apps = { without: await make(false), with: await make(true) };
  type Variant = keyof typeof apps;
  const latencies: Record<Variant, number[]> = { without: [], with: [] };
  let failures = 0;
  const url = `${API}/proposals/?page=1`;
  async function block(variant: Variant) {
    let next = 0;
    const worker = async () => {
      while (next < BLOCK) {
        next += 1;
        const began = performance.now();
        const response = await apps[variant].inject({ method: 'GET', url });
        latencies[variant].push(performance.now() - began);
        if (response.statusCode !== 200) failures += 1;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  }
  for (const variant of ['without', 'with'] as const) await block(variant);
  latencies.without.length = 0;
  latencies.with.length = 0;
  for (let done = 0; done < REQUESTS; done += BLOCK) {
    const order: Variant[] = (done / BLOCK) % 2 === 0 ? ['without', 'with'] : ['with', 'without'];
    for (const variant of order) await block(variant);
  }
  const stats = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return { n: sorted.length, p50: round(percentile(sorted, 50), 3), p95: round(percentile(sorted, 95), 3) };
  };
  const metrics = {
    list: url,
    without: stats(latencies.without),
    with: stats(latencies.with),
    failures,
  };
  const metricsRatio = { p50: round(metrics.with.p50 / metrics.without.p50, 3), p95: round(metrics.with.p95 / metrics.without.p95, 3) };
  console.table({ 'without metrics': metrics.without, 'with metrics': metrics.with });
  console.log(`With /metrics on / without: p50 ×${metricsRatio.p50} (target ≤ 1.03), p95 ×${metricsRatio.p95}; failures ${failures}`);
  await apps.without.close();
  await apps.with.close();

  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(
    join(here, 'results', 'operations.json'),
    `${JSON.stringify({ cold_start: start, metrics: { ...metrics, ratio: metricsRatio } }, null, 2)}\n`,
  );
} finally {
  await database.drop();
}
