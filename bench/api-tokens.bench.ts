/**
 * Issue 29 item 3, "A request with an API token costs ≤ 1.1× one with a session access token (p50 of the same list,
 * one run)". One server in this process on a throw-away PostgreSQL database with the demo data: the same list
 * (`GET proposals/allocated?size=25&page=0`, the demo reviewer's allocation) asked BENCH_REQUESTS (4,000) times with
 * each credential, alternating in blocks of 50 so that drift in the machine's load falls on both, BENCH_CONCURRENCY
 * (8) at a time, through `app.inject` (the whole request pipeline without the socket). Also the bare `healthz` as a
 * floor. Writes bench/results/api-tokens.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../apps/server/src/app';
import { testConfig } from '../apps/server/src/config';
import { seedDemo } from '../apps/server/src/demo';
import { benchDatabase, percentile, round } from './lib/database';

const here = fileURLToPath(new URL('.', import.meta.url));
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const BLOCK = 50;
const API = '/api/reviews';

const database = await benchDatabase();
try {
  await seedDemo(database.db);
  const config = testConfig({
    LOG_LEVEL: 'silent',
    LOGIN_LIMIT_PER_ADDRESS: '1000000',
    LOGIN_LIMIT_PER_ACCOUNT: '1000000',
    LOGIN_LIMIT_PER_ACCOUNT_ADDRESS: '1000000',
    API_TOKEN_RATE_PER_MINUTE: '1000000',
  });
  const app = await buildApp({ config, db: database.db, jwtSecret: config.JWT_SECRET!, logger: false });
  await app.ready();
  const login = await app.inject({
    method: 'POST',
    url: `${API}/users/token/login`,
    payload: 'username=id.catalyst%3A%2F%2Fcardano%2Fdemo-reviewer&password=Demo-pass1',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const session = `Bearer ${login.json().access_token}`;
  const created = await app.inject({
    method: 'POST',
    url: `${API}/users/me/tokens/`,
    headers: { authorization: session },
    payload: { new_api_token: { name: 'bench', scopes: ['read'], expires_in_days: 1 } },
  });
  const token = `Bearer ${created.json().token}`;
  const url = `${API}/proposals/allocated?size=25&page=0`;

  const variants = { session, token, healthz: '' } as const;
  type Variant = keyof typeof variants;
  const latencies: Record<Variant, number[]> = { session: [], token: [], healthz: [] };
  let failures = 0;
  async function block(variant: Variant) {
    let next = 0;
    const worker = async () => {
      while (next < BLOCK) {
        next += 1;
        const started = performance.now();
        const response =
          variant === 'healthz'
            ? await app.inject({ method: 'GET', url: `${API}/healthz` })
            : await app.inject({ method: 'GET', url, headers: { authorization: variants[variant] } });
        latencies[variant].push(performance.now() - started);
        if (response.statusCode !== 200) failures += 1;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  }
  // Warm-up, then alternating blocks.
  for (const variant of ['session', 'token', 'healthz'] as const) await block(variant);
  for (const list of Object.values(latencies)) list.length = 0;
  for (let done = 0; done < REQUESTS; done += BLOCK) {
    const order: Variant[] = (done / BLOCK) % 2 === 0 ? ['session', 'token', 'healthz'] : ['token', 'session', 'healthz'];
    for (const variant of order) await block(variant);
  }
  const stats = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return { n: sorted.length, p50: round(percentile(sorted, 50), 3), p95: round(percentile(sorted, 95), 3) };
  };
  const result = {
    list: url,
    session: stats(latencies.session),
    token: stats(latencies.token),
    healthz: stats(latencies.healthz),
    failures,
  };
  const ratio = { p50: round(result.token.p50 / result.session.p50, 3), p95: round(result.token.p95 / result.session.p95, 3) };
  console.table({ session: result.session, token: result.token, healthz: result.healthz });
  console.log(`API token / session: p50 ×${ratio.p50} (target ≤ 1.1), p95 ×${ratio.p95}; failures ${failures}`);
  mkdirSync(join(here, 'results'), { recursive: true });
  writeFileSync(join(here, 'results', 'api-tokens.json'), `${JSON.stringify({ ...result, ratio }, null, 2)}\n`);
  await app.close();
} finally {
  await database.drop();
}
