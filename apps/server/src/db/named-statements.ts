import { createHash } from 'node:crypto';
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

/**
 * A name for a statement whose text varies with its filters (which conditions, how many values in a list): the prefix
 * and a digest of the text, so that one name is always one text and each shape is parsed and planned once per
 * connection. The shapes a list can take are few (each filter is there or not), so the names stay few too.
 */
export function nameOfText(prefix: string, text: string): string {
  return `${prefix}_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
}

/**
 * A statement with placeholders (`sql.placeholder`), turned into text once and run by name with each call's values:
 * neither drizzle (building the text) nor PostgreSQL (parsing, planning) repeats its work per request. The rows come
 * back as the driver gives them, unmapped.
 *
 * `planEachRun`: the text is still built once, but PostgreSQL plans it for each run's values (an unnamed statement)
 * instead of settling on a generic plan. For a statement whose best plan depends on a value's selectivity, which a
 * generic plan cannot see: a title pattern matching one proposal in eight is best read in id order until a page is
 * found (0.4 ms), a rare one through the trigram index, and the generic plan PostgreSQL chose after five runs took the
 * index for every pattern (6–11 ms a page for a common word; issue 30 item 6).
 */
export function preparedRows<Row>(db: DbOrTx, name: string, query: SQL, options: { planEachRun?: boolean } = {}) {
  const { dialect, session } = db as unknown as { dialect: PgDialect; session: PgSession };
  const prepared = session.prepareQuery(dialect.sqlToQuery(query), undefined, options.planEachRun ? undefined : name, false);
  return async (values: Record<string, unknown>): Promise<Row[]> => {
    const result = (await prepared.execute(values)) as { rows?: Row[] } | Row[];
    return Array.isArray(result) ? result : (result.rows ?? []);
  };
}

/**
 * One value per database (or transaction) object, built on first use and kept as long as that object lives: the
 * statements prepared against it.
 */
export function perDatabase<T>(build: (db: DbOrTx) => T): (db: DbOrTx) => T {
  const built = new WeakMap<DbOrTx, T>();
  return (db) => {
    let value = built.get(db);
    if (value === undefined) built.set(db, (value = build(db)));
    return value;
  };
}
