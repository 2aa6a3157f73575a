import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateLimits } from '../db/schema/index';
import { tooManyRequests } from '../errors';

/**
 * Counters kept in the database, so every server instance shares them.
 *
 * - `hit` counts one attempt in a fixed window and throws 429 (with Retry-After) once the limit for the window is
 *   passed; it answers the count, this attempt included. `refund` takes one attempt back (a login that succeeded),
 *   `clear` forgets a counter.
 * - `fail` and `failures` keep a run of failures that ends once none came for a whole window: the count and the time
 *   of the last one, which an exponential back-off reads.
 */
export function createRateLimiter(db: Db, windowSeconds: number) {
  const stale = sql`${rateLimits.windowStartedAt} < now() - make_interval(secs => ${windowSeconds})`;
  return {
    windowSeconds,

    async hit(key: string, limit: number): Promise<number> {
      const rows = await db
        .insert(rateLimits)
        .values({ key, windowStartedAt: sql`now()`, hits: 1 })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            hits: sql`case when ${stale} then 1 else ${rateLimits.hits} + 1 end`,
            windowStartedAt: sql`case when ${stale} then now() else ${rateLimits.windowStartedAt} end`,
          },
        })
        .returning({ hits: rateLimits.hits, startedAt: rateLimits.windowStartedAt });
      const row = rows[0];
      if (row && row.hits > limit) {
        const elapsed = Math.floor((Date.now() - new Date(row.startedAt).getTime()) / 1000);
        throw tooManyRequests(Math.max(1, windowSeconds - elapsed));
      }
      return row?.hits ?? 1;
    },

    async refund(key: string): Promise<void> {
      await db
        .update(rateLimits)
        .set({ hits: sql`greatest(${rateLimits.hits} - 1, 0)` })
        .where(and(eq(rateLimits.key, key), sql`not (${stale})`));
    },

    async clear(key: string): Promise<void> {
      await db.delete(rateLimits).where(eq(rateLimits.key, key));
    },

    /** One more failure in the run (the run restarts when the last failure is a window old); the run's length. */
    async fail(key: string): Promise<number> {
      const rows = await db
        .insert(rateLimits)
        .values({ key, windowStartedAt: sql`now()`, hits: 1 })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: { hits: sql`case when ${stale} then 1 else ${rateLimits.hits} + 1 end`, windowStartedAt: sql`now()` },
        })
        .returning({ hits: rateLimits.hits });
      return rows[0]?.hits ?? 1;
    },

    /** The current run of failures: how many, and when the last one was (null when there is none). */
    async failures(key: string): Promise<{ count: number; lastAt: Date } | null> {
      const [row] = await db
        .select({ hits: rateLimits.hits, lastAt: rateLimits.windowStartedAt })
        .from(rateLimits)
        .where(and(eq(rateLimits.key, key), sql`not (${stale})`));
      return row ? { count: row.hits, lastAt: new Date(row.lastAt) } : null;
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
