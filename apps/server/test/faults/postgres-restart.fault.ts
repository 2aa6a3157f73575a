import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUnavailableMessage } from '../../src/errors';
import {
  api,
  createDatabase,
  login,
  query,
  SCALE_PASSWORD,
  seedRound,
  startCluster,
  startServer,
  until,
  type Cluster,
  type ServerProcess,
} from './harness';

// Issue 18 item 4: PostgreSQL restarted mid-load → the server keeps running, answers 503 with a clear message while
// the database is away (readiness says so), and recovers without a restart.
describe('PostgreSQL restarted under load', () => {
  let cluster: Cluster | string;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    cluster = await startCluster();
    if (typeof cluster === 'string') return;
    const url = await createDatabase(cluster, 'cr_fault_restart');
    await seedRound(url, { proposals: 200, reviewers: 20 });
    server = await startServer({ DATABASE_URL: url });
  });
  afterAll(async () => {
    await server?.stop();
    if (typeof cluster !== 'string') cluster?.destroy();
  });

  it('answers 503 with a clear message while the database is away and recovers on its own', async (context) => {
    if (typeof cluster === 'string') return context.skip(cluster);
    const origin = server!.origin;
    const pid = server!.child.pid;
    const seeded = await api(origin, 'GET', '/events/');
    expect(seeded.status).toBe(200);
    const [someone] = await query<{ catalyst_id: string }>(
      cluster.url('cr_fault_restart'),
      'select catalyst_id from catalyst_ids order by id limit 1',
    );
    const token = await login(origin, someone!.catalyst_id, SCALE_PASSWORD);

    // Load: 16 clients reading lists and their own account, one request at a time, until told to stop.
    const statuses = new Map<number, number>();
    const unavailableBodies = new Set<string>();
    let loading = true;
    const paths = ['/events/', '/proposals/?size=10', '/users/me/', '/proposals/?size=10&page=3'];
    const load = Promise.all(
      Array.from({ length: 16 }, async (_, i) => {
        for (let k = 0; loading; k += 1) {
          const answer = await api(origin, 'GET', paths[(i + k) % paths.length]!, { token });
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          if (answer.status === 503) unavailableBodies.add(JSON.stringify(answer.body));
        }
      }),
    );
    await until('requests answered before the stop', async () => (statuses.get(200) ?? 0) > 200);

    await cluster.stop();
    const away = await api(origin, 'GET', '/readyz');
    expect(away.status).toBe(503);
    expect(away.body).toEqual({ message: databaseUnavailableMessage });
    expect((await api(origin, 'GET', '/livez')).status).toBe(200);
    await until('503 answers under load', async () => (statuses.get(503) ?? 0) > 50);

    await cluster.start();
    await until('readiness again', async () => (await api(origin, 'GET', '/readyz')).status === 200);
    const okBefore = statuses.get(200) ?? 0;
    await until('requests answered after the start', async () => (statuses.get(200) ?? 0) > okBefore + 200);
    loading = false;
    await load;

    // The same process all along, its session still good; only 200 and 503 were ever answered.
    expect(server!.child.pid).toBe(pid);
    expect(server!.child.exitCode).toBeNull();
    expect((await api(origin, 'GET', '/users/me/', { token })).status).toBe(200);
    expect([...statuses.keys()].sort()).toEqual([200, 503]);
    expect([...unavailableBodies]).toEqual([JSON.stringify({ message: databaseUnavailableMessage })]);
    expect(server!.stderr()).not.toMatch(/Uncaught|unhandled/i);
  });
});
