import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateLimits } from '../db/schema/index';
import { tooManyRequests } from '../errors';

/**
 * Fixed-window counter kept in the database, so every server instance shares it. `hit` counts one attempt and
 * throws 429 (with Retry-After) once the limit for the window is passed.
 */
export function createRateLimiter(db: Db, windowSeconds: number) {
  return {
    async hit(key: string, limit: number): Promise<void> {
      const rows = await db
        .insert(rateLimits)
        .values({ key, windowStartedAt: sql`now()`, hits: 1 })
        .onConflictDoUpdate({
          target: rateLimits.key,
          set: {
            hits: sql`case when ${rateLimits.windowStartedAt} < now() - make_interval(secs => ${windowSeconds}) then 1 else ${rateLimits.hits} + 1 end`,
            windowStartedAt: sql`case when ${rateLimits.windowStartedAt} < now() - make_interval(secs => ${windowSeconds}) then now() else ${rateLimits.windowStartedAt} end`,
          },
        })
        .returning({ hits: rateLimits.hits, startedAt: rateLimits.windowStartedAt });
      const row = rows[0];
      if (row && row.hits > limit) {
        const elapsed = Math.floor((Date.now() - new Date(row.startedAt).getTime()) / 1000);
        throw tooManyRequests(Math.max(1, windowSeconds - elapsed));
      }
    },
  };
}
export type RateLimiter = ReturnType<typeof createRateLimiter>;
