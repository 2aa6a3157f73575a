/**
 * Logins must not starve other requests (issue 16): `GET healthz` alone, then during a burst of logins (8 clients
 * logging in with the right password, argon2id at m=19 MiB, t=2), each from a second process over loopback; once with
 * the server's bounded hashing (PASSWORD_HASH_CONCURRENCY default: cores − 1, on threads at nice 10), once with those
 * threads at the server's own priority, and once with 64 hashes at once (as before the bound). Target: healthz p99 ≤ 10 ms during the burst. Writes bench/results/login-burst.json.
 * BENCH_LOG_LEVEL (default: none) has the server log as in production (app.ts loggerOptions) to /dev/null;
 * BENCH_VARIANTS=1 runs the first (default) variant only.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { buildApp, loggerOptions } from '../apps/server/src/app';
import { testConfig, type RawConfig } from '../apps/server/src/config';
import { SCALE_PASSWORD, seedScale } from '../apps/server/src/scale-seed';
import { benchDatabase, loadSettings, percentile, round } from './lib/database';
import { hasWrk, loadWithWrk } from './lib/processes';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL;
const VARIANTS = Number(process.env.BENCH_VARIANTS ?? 3);
// Who calls healthz: wrk (a C client that costs the two shared cores next to nothing) when installed, else
// lib/load.mjs (Node's http client, about as costly per request as the server's own work); BENCH_LOADER=node forces it.
const HEALTH_LOADER = process.env.BENCH_LOADER ?? (hasWrk() ? 'wrk' : 'node');
const here = fileURLToPath(new URL('.', import.meta.url));
const run = promisify(execFile);

type Load = { latencies: number[]; errors: number; statuses: Record<string, number> };
const load = async (settings: object): Promise<Load> => {
  const { stdout } = await run(process.execPath, [join(here, 'lib/load.mjs'), loadSettings(settings)], { maxBuffer: 256 * 1024 * 1024 });
  return JSON.parse(stdout) as Load;
};
type Figures = ReturnType<typeof figures>;
const figures = (name: string, result: Load) => {
  const sorted = [...result.latencies].sort((a, b) => a - b);
  return {
    scenario: name,
    requests: sorted.length,
    statuses: Object.entries(result.statuses ?? {})
      .map(([status, n]) => `${status}×${n}`)
      .join(' '),
    rps: round(sorted.length / SECONDS, 0),
    p50_ms: round(percentile(sorted, 50), 2),
    p99_ms: round(percentile(sorted, 99), 2),
    max_ms: round(sorted.at(-1) ?? 0, 1),
  };
};

console.error('creating database…');
const database = await benchDatabase();
try {
  await seedScale(database.db, { proposals: 10, reviewers: 200, categories: 2, reviewsPerReviewer: 0 });
  const rows = (await database.db.execute<{ catalyst_id: string }>(
    sql`select catalyst_id from catalyst_ids where catalyst_id like 'cardano/scale-%'`,
  )) as unknown as { rows?: { catalyst_id: string }[] } & { catalyst_id: string }[];
  const ids = (rows.rows ?? rows).map((row) => row.catalyst_id);
  const bodies = ids.map((id) => `username=${encodeURIComponent(id)}&password=${encodeURIComponent(SCALE_PASSWORD)}`);

  const results = [];
  const variants: [string, Partial<Record<keyof RawConfig, string>>][] = [
    ['bounded (default)', {}],
    ['bounded, threads at normal priority', { PASSWORD_HASH_NICENESS: '0' }],
    ['64 at once (before)', { PASSWORD_HASH_CONCURRENCY: '64', PASSWORD_HASH_QUEUE: '64' }],
  ];
  for (const [variant, overrides] of variants.slice(0, VARIANTS)) {
    const config = testConfig({ LOG_LEVEL: LOG_LEVEL ?? 'silent', LOGIN_LIMIT_PER_ADDRESS: '100000000', ...overrides });
    const logger = LOG_LEVEL ? { ...loggerOptions(LOG_LEVEL), file: '/dev/null' } : false;
    const app = await buildApp({ config, db: database.db, jwtSecret: config.JWT_SECRET!, logger });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/reviews`;
    const health = { urls: [`${base}/healthz`], concurrency: CONCURRENCY, seconds: SECONDS };
    const logins = {
      urls: [`${base}/users/token/login`],
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      bodies,
      concurrency: CONCURRENCY,
      seconds: SECONDS,
    };
    const loadHealth = async (name: string): Promise<Figures> => {
      if (HEALTH_LOADER !== 'wrk') return figures(name, await load(health));
      const wrk = await loadWithWrk({ url: health.urls[0]!, concurrency: CONCURRENCY, seconds: SECONDS });
      const statuses = wrk.errors > 0 ? `errors×${wrk.errors}` : '200';
      return { scenario: name, requests: wrk.requests, statuses, rps: wrk.rps, p50_ms: wrk.p50_ms, p99_ms: wrk.p99_ms, max_ms: wrk.max_ms };
    };
    await load({ ...health, seconds: 1 });
    results.push(await loadHealth(`${variant}: healthz alone (${HEALTH_LOADER})`));
    // The burst starts first: wrk warms up for 1 s before it measures.
    const burstLoad = HEALTH_LOADER === 'wrk' ? { ...logins, seconds: SECONDS + 1 } : logins;
    const [during, burst] = await Promise.all([
      loadHealth(`${variant}: healthz during the login burst (${HEALTH_LOADER})`),
      load(burstLoad),
    ]);
    results.push(during);
    results.push(figures(`${variant}: the logins`, burst));
    await app.close();
  }
  console.log(`Login burst: ${CONCURRENCY} clients logging in, ${CONCURRENCY} calling healthz, ${SECONDS} s (target healthz p99 ≤ 10 ms)`);
  console.table(results);
  writeFileSync(join(here, 'results/login-burst.json'), JSON.stringify({ date: new Date().toISOString(), results }, null, 2));
} finally {
  await database.drop();
}
