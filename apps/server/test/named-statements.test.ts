import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { preparedRows } from '../src/db/named-statements';
import { useTestApp } from './build-test-app';

const rowsOf = <T>(result: unknown) => (result as { rows?: T[] }).rows ?? (result as T[]);

/**
 * db/named-statements `preparedRows` on PostgreSQL (issue 30 item 6): a statement runs by its name, prepared once on
 * each connection, unless it is planned for each run's values (`planEachRun`: the proposals list's title pages, whose
 * plan depends on how common the title's words are), which runs unnamed and leaves nothing prepared.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('named statements on PostgreSQL', () => {
  const ctx = useTestApp('postgres');

  it('prepares a named statement once per connection, and a statement planned each run not at all', async () => {
    const named = preparedRows<{ n: number }>(ctx.database.db, 'test_named_square', sql`select ${sql.placeholder('n')}::int * 2 as n`);
    const eachRun = preparedRows<{ n: number }>(
      ctx.database.db,
      'test_each_run_square',
      sql`select ${sql.placeholder('n')}::int * 3 as n`,
      { planEachRun: true },
    );
    // One transaction: one connection, whose prepared statements pg_prepared_statements lists.
    const { answers, prepared } = await ctx.database.db.transaction(async (tx) => {
      const onTx = {
        named: preparedRows<{ n: number }>(tx, 'test_named_square', sql`select ${sql.placeholder('n')}::int * 2 as n`),
        eachRun: preparedRows<{ n: number }>(tx, 'test_each_run_square', sql`select ${sql.placeholder('n')}::int * 3 as n`, {
          planEachRun: true,
        }),
      };
      const answers = [
        ...(await onTx.named({ n: 2 })),
        ...(await onTx.named({ n: 5 })),
        ...(await onTx.eachRun({ n: 2 })),
        ...(await onTx.eachRun({ n: 5 })),
      ].map((row) => row.n);
      const prepared = rowsOf<{ name: string }>(
        await tx.execute(sql`select name from pg_prepared_statements where name like 'test\\_%' order by name`),
      ).map((row) => row.name);
      return { answers, prepared };
    });
    expect(answers).toEqual([4, 10, 6, 15]);
    expect(prepared).toEqual(['test_named_square']);
    // Outside a transaction, on the pool, both answer each call's values.
    expect((await named({ n: 7 }))[0]?.n).toBe(14);
    expect((await eachRun({ n: 7 }))[0]?.n).toBe(21);
  });
});
