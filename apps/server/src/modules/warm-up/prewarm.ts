import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { rowsOf } from '../../db/rows';

/** PostgreSQL's block size as built by default; the statistics and pg_prewarm count in blocks. */
const BLOCK_BYTES = 8192;
/** How many blocks one pg_prewarm call reads (8 MB): the deadline is looked at between calls. */
const CHUNK_BLOCKS = 1024;

export interface PrewarmResult {
  /** Whether pg_prewarm is installed in the database (`create extension pg_prewarm`, by its owner or a superuser). */
  available: boolean;
  /** The relations read whole, most used first. */
  relations: string[];
  /** Megabytes read. */
  mb: number;
  /** False when the deadline or the budget stopped it before every used relation was read. */
  complete: boolean;
}

type Used = { relation: string; blocks: number };

/**
 * Issue 45 item 14, a cold machine: after a restart of PostgreSQL and an empty page cache (a reboot, a restore, a new
 * replica) the first requests wait on the disk for every page they touch — a title filter's first count 334 ms at
 * p95 in the first 10 s, 13 ms later. Before the server listens, this reads the relations its requests use into the
 * kernel's page cache, with the ecosystem's own tool: PostgreSQL's pg_prewarm, in its `read` mode (whole relations in
 * long sequential reads, rather than the requests' random ones).
 *
 * Which relations: the database's own statistics of use (pg_statio_user_tables and _indexes: blocks read or found in
 * shared buffers since the statistics began; PostgreSQL keeps them across a clean restart), the most used first, as
 * many as `budgetBytes` and the deadline allow; relations never used since are left alone. With no statistics (a new
 * database, a restore, after a crash), the indexes first, smallest first, then the tables. Without pg_prewarm (not installed; PGlite) it does nothing and says so; it never throws.
 */
export async function prewarmUsedRelations(
  db: Db,
  options: { budgetBytes: number; deadline: number; now?: () => number },
): Promise<PrewarmResult> {
  const now = options.now ?? Date.now;
  const result: PrewarmResult = { available: false, relations: [], mb: 0, complete: true };
  try {
    const [installed] = rowsOf<{ installed: boolean }>(
      await db.execute(sql`select exists (select 1 from pg_extension where extname = 'pg_prewarm') as installed`),
    );
    if (!installed?.installed) return result;
    result.available = true;
    const relations = rowsOf<Used & { used: number }>(
      await db.execute(sql`
        select format('%I.%I', schemaname, relname) as relation, used::float8 as used,
               (pg_relation_size(relid) / ${BLOCK_BYTES})::int as blocks
          from (select schemaname, relname, relid, coalesce(heap_blks_read, 0) + coalesce(heap_blks_hit, 0) as used,
                       false as is_index
                  from pg_statio_user_tables
                union all
                select schemaname, indexrelname, indexrelid, coalesce(idx_blks_read, 0) + coalesce(idx_blks_hit, 0), true
                  from pg_statio_user_indexes) as relations
         where pg_relation_size(relid) > 0
         order by used desc, is_index desc, pg_relation_size(relid), relation`),
    );
    // With statistics, the relations used since they began; without (a new database, a restore, a crash), the
    // indexes, smallest first, then the tables: every read walks an index, and the small ones are the lookups.
    const used = relations.some((row) => row.used > 0) ? relations.filter((row) => row.used > 0) : relations;
    let budget = Math.floor(options.budgetBytes / BLOCK_BYTES);
    let late = false;
    for (const { relation, blocks } of used) {
      if (now() >= options.deadline) late = true;
      if (late) break;
      // Too big for what is left: a smaller, less used relation may still fit.
      if (blocks > budget) {
        result.complete = false;
        continue;
      }
      for (let first = 0; first < blocks && !late; first += CHUNK_BLOCKS) {
        if (now() >= options.deadline) {
          late = true;
          break;
        }
        const last = Math.min(blocks, first + CHUNK_BLOCKS) - 1;
        await db.execute(sql`select pg_prewarm(${relation}::regclass, 'read', 'main', ${first}, ${last})`);
        result.mb += ((last - first + 1) * BLOCK_BYTES) / 1048576;
        budget -= last - first + 1;
      }
      if (!late) result.relations.push(relation);
    }
    if (late) result.complete = false;
  } catch {
    // A relation dropped meanwhile, a statement refused: the requests read what they need themselves.
    result.complete = false;
  }
  result.mb = Math.round(result.mb * 10) / 10;
  return result;
}
