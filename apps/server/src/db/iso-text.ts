import { sql, type SQL } from 'drizzle-orm';

/**
 * A timestamp with its zone as JavaScript's `toISOString` writes it (milliseconds, UTC), for answers PostgreSQL writes
 * as JSON. The colons are quoted text of the pattern (`":"`), so that no `:name` appears in the statement (pgbench,
 * which replays it, reads those as variables).
 */
export const isoText = (column: SQL) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24":"MI":"SS.MS"Z"')`;
