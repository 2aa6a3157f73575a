import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { POOL_SIZE } from '../src/db/client';
import { throwawayPostgres } from '../src/db/throwaway';
import { seedDemo } from '../src/demo';
import { observeTelemetry } from '../src/lib/telemetry';
import { prewarmUsedRelations } from '../src/modules/warm-up/prewarm';
import { warmRoutes } from '../src/modules/warm-up/warm-routes';
import { createWarmUpService, WARM_READS_AT_ONCE } from '../src/modules/warm-up/warm-up.service';
import { API, databaseKinds, useTestApp } from './build-test-app';

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
    // first), then it is spent: no signed-in read, nothing counted.
    const warmed = await ctx.app.services.warmUp(130, () => (time += 60));
    // (PGlite has no pg_prewarm: that step looks once and reads nothing.)
    const prewarm = { available: false, relations: [], mb: 0, complete: true };
    expect(warmed).toEqual({ counted: 0, reads: WARM_READS_AT_ONCE, signedIn: 0, complete: false, prewarm });
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

/**
 * Issue 45 item 14: every user of a round under way is signed in, and a signed-in request runs statements a visitor's
 * never does — the session check, the user's info, their allocated proposals and reviews, a moderator's lists, the
 * public reads as a viewer. The warm-up runs them for a sample reviewer and moderator of each current round, on every
 * pooled connection, before the server listens (modules/warm-up/signed-in.ts).
 */
describe.each(databaseKinds)('the warm-up of the signed-in reads on %s', (kind) => {
  const ctx = useTestApp(kind);

  it('runs a reviewer’s and a moderator’s reads on every pooled connection, each of them answered', async () => {
    await seedDemo(ctx.database.db);
    // The demo's current rounds hold a reviewer who reviewed an allocated proposal and a moderator with reviews to
    // moderate: all fifteen reads of signed-in.ts run.
    const warmed = await ctx.app.services.warmUp();
    expect(warmed.complete).toBe(true);
    // Counted when answered: none of them failed.
    expect(warmed.signedIn).toBe(15 * WARM_READS_AT_ONCE);
    if (kind !== 'postgres') return;
    // Each connection of the pool holds their named statements, prepared before any user came.
    const pool = (ctx.database.db as unknown as { $client: pg.Pool }).$client;
    const clients = await Promise.all(Array.from({ length: POOL_SIZE }, () => pool.connect()));
    try {
      for (const client of clients) {
        const names = (await client.query('select name from pg_prepared_statements')).rows.map((row: { name: string }) => row.name);
        expect(names).toEqual(expect.arrayContaining(['auth_session_account', 'user_info']));
      }
    } finally {
      for (const client of clients) client.release();
    }
  });
});

/**
 * Issue 45 item 14, a cold machine: before it listens, the warm-up reads the database's most used relations into the
 * page cache with pg_prewarm when it is installed (modules/warm-up/prewarm.ts), most used first, within its budget.
 */
describe.each(databaseKinds)('the warm-up’s read of the most used relations on %s', (kind) => {
  const ctx = useTestApp(kind);

  it('reads the relations the statistics show used, most used first, within the budget and the deadline', async () => {
    if (kind === 'pglite') {
      // PGlite has no pg_prewarm: nothing is read, and the start goes on.
      expect(await prewarmUsedRelations(ctx.database.db, { budgetBytes: 1 << 30, deadline: Date.now() + 60_000 })).toEqual({
        available: false,
        relations: [],
        mb: 0,
        complete: true,
      });
      return;
    }
    // Not installed yet: the same.
    expect((await prewarmUsedRelations(ctx.database.db, { budgetBytes: 1 << 30, deadline: Date.now() + 60_000 })).available).toBe(false);
    await ctx.database.db.execute(sql`create extension if not exists pg_prewarm`);
    // Use: the proposals list and a user's own data, read through the API, then the statistics flushed.
    await seedDemo(ctx.database.db);
    for (const url of ['proposals/?size=25&page=0', 'proposal-reviews/filtered?size=25&page=0'])
      expect((await ctx.app.inject({ method: 'GET', url: `${API}/${url}` })).statusCode).toBe(200);
    await ctx.database.db.execute(sql`select pg_stat_force_next_flush()`);
    const used = rowsOf<{ relation: string; used: number; size: number }>(
      await ctx.database.db.execute(sql`
        select format('%I.%I', schemaname, relname) as relation, (heap_blks_read + heap_blks_hit)::float8 as used,
               pg_relation_size(relid)::float8 as size
          from pg_statio_user_tables where heap_blks_read + heap_blks_hit > 0 and pg_relation_size(relid) > 0
        union all
        select format('%I.%I', schemaname, indexrelname), (idx_blks_read + idx_blks_hit)::float8, pg_relation_size(indexrelid)::float8
          from pg_statio_user_indexes where idx_blks_read + idx_blks_hit > 0 and pg_relation_size(indexrelid) > 0
         order by 2 desc, 1`),
    );
    expect(used.map((row) => row.relation)).toContain('public.proposals');

    const all = await prewarmUsedRelations(ctx.database.db, { budgetBytes: 1 << 30, deadline: Date.now() + 60_000 });
    expect(all.available).toBe(true);
    expect(all.complete).toBe(true);
    // Every used relation (those used while this ran, too), the most used first; none unused.
    expect(all.relations.slice(0, 3)).toEqual(used.slice(0, 3).map((row) => row.relation));
    expect(all.relations).toEqual(expect.arrayContaining(used.map((row) => row.relation)));
    expect(all.mb).toBeGreaterThan(0);
    // Each relation whole: the megabytes read are their sizes.
    const [sizes] = rowsOf<{ mb: number }>(
      await ctx.database.db.execute(
        sql`select sum(pg_relation_size(r::regclass))::float8 / 1048576 as mb from unnest(array[${sql.join(
          all.relations.map((r) => sql`${r}`),
          sql`, `,
        )}]::text[]) as r`,
      ),
    );
    expect(all.mb).toBeCloseTo(sizes!.mb, 1);

    // A budget of the first relation alone: only it (and smaller used ones that still fit), and it says it stopped short.
    const first = used[0]!;
    const small = await prewarmUsedRelations(ctx.database.db, { budgetBytes: first.size, deadline: Date.now() + 60_000 });
    expect(small.relations[0]).toBe(first.relation);
    expect(small.mb).toBeLessThanOrEqual(first.size / 1048576 + 1e-9);
    expect(small.complete).toBe(false);

    // A budget smaller than the most used relation: that one is passed over, a smaller one read.
    const smallest = Math.min(...used.map((row) => row.size));
    expect(first.size).toBeGreaterThan(smallest);
    const passedOver = await prewarmUsedRelations(ctx.database.db, { budgetBytes: smallest, deadline: Date.now() + 60_000 });
    expect(passedOver.relations).toHaveLength(1);
    expect(passedOver.relations).not.toContain(first.relation);
    expect(passedOver.complete).toBe(false);

    // A deadline already passed: nothing read.
    expect(await prewarmUsedRelations(ctx.database.db, { budgetBytes: 1 << 30, deadline: Date.now() - 1 })).toMatchObject({
      relations: [],
      mb: 0,
      complete: false,
    });

    // The warm-up does it first, within its budget, and says so.
    const warmed = await ctx.app.services.warmUp();
    expect(warmed.prewarm).toMatchObject({ available: true, complete: true });
    expect(warmed.prewarm!.relations.length).toBeGreaterThan(0);
  });
});

/**
 * Issue 45 item 14, the server's own code: the warm-up then asks the hot public reads through the whole HTTP layer, so
 * that V8 has run (and optimised) that path before the first users (modules/warm-up/warm-routes.ts).
 */
describe('the warm-up of the HTTP layer', () => {
  const ctx = useTestApp();

  it('asks the current round’s hot reads through the HTTP layer, round after round, until its rounds or its deadline', async () => {
    // No current round: the one look-up.
    expect(await warmRoutes(ctx.app, { base: API, deadline: Date.now() + 60_000, rounds: 3 })).toEqual({ requests: 1, rounds: 0 });
    // A current round without proposals or reviews yet: the five other reads.
    const empty = await ctx.newEvent();
    expect(await warmRoutes(ctx.app, { base: API, deadline: Date.now() + 60_000, rounds: 3 })).toEqual({ requests: 3 + 5 * 3, rounds: 3 });
    const retired = await ctx.app.inject({
      method: 'PUT',
      url: `${API}/events/${empty.id}/`,
      headers: empty.admin.auth,
      payload: { event_update: { name: empty.name, description: empty.description, active: false } },
    });
    expect(retired.statusCode).toBe(200);
    await seedDemo(ctx.database.db);
    // The app as the warm-up sees it, each answer noted.
    const answered: string[] = [];
    const observed = Object.create(ctx.app) as typeof ctx.app;
    observed.inject = (async (options: { url: string }) => {
      const response = await ctx.app.inject(options as never);
      answered.push(`${response.statusCode} ${options.url.replace(/\/\d+\//, '/{id}/')}`);
      return response;
    }) as never;
    const level = ctx.app.log.level;
    const warmed = await warmRoutes(observed, { base: API, deadline: Date.now() + 60_000, rounds: 3 });
    // The rounds, the round's first proposal and review found, then seven reads three times.
    expect(warmed).toEqual({ requests: 3 + 7 * 3, rounds: 3 });
    expect(answered).toHaveLength(warmed.requests);
    expect(answered.every((line) => line.startsWith('200 '))).toBe(true);
    expect(new Set(answered.slice(3))).toEqual(
      new Set([
        `200 ${API}/events/current/`,
        `200 ${API}/configs/reviews/{id}/`,
        `200 ${API}/proposals/?size=25&page=0`,
        `200 ${API}/proposals/?size=25&page=1`,
        `200 ${API}/proposal-reviews/filtered?size=25&page=0`,
        `200 ${API}/proposals/{id}/`,
        `200 ${API}/proposal-reviews/{id}/`,
      ]),
    );
    // Its requests' log lines were left out, and the level is back.
    expect(ctx.app.log.level).toBe(level);
    // A deadline already passed: the look-ups only.
    expect(await warmRoutes(ctx.app, { base: API, deadline: Date.now() - 1, rounds: 3 })).toEqual({ requests: 3, rounds: 0 });
  });
});

/**
 * Issue 45 item 14: the warm-up parses and plans the hot reads on every pooled connection. Those connections stay open
 * while the server is idle: node-postgres closes an idle connection after 10 s unless told otherwise, and hands out its
 * most recently used one first, so a quiet spell (or a light load) closed most of the primed pool, and the next burst
 * opened cold connections again.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('the PostgreSQL pool', () => {
  it('keeps every connection open while idle, as the warm-up left them', async () => {
    const database = await throwawayPostgres(process.env.TEST_DATABASE_URL!, 'cr_pool');
    // The pool's idle timers are set when a connection is given back: faked from here on, moved on by hand below.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
    try {
      const pool = (database.db as unknown as { $client: pg.Pool }).$client;
      // Every connection checked out at once, as in the warm-up's reads: each a backend of its own.
      const backends = async () => {
        const clients = await Promise.all(Array.from({ length: POOL_SIZE }, () => pool.connect()));
        const pids = await Promise.all(clients.map(async (client) => (await client.query('select pg_backend_pid() as pid')).rows[0].pid));
        for (const client of clients) client.release();
        return new Set(pids);
      };
      const before = await backends();
      expect(before.size).toBe(POOL_SIZE);
      expect(pool.idleCount).toBe(POOL_SIZE);
      // A quiet hour.
      vi.advanceTimersByTime(3_600_000);
      expect(pool.totalCount).toBe(POOL_SIZE);
      // The same backends answer the next burst: none was closed and opened again.
      expect(await backends()).toEqual(before);
    } finally {
      vi.useRealTimers();
      await database.close();
      await database.drop();
    }
  });
});
