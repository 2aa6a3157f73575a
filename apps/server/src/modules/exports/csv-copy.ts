import { pipeline } from 'node:stream';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { crlfRows } from './csv';

/**
 * A CSV export on PostgreSQL: `COPY (query) TO STDOUT WITH (FORMAT csv, HEADER)` on a connection of its own, its rows'
 * ends made CRLF (crlfRows), as one stream for the reply. PostgreSQL writes the CSV itself, several times faster than
 * rows mapped to objects and written in JavaScript. Back-pressure holds end to end: the stream reads from the
 * connection's socket only as the client takes the answer, so PostgreSQL waits on a full socket and memory stays flat.
 * The connection goes back to the pool when the COPY ends; when it fails or the client goes away (Fastify destroys the
 * stream), the connection is closed instead, which ends the COPY on the server too.
 */
export async function copyCsv(pool: pg.Pool, query: string) {
  const client = await pool.connect();
  const copy = client.query(copyTo(`copy (${query}) to stdout with (format csv, header)`));
  return pipeline(copy, crlfRows(), (error) => client.release(error ?? undefined));
}
