// Temporary: CPU profile of the server on list requests (not committed).
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { benchDatabase, loadSettings } from './lib/database';
import { login, startServer } from './lib/processes';
import { roundAccounts, seedRound } from './lib/round';
import { SCALE_PASSWORD } from '../apps/server/src/scale-seed';

const database = await benchDatabase();
try {
  const seeded = await seedRound(database.db, { reviewers: Number(process.env.P_REVIEWERS ?? 2000) });
  const [reviewer] = await roundAccounts(database.db, seeded.eventId, 'reviewer', 1);
  const server = await startServer(database.url, ['--cpu-prof', '--cpu-prof-dir=/work/tmp/prof']);
  const token = await login(server.origin, reviewer!.catalystId, SCALE_PASSWORD);
  const paths = (process.env.P_PATHS ?? 'proposals/?size=25&page=3').split(',');
  const out = execFileSync(process.execPath, [
    join(import.meta.dirname, 'lib/load.mjs'),
    loadSettings({ urls: paths.map((p) => `${server.origin}/api/reviews/${p}`), concurrency: 8, seconds: 10, headers: process.env.P_ANON ? {} : { authorization: `Bearer ${token}` } }),
  ], { maxBuffer: 1 << 28 }).toString();
  const r = JSON.parse(out);
  console.log('requests', r.latencies.length, 'errors', r.errors, JSON.stringify(r.statuses));
  await server.stop();
} finally {
  await database.drop();
}
