import type { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { seedDemo } from '../src/demo';
import { borrowedPglite, migratedPglite, pgliteClient } from './template-databases';

/** Every table's rows and every sequence's position, as one value to compare. */
async function contents(client: PGlite) {
  const { rows: tables } = await client.query<{ name: string }>(
    `select format('%I.%I', schemaname, tablename) as name from pg_tables
      where schemaname not in ('pg_catalog', 'information_schema') order by 1`,
  );
  const state: Record<string, unknown> = {};
  for (const { name } of tables) {
    state[name] = (
      await client.query(`select md5(coalesce(string_agg(t::text, ',' order by t::text), '')) as digest, count(*)::int as n from ${name} t`)
    ).rows[0];
  }
  const { rows: sequences } = await client.query(`select schemaname, sequencename, last_value::text from pg_sequences order by 1, 2`);
  return { state, sequences };
}

describe('a PGlite database lent to a test file (issue 26 item 18)', () => {
  it('comes back to the next file as the migrated database, whatever the last one left in it', async () => {
    const fresh = await migratedPglite();
    const migrated = await contents(pgliteClient(fresh));
    await fresh.close();
    expect(Object.keys(migrated.state).length).toBeGreaterThan(20);

    const first = await borrowedPglite();
    await seedDemo(first.db);
    const client = pgliteClient(first);
    await client.exec(`select pg_advisory_lock(1, 2); begin; insert into drizzle.__drizzle_migrations (hash, created_at) values ('x', 0)`);
    expect(await contents(client)).not.toEqual(migrated);
    await first.close();
    await first.drop();

    const second = await borrowedPglite();
    // The same database, not a new copy of the dump…
    expect(pgliteClient(second)).toBe(client);
    // …back in the migrated state: the demo's rows gone, sequences restarted, the open transaction rolled back.
    expect(await contents(pgliteClient(second))).toEqual(migrated);
    // The advisory lock went with the last file.
    expect((await pgliteClient(second).query(`select count(*)::int as n from pg_locks where locktype = 'advisory'`)).rows).toEqual([
      { n: 0 },
    ]);
    await second.drop();
  });

  it('is not lent again once a test closed it', async () => {
    const first = await borrowedPglite();
    const client = pgliteClient(first);
    await client.close();
    await first.drop();
    const second = await borrowedPglite();
    expect(pgliteClient(second)).not.toBe(client);
    expect(pgliteClient(second).closed).toBe(false);
    await second.drop();
  });
});
