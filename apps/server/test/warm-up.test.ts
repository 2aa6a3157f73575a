import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { seedDemo } from '../src/demo';
import { observeTelemetry } from '../src/lib/telemetry';
import { createWarmUpService, WARM_READS_AT_ONCE } from '../src/modules/warm-up/warm-up.service';
import { API, useTestApp } from './build-test-app';

const rowsOf = <T>(result: unknown) => (result as { rows?: T[] }).rows ?? (result as T[]);

/**
 * Issue 30 item 6: before it listens, the server counts the totals of the lists a visitor or reviewer opens first in
 * the current rounds (modules/warm-up/warm-up.service.ts), so that a server started during a round does not count every
 * filter at once for its first users. Seen through the totals caches' lookups (lib/telemetry): a hit is a kept total.
 */
describe('the warm-up of the list totals', () => {
  const ctx = useTestApp();
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  /** Runs the requests and answers each totals lookup they made, as `cache hit|miss`. */
  async function lookupsOf(urls: string[]) {
    const seen: string[] = [];
    stop = observeTelemetry((event) => {
      if (event.type === 'cache' && event.cache.endsWith('_totals')) seen.push(`${event.cache} ${event.hit ? 'hit' : 'miss'}`);
    });
    for (const url of urls) expect((await ctx.app.inject({ method: 'GET', url: `${API}/${url}` })).statusCode).toBe(200);
    stop();
    return seen;
  }

  it('counts the current rounds’ lists by event, objective and ranking, which the first requests then find kept', async () => {
    await seedDemo(ctx.database.db);
    const categories = rowsOf<{ id: number; event_id: number }>(
      await ctx.database.db.execute(
        sql`select c.id, c.event_id from categories c join events e on e.id = c.event_id where e.active order by c.id`,
      ),
    );
    expect(categories.length).toBeGreaterThan(1);
    const category = categories[0]!;
    const lists = [
      'proposals/?size=25&page=0',
      `proposals/?size=25&page=0&category=${category.id}`,
      `proposals/?size=25&page=1&event_id=${category.event_id}`,
      'proposal-reviews/filtered?size=25&page=0',
      `proposal-reviews/filtered?size=25&page=0&event_id=${category.event_id}`,
      `proposal-reviews/filtered?size=25&page=0&objective=${category.id}`,
      'proposal-reviews/filtered?size=25&page=0&rankings=1',
      'proposal-reviews/filtered?size=25&page=0&rankings=0',
    ];
    // Not counted yet: the lookups miss (and this is how a miss looks).
    expect(await lookupsOf([lists[0]!, lists[3]!])).toEqual(['proposal_totals miss', 'review_totals miss']);

    const warmed = await ctx.app.services.warmUp();
    expect(warmed.complete).toBe(true);
    // Issue 45 item 14: first the hot reads of each current round (a page of proposals and of reviews, a proposal and a
    // review), each WARM_READS_AT_ONCE at once, so that every pooled connection has prepared their statements.
    const rounds = new Set(categories.map((row) => row.event_id)).size;
    expect(warmed.reads).toBe(4 * WARM_READS_AT_ONCE * rounds);
    // Proposals and reviews: unfiltered, each current event, each objective; reviews by each of four rankings.
    expect(warmed.counted).toBe(2 + 2 * new Set(categories.map((row) => row.event_id)).size + 2 * categories.length + 4);

    const seen = await lookupsOf(lists);
    expect(seen).toHaveLength(lists.length);
    expect(seen.filter((lookup) => lookup.endsWith('miss'))).toEqual([]);
    // A filter the warm-up does not know (a title) is still counted by its first request.
    expect(await lookupsOf(['proposals/?size=25&page=0&title=wallet'])).toEqual(['proposal_totals miss']);
  });

  it('stops at its time budget, leaving the rest to the requests', async () => {
    let time = 0;
    // Each look at the clock moves it 60 ms: the budget (130 ms) holds one round of reads (WARM_READS_AT_ONCE of the
    // first), then it is spent: nothing counted.
    const warmed = await ctx.app.services.warmUp(130, () => (time += 60));
    expect(warmed).toEqual({ counted: 0, reads: WARM_READS_AT_ONCE, complete: false });
  });

  it('leaves everything to the requests when it cannot list the rounds, and never stops the start', async () => {
    const failing = createWarmUpService({
      events: { current: () => Promise.reject(new Error('database away')), categories: () => Promise.resolve([]) },
      proposals: { count: () => Promise.resolve(0), listJson: () => Promise.resolve('[]'), getJson: () => Promise.resolve('{}') },
      reviews: { count: () => Promise.resolve(0), filteredJson: () => Promise.resolve('[]'), getJson: () => Promise.resolve('{}') },
    });
    expect(await failing()).toEqual({ counted: 0, reads: 0, complete: false });
  });
});
