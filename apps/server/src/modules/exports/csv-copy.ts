import { pipeline } from 'node:stream';
import type pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { crlfRows } from './csv';

/** A SELECT for COPY, and its text columns (those written through csvText). */
export interface CopyQuery {
  query: string;
  textColumns: readonly string[];
}

/**
 * A CSV export on PostgreSQL: `COPY (query) TO STDOUT WITH (FORMAT csv, HEADER)` on a connection of its own, its rows'
 * ends made CRLF (crlfRows), as one stream for the reply. PostgreSQL writes the CSV itself, several times faster than
 * rows mapped to objects and written in JavaScript. Back-pressure holds end to end: the stream reads from the
 * connection's socket only as the client takes the answer, so PostgreSQL waits on a full socket and memory stays flat.
 * The connection goes back to the pool when the COPY ends; when it fails or the client goes away (Fastify destroys the
 * stream), the connection is closed instead, which ends the COPY on the server too.
 */
export async function copyCsv(pool: pg.Pool, { query, textColumns }: CopyQuery) {
  const client = await pool.connect();
  try {
    // One backend per export: the planner may spread the notes' neutralising (csvText) over parallel workers, which
    // would wait on a slow client as long as the COPY does, each holding one of the server's few worker slots.
    await client.query('set max_parallel_workers_per_gather = 0');
  } catch (error) {
    client.release(error as Error);
    throw error;
  }
  // FORCE_QUOTE: every text cell quoted, as csvStream writes them (NULLs stay empty).
  const quoted = textColumns.length > 0 ? `, force_quote (${textColumns.join(', ')})` : '';
  const copy = client.query(copyTo(`copy (${query}) to stdout with (format csv, header${quoted})`));
  return pipeline(copy, crlfRows(), (error) => {
    if (error) return client.release(error);
    // Back to the pool as it came.
    client.query('reset max_parallel_workers_per_gather').then(
      () => client.release(),
      (resetError: Error) => client.release(resetError),
    );
  });
}
