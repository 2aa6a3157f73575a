import type { SQL } from 'drizzle-orm';
import type { PgDialect, PgSession } from 'drizzle-orm/pg-core';
import type { DbOrTx } from './client';

/**
 * `db.execute(query)` as a named statement: on PostgreSQL each pooled connection parses it once and, after a few
 * runs, keeps its generic plan, so a hot list statement is neither parsed nor planned again (its planning costs more
 * than its execution). PGlite runs it as an ordinary query. One name is one statement text: a name's text may vary
 * only in its parameters' values (node-postgres refuses a second text under a name it has prepared).
 */
export async function namedRows<Row>(db: DbOrTx, name: string, query: SQL): Promise<Row[]> {
  // What db.execute does, with the name drizzle's prepared queries pass to the driver.
  const { dialect, session } = db as unknown as { dialect: PgDialect; session: PgSession };
  const result = (await session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false).execute()) as { rows?: Row[] } | Row[];
  return Array.isArray(result) ? result : (result.rows ?? []);
}
