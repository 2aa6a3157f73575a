import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateLimits } from '../db/schema/index';
import { tooManyRequests } from '../errors';

/**
 * Counters kept in the database, so every server instance shares them.
 *
 * - `hit` counts one attempt in a fixed window and throws 429 (with Retry-After) once the limit for the window is
 *   passed; it answers the count, this attempt included. `add` counts without refusing, `peek` reads counts without
 *   counting, `clear` forgets a counter.
 * - `fail` keeps a run of failures that ends once none came for a whole window: its `peek` gives the count and, as
 *   `startedAt`, the time of the last one, which an exponential back-off reads.
 */
export function createRateLimiter(db: Db, windowSeconds: number) {
  const stale = sql`${rateLimits.windowStartedAt} < now() - make_interval(secs => ${windowSeconds})`;
  const retryAfter = (startedAt: Date | string) =>
    Math.max(1, windowSeconds - Math.floor((Date.now() - new Date(startedAt).getTime()) / 1000));
  async function add(key: string) {
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
    return rows[0] ?? { hits: 1, startedAt: new Date() };
  }
  return {
    windowSeconds,

    async hit(key: string, limit: number): Promise<number> {
      const row = await add(key);
      if (row.hits > limit) throw tooManyRequests(retryAfter(row.startedAt));
      return row.hits;
    },

    /** One more in the window, never refused: a counter that only failures feed (guess-guard). */
    async add(key: string): Promise<number> {
      return (await add(key)).hits;
    },

    /**
     * The counts of `keys` in their current windows, read without counting anything: a check that refuses must not
     * feed the counter that refused it (issue 26 item 0). Keys without a current window are absent.
     */
    async peek(keys: string[]): Promise<Map<string, { hits: number; startedAt: Date; retryAfter: number }>> {
      const rows = await db
        .select({ key: rateLimits.key, hits: rateLimits.hits, startedAt: rateLimits.windowStartedAt })
        .from(rateLimits)
        .where(and(inArray(rateLimits.key, keys), sql`not (${stale})`));
      return new Map(
        rows.map((row) => [row.key, { hits: row.hits, startedAt: new Date(row.startedAt), retryAfter: retryAfter(row.startedAt) }]),
      );
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
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
