import http from 'node:http';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { postgresPool } from '../src/db/client';
import { createExportsService } from '../src/modules/exports/exports.service';
import { seedScale } from '../src/scale-seed';
import { API, useTestApp } from './build-test-app';
import { largeExportRound } from './large-export-round';

const rowsOf = <T>(result: unknown) => (result as { rows?: T[] }).rows ?? (result as T[]);
const bytesOf = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
};

/**
 * G-025..G-028, issue 15 "full CSV ≥ 50 MB/s": on PostgreSQL the CSV exports are PostgreSQL's own
 * `COPY … TO STDOUT` (csv-copy.ts); PGlite keeps the page-by-page writer (csvStream). Both must write the same bytes:
 * CRLF rows, every text quoted (line breaks LF, CRLF and a lone CR kept), formula starts neutralised (=, +, -, @,
 * tab, carriage return first or after , ; tab | a line break or a quote: issue 26 item 4), empty text and NULL as an
 * empty cell, booleans as true/false. The COPY runs in one backend, without parallel workers.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('CSV exports by COPY on PostgreSQL', () => {
  const ctx = useTestApp('postgres');

  async function seeded() {
    const seed = await seedScale(ctx.database.db, {
      proposals: 60,
      reviewers: 30,
      categories: 3,
      reviewsPerReviewer: 6,
      moderators: 6,
      moderationAllocations: 100,
      moderations: 60,
      authorShare: 0,
    });
    const tricky = [
      '=HYPERLINK("http://evil.test"), then a "quoted" word,\nand a new line.',
      '+1 plus',
      '-2 minus',
      '@SUM(A1)',
      '\tTab first',
      '\rCR first',
      'a CRLF\r\nline and a lone CR\rhere',
      '"quoted at the start" and "at the end"',
      'commas, only, here',
      'plain text with ünïcödé ✓ and emoji 🎉',
      '',
      'trailing newline\n',
      '\n',
      '"',
      "' already an apostrophe",
      'back\\slash and \\. alone',
      // Issue 26 item 4: formula starts after a cell start other than the text's own.
      'a;=HYPERLINK("http://evil.test")|+1,-2\t@3',
      '\t\t=a chain of tabs',
      'a list:\n- one\r\n- two',
      'a quote"=1+1 and ;-)',
    ];
    const ids = rowsOf<{ id: number }>(
      await ctx.database.db.execute(sql`select id from reviews where event_id = ${seed.eventId} order by id limit ${tricky.length}`),
    ).map((row) => row.id);
    for (const [i, id] of ids.entries()) {
      const text = tricky[i]!;
      const other = tricky[(i + 5) % tricky.length]!;
      await ctx.database.db.execute(
        sql`update reviews set impact_alignment_note = ${text}, feasibility_note = ${other}, auditability_note = ${text + other} where id = ${id}`,
      );
    }
    await ctx.database.db.execute(
      sql`update proposals set title = ${tricky[0]}, pr_id = '=1+1' where id = (select min(proposal_id) from reviews where event_id = ${seed.eventId})`,
    );
    await ctx.database.db.execute(
      sql`update subscriptions set public_contact = ${tricky[6]} where id in (select subscription_id from moderations where event_id = ${seed.eventId} order by id limit 3)`,
    );
    await ctx.database.db.execute(
      sql`update subscriptions set public_contact = '' where id in (select subscription_id from moderations where event_id = ${seed.eventId} order by id desc limit 1)`,
    );
    const moderationIds = rowsOf<{ id: number }>(
      await ctx.database.db.execute(sql`select id from moderations where event_id = ${seed.eventId} order by id limit ${tricky.length}`),
    ).map((row) => row.id);
    for (const [i, id] of moderationIds.entries())
      await ctx.database.db.execute(
        sql`update moderations set rationale = ${tricky[i]!}, predefined_reason = ${i % 3 === 0 ? null : tricky[(i + 3) % tricky.length]!} where id = ${id}`,
      );
    // Some rankings: included, excluded, and the rest still 0.
    await ctx.database.db.execute(sql`update reviews set ranking = (id % 3) where event_id = ${seed.eventId}`);
    return seed;
  }

  it('G-025..G-028: COPY writes byte for byte what the page-by-page writer writes (every CSV export)', async () => {
    const seed = await seeded();
    const [admin] = rowsOf<{ id: number }>(await ctx.database.db.execute(sql`select id from users order by id limit 1`));
    const pool = postgresPool(ctx.database.db);
    expect(pool).toBeDefined();
    const events = { get: async () => ({}) };
    const byCopy = createExportsService({ db: ctx.database.db, pool, events });
    const byPages = createExportsService({ db: ctx.database.db, events });
    const exports = [
      (service: typeof byCopy) => service.reviewsCsv(admin!.id, seed.eventId, true),
      (service: typeof byCopy) => service.reviewsCsv(admin!.id, seed.eventId, false),
      (service: typeof byCopy) => service.moderationsCsv(admin!.id, seed.eventId),
      (service: typeof byCopy) => service.moderationsCsv(admin!.id, null),
      (service: typeof byCopy) => service.moderatorStatsCsv(admin!.id, seed.eventId),
      (service: typeof byCopy) => service.moderatorStatsCsv(admin!.id, null),
    ];
    for (const run of exports) {
      const copied = await bytesOf((await run(byCopy)).stream);
      const paged = await bytesOf((await run(byPages)).stream);
      expect(copied.length).toBeGreaterThan(40);
      expect(copied.toString('utf8')).toBe(paged.toString('utf8'));
      expect(copied.equals(paged)).toBe(true);
    }
    const full = await bytesOf((await byCopy.reviewsCsv(admin!.id, seed.eventId, true)).stream);
    expect(full.toString('utf8')).toContain('"\'=HYPERLINK(""http://evil.test""), then a ""quoted"" word,\nand a new line."');
    expect(full.toString('utf8')).toMatch(
      /^valid,row_id,user_id,moderations_tot,moderations_as_valid,proposal_id,pr_id,proposal_title,[^\r\n]*\r\n(true|false),/,
    );
    expect(full.toString('utf8')).toMatch(/\r\n$/);
  });

  it('G-026: a client that goes away mid-export ends the COPY and gives its connection back', async () => {
    const { seeded: seed, token, port } = await largeExportRound(ctx);
    const copies = async () =>
      rowsOf<{ n: number }>(
        await ctx.database.db.execute(
          sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and query like 'copy (select (r.ranking = 1)::text%' and pid <> pg_backend_pid()`,
        ),
      )[0]!.n;

    const request = http.get(`http://127.0.0.1:${port}${API}/proposal-reviews/export/full-csv/${seed.eventId}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => request.on('response', resolve).on('error', reject));
    expect(response.statusCode).toBe(200);
    await new Promise<void>((resolve) =>
      response.once('data', () => {
        response.pause();
        resolve();
      }),
    );
    // The COPY is under way, held by back-pressure: the client reads no more.
    expect(await copies()).toBe(1);
    const pool = postgresPool(ctx.database.db)!;
    const before = pool.totalCount;
    request.destroy();
    await expect.poll(copies, { timeout: 30_000, interval: 100 }).toBe(0);
    await expect.poll(() => pool.totalCount, { timeout: 10_000, interval: 50 }).toBeLessThan(before);
    // The pool still serves: the next export is whole.
    const again = await ctx.app.inject({
      url: `${API}/proposal-reviews/export/csv/${seed.eventId}/`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(again.statusCode).toBe(200);
    expect(again.body.trimEnd().split('\r\n')).toHaveLength(1 + seed.reviews);
  }, 240_000);
});
