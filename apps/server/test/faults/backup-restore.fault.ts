import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  createDatabase,
  login,
  query,
  SCALE_PASSWORD,
  seedRound,
  startCluster,
  startServer,
  type Cluster,
  type ServerProcess,
} from './harness';

/** The number of rows of every table (the application's and drizzle's migration journal). */
async function counts(url: string) {
  const tables = await query<{ name: string }>(
    url,
    `select format('%I.%I', table_schema, table_name) as name from information_schema.tables where table_schema in ('public', 'drizzle') and table_type = 'BASE TABLE' order by 1`,
  );
  const result: Record<string, number> = {};
  for (const { name } of tables) result[name] = (await query<{ n: number }>(url, `select count(*)::int as n from ${name}`))[0]!.n;
  return result;
}

// Issue 18 item 5: PostgreSQL backup and restore (docs/deployment.md "Backup and restore"): pg_dump / pg_restore round trip, and
// the app starts on the restored copy with every count equal.
describe('pg_dump and pg_restore round trip', () => {
  let cluster: Cluster | string;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    cluster = await startCluster();
  });
  afterAll(async () => {
    await server?.stop();
    if (typeof cluster !== 'string') cluster?.destroy();
  });

  it('restores a dump the server starts on, with every row', async (context) => {
    if (typeof cluster === 'string') return context.skip(cluster);
    const source = await createDatabase(cluster, 'cr_fault_source');
    const round = await seedRound(source, { proposals: 300, reviewers: 60, reviews: 3 });
    const before = await counts(source);
    expect(before['public.reviews']).toBe(180);

    const file = join(cluster.dir, 'community-review.dump');
    const connection = ['-h', '127.0.0.1', '-p', String(cluster.port), '-U', 'postgres'];
    cluster.run('pg_dump', [...connection, '--format=custom', '--file', file, 'cr_fault_source']);
    const restored = await createDatabase(cluster, 'cr_fault_restored');
    cluster.run('pg_restore', [...connection, '--no-owner', '--exit-on-error', '--dbname', 'cr_fault_restored', file]);
    expect(await counts(restored)).toEqual(before);

    // The server starts on the copy (its migrations find nothing to do) and serves what was there.
    server = await startServer({ DATABASE_URL: restored });
    expect((await api(server.origin, 'GET', '/readyz')).status).toBe(200);
    const token = await login(server.origin, round.reviewers[1]!.catalyst_id, SCALE_PASSWORD);
    const mine = await api(server.origin, 'GET', '/users/me/', { token });
    expect(mine.status).toBe(200);
    await server.stop();
    server = undefined;
    const after = await counts(restored);
    // Logging in adds a session (refresh token) and an address counter, and nothing else.
    expect({ ...after, 'public.refresh_tokens': 0, 'public.rate_limits': 0 }).toEqual({
      ...before,
      'public.refresh_tokens': 0,
      'public.rate_limits': 0,
    });
  });
});
