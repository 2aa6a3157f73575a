/**
 * Two instances behind HAProxy (issue 18 item 3): the same read load (`GET proposals/` pages and a proposal, 16
 * clients in a second process, BENCH_SECONDS per case) through HAProxy to one server process, then to two, both on
 * one PostgreSQL database. Needs Debian's haproxy (`apt-get install -y haproxy`); says so and stops without it.
 * Writes bench/results/two-instances.json. On a 2-core machine the load generator, HAProxy, PostgreSQL and the
 * servers share the cores, so the ratio says little about a real deployment (target there: two ≥ 1.6 × one).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { seedScale } from '../apps/server/src/scale-seed';
import { benchDatabase, loadSettings, percentile, round } from './lib/database';
import { freePort, haproxyInstalled, startHaproxy, waitFor } from './lib/haproxy';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = join(here, '..');
const run = promisify(execFile);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const JWT_SECRET = 'bench-two-instances-secret-bench-two!';

if (!haproxyInstalled()) {
  console.log('two-instances: haproxy is not installed (apt-get install -y haproxy); skipped.');
  process.exit(0);
}

async function startServer(databaseUrl: string) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: root,
    stdio: 'ignore',
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      JWT_SECRET,
      LOG_LEVEL: 'warn',
      SEED_DEMO: 'false',
      TRUST_PROXY: 'true',
    },
  });
  await waitFor(`http://127.0.0.1:${port}/api/reviews/readyz`, child);
  return { port, child };
}

const database = await benchDatabase();
const processes: ChildProcess[] = [];
try {
  const seeded = await seedScale(database.db, { proposals: 5_000, reviewers: 200, categories: 20, reviewsPerReviewer: 0 });
  const ids = (
    (await database.db.execute(sql`select id from proposals where event_id = ${seeded.eventId} limit 200`)) as unknown as {
      rows: { id: number }[];
    }
  ).rows.map((row) => row.id);
  const servers = [await startServer(database.url), await startServer(database.url)];
  processes.push(...servers.map((server) => server.child));
  const results = [];
  for (const count of [1, 2]) {
    const proxy = await startHaproxy(servers.slice(0, count).map((server) => server.port));
    const base = `http://127.0.0.1:${proxy.port}/api/reviews`;
    const urls = [
      ...Array.from({ length: 20 }, (_, i) => `${base}/proposals/?size=25&page=${i + 1}`),
      ...ids.map((id) => `${base}/proposals/${id}/`),
    ];
    await run(process.execPath, [join(here, 'lib/load.mjs'), loadSettings({ urls, concurrency: 16, seconds: 1 })]);
    const { stdout } = await run(
      process.execPath,
      [join(here, 'lib/load.mjs'), loadSettings({ urls, concurrency: 16, seconds: SECONDS })],
      {
        maxBuffer: 256 * 1024 * 1024,
      },
    );
    proxy.child.kill('SIGTERM');
    const { latencies, errors } = JSON.parse(stdout) as { latencies: number[]; errors: number };
    latencies.sort((a, b) => a - b);
    results.push({
      instances: count,
      requests: latencies.length,
      errors,
      rps: round(latencies.length / SECONDS, 0),
      p50_ms: round(percentile(latencies, 50), 2),
      p95_ms: round(percentile(latencies, 95), 2),
      p99_ms: round(percentile(latencies, 99), 2),
    });
  }
  const ratio = round(results[1]!.rps / results[0]!.rps, 2);
  console.log(`Two instances behind HAProxy vs one (16 clients, ${SECONDS} s, proposal pages and details): ${ratio}× the throughput`);
  console.table(results);
  writeFileSync(join(here, 'results/two-instances.json'), JSON.stringify({ date: new Date().toISOString(), ratio, results }, null, 2));
} finally {
  for (const child of processes) child.kill('SIGTERM');
  await database.drop();
}
