/**
 * The rows of a raw `db.execute` result: node-postgres answers a result object with `rows`, PGlite's driver may
 * answer the array itself.
 */
export const rowsOf = <Row>(result: unknown): Row[] =>
  Array.isArray(result) ? (result as Row[]) : ((result as { rows?: Row[] }).rows ?? []);
