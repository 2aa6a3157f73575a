/**
 * Logins must not starve other requests (issue 16): `GET healthz` alone, then during a burst of logins (8 clients
 * logging in with the right password, argon2id at m=19 MiB, t=2), each from a second process over loopback; once with
 * the server's bounded hashing (PASSWORD_HASH_CONCURRENCY default: cores − 1, on threads at nice 10), once with those
 * threads at the server's own priority, and once with 64 hashes at once (as before the bound). Target: healthz p99 ≤ 10 ms during the burst. Writes bench/results/login-burst.json.
 * BENCH_LOG_LEVEL (default: none) has the server log as in production (app.ts loggerOptions) to /dev/null;
 * BENCH_VARIANTS=1 runs the first (default) variant only, 0 none of them.
 *
 * Then a guessing flood (issue 45 item 15), at the server's default guessing limits: BENCH_GUESSERS (20) clients
 * post wrong passwords for the seeded accounts from the same address (loopback) as BENCH_REAL_USERS (4) clients whose
 * accounts logged in from this device before (each login carries its device cookie), and 2 clients logging in with
 * the right password from a new device (no cookie), while BENCH_CONCURRENCY clients call healthz. Reports the real
 * users' statuses (target: all 200 — a 503 is retried by the web app by itself, a 429 is a refusal), the new devices'
 * (throttled), the guesses', and healthz p99 during the flood (target ≤ 10 ms). BENCH_FLOOD=0 skips it.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { buildApp, loggerOptions } from '../apps/server/src/app';
import { LOGIN_REFUSAL_PAUSE_MS_DEFAULT, testConfig, type RawConfig } from '../apps/server/src/config';
import { SCALE_PASSWORD, seedScale } from '../apps/server/src/scale-seed';
import { benchDatabase, loadSettings, percentile, round } from './lib/database';
import { hasWrk, loadWithWrk } from './lib/processes';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL;
const VARIANTS = Number(process.env.BENCH_VARIANTS ?? 3);
const FLOOD = process.env.BENCH_FLOOD !== '0';
const GUESSERS = Number(process.env.BENCH_GUESSERS ?? 20);
const REAL_USERS = Number(process.env.BENCH_REAL_USERS ?? 4);
// Who calls healthz: wrk (a C client that costs the two shared cores next to nothing) when installed, else
// lib/load.mjs (Node's http client, about as costly per request as the server's own work); BENCH_LOADER=node forces it.
const HEALTH_LOADER = process.env.BENCH_LOADER ?? (hasWrk() ? 'wrk' : 'node');
const here = fileURLToPath(new URL('.', import.meta.url));
const run = promisify(execFile);

type Load = { latencies: number[]; errors: number; statuses: Record<string, number>; seconds?: number };
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

/** Every answer counted (figures counts the 2xx alone), with the latencies of the 2xx. */
const allAnswers = (name: string, result: Load, seconds: number): Figures => {
  const answered = Object.values(result.statuses ?? {}).reduce((sum, n) => sum + n, 0);
  return { ...figures(name, result), requests: answered, rps: round(answered / seconds, 0) };
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
  if (FLOOD) {
    results.push(
      ...(await guessingFlood(ids, bodies, `paused ${LOGIN_REFUSAL_PAUSE_MS_DEFAULT} ms (default)`, LOGIN_REFUSAL_PAUSE_MS_DEFAULT)),
    );
    if (VARIANTS > 1) results.push(...(await guessingFlood(ids, bodies, 'refused at once', 0)));
  }
  console.log(`Login burst: ${CONCURRENCY} clients logging in, ${CONCURRENCY} calling healthz, ${SECONDS} s (target healthz p99 ≤ 10 ms)`);
  if (FLOOD) {
    console.log(
      `Guessing flood: ${GUESSERS} clients guessing, ${REAL_USERS} real users from a device that logged in before and 2 from a new device, all from one address`,
    );
  }
  console.table(results);
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results/login-burst.json'), JSON.stringify({ date: new Date().toISOString(), results }, null, 2));
} finally {
  await database.drop();
}

/**
 * Issue 45 item 15: real users of an address keep logging in from a device that logged in before while guessers on the
 * same address are locked out, and healthz stays quick. Every client is on loopback: one address.
 */
async function guessingFlood(ids: string[], bodies: string[], variant: string, pauseMs: number): Promise<Figures[]> {
  // The server's own guessing limits and refusal pause (testConfig answers refusals at once).
  const config = testConfig({ LOG_LEVEL: LOG_LEVEL ?? 'silent', LOGIN_REFUSAL_PAUSE_MS: String(pauseMs) });
  // No failures left from an earlier run: the real users' first logins come from a clean address.
  await database.db.execute(sql`delete from rate_limits`);
  const logger = LOG_LEVEL ? { ...loggerOptions(LOG_LEVEL), file: '/dev/null' } : false;
  const app = await buildApp({ config, db: database.db, jwtSecret: config.JWT_SECRET!, logger });
  await app.listen({ port: 0, host: '127.0.0.1' });
  try {
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/reviews`;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    // The real users: each logs in once before the flood, on this device, and keeps its device cookie.
    const real = bodies.slice(0, REAL_USERS);
    const cookies: Record<string, string>[] = [];
    for (const body of real) {
      const response = await fetch(`${base}/users/token/login`, { method: 'POST', headers: form, body });
      if (response.status !== 200) throw new Error(`a real user's first login answered ${response.status}`);
      const device = response.headers.getSetCookie().find((cookie) => cookie.startsWith('cr_device='));
      if (!device) throw new Error('no device cookie');
      cookies.push({ cookie: device.split(';')[0]! });
    }
    const newDevices = bodies.slice(REAL_USERS, REAL_USERS + 2);
    const guesses = ids.slice(REAL_USERS + 2).map((id) => `username=${encodeURIComponent(id)}&password=Wrong-guess-1`);
    const login = (concurrency: number, loginBodies: string[], bodyHeaders?: Record<string, string>[]) => ({
      urls: [`${base}/users/token/login`],
      method: 'POST',
      headers: form,
      bodies: loginBodies,
      bodyHeaders,
      concurrency,
      seconds: SECONDS,
    });
    const health = { urls: [`${base}/healthz`], concurrency: CONCURRENCY, seconds: SECONDS };
    const healthLoad = async (name: string): Promise<Figures> => {
      if (HEALTH_LOADER !== 'wrk') return figures(name, await load(health));
      const wrk = await loadWithWrk({ url: health.urls[0]!, concurrency: CONCURRENCY, seconds: SECONDS - 1 });
      return {
        scenario: name,
        requests: wrk.requests,
        statuses: wrk.errors > 0 ? `errors×${wrk.errors}` : '200',
        rps: wrk.rps,
        p50_ms: wrk.p50_ms,
        p99_ms: wrk.p99_ms,
        max_ms: wrk.max_ms,
      };
    };
    const alone = await healthLoad(`flood, ${variant}: healthz alone (${HEALTH_LOADER})`);
    // The flood starts first and runs a second longer, so that every measurement falls inside it.
    const flood = load({ ...login(GUESSERS, guesses), seconds: SECONDS + 2 });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const [healthFigures, realUsers, strangers, guessed] = await Promise.all([
      healthLoad(`flood, ${variant}: healthz during the guessing flood (${HEALTH_LOADER})`),
      load(login(REAL_USERS, real, cookies)),
      load(login(2, newDevices)),
      flood,
    ]);
    return [
      alone,
      healthFigures,
      allAnswers(`flood, ${variant}: real users, device that logged in before`, realUsers, SECONDS),
      allAnswers(`flood, ${variant}: real users, new device (throttled)`, strangers, SECONDS),
      allAnswers(`flood, ${variant}: the guesses`, guessed, SECONDS + 2),
    ];
  } finally {
    await app.close();
  }
}
