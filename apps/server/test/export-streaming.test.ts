import http from 'node:http';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { API, databaseKinds, useTestApp } from './build-test-app';
import { largeExportRound } from './large-export-round';

const rowsOf = <T>(result: unknown) => (result as { rows?: T[] }).rows ?? (result as T[]);

/**
 * G-026, issue 15 "streaming (a large export does not buffer)": the full reviews CSV of 30,000 reviews (≈ 25 MB, far
 * more than the sockets' buffers hold) is sent while the server still reads the reviews. The client reads the first
 * chunk and stops reading. On PGlite (pages): a review written then, after every review the export had when it
 * started, is in the file once the client reads on: the server read its last pages only as the client consumed the
 * answer. On PostgreSQL (one COPY, a snapshot: the late review is not in it): the COPY comes to wait on its socket
 * (wait event ClientWrite), still under way: the server reads PostgreSQL's output only as the client takes it. No timing.
 */
describe.each(databaseKinds)('a large export streams (%s)', (kind) => {
  const ctx = useTestApp(kind);

  it('G-026: the full CSV is sent while the server still reads the reviews (PGlite: a review written after its first bytes is in it; PostgreSQL: the COPY waits on the client)', async () => {
    const { database } = ctx;
    const { seeded, token, port } = await largeExportRound(ctx);

    const response = await new Promise<http.IncomingMessage>((resolve, reject) =>
      http
        .get(
          `http://127.0.0.1:${port}${API}/proposal-reviews/export/full-csv/${seeded.eventId}`,
          { headers: { authorization: `Bearer ${token}` } },
          resolve,
        )
        .on('error', reject),
    );
    expect(response.statusCode).toBe(200);
    const chunks: Buffer[] = [];
    // The first bytes, then no more reading until the late review exists.
    const first = await new Promise<Buffer>((resolve) =>
      response.once('data', (chunk: Buffer) => {
        response.pause();
        resolve(chunk);
      }),
    );
    chunks.push(first);
    expect(first.toString('utf8')).toMatch(/^valid,row_id,user_id,/);

    // A review of the first reviewer on a proposal they have not reviewed: its id is above every earlier review's.
    const [late] = rowsOf<{ id: number }>(
      await database.db.execute(sql`
        insert into reviews (event_id, proposal_id, category_id, subscription_id, impact_alignment_rating_given, impact_alignment_note,
                             feasibility_rating_given, feasibility_note, auditability_rating_given, auditability_note, ranking)
        select ${seeded.eventId}, p.id, p.category_id, s.id, 5, 'Written while the export was being sent.', 5, 'Late.', 5, 'Late.', 1
        from (select id from subscriptions where event_id = ${seeded.eventId} order by id limit 1) s,
             (select id, category_id from proposals where event_id = ${seeded.eventId} order by id offset 1000 limit 1) p
        returning id`),
    );

    if (kind === 'postgres')
      await expect
        .poll(
          async () =>
            rowsOf<{ wait_event: string | null }>(
              await database.db.execute(
                sql`select wait_event from pg_stat_activity where datname = current_database() and query like 'copy (%' and pid <> pg_backend_pid()`,
              ),
            ).map((row) => row.wait_event),
          { timeout: 60_000, interval: 50 },
        )
        .toEqual(['ClientWrite']);

    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    const ended = new Promise((resolve) => response.on('end', resolve));
    response.resume();
    await ended;
    const lines = Buffer.concat(chunks).toString('utf8').trimEnd().split('\r\n');
    const [{ n }] = rowsOf<{ n: number }>(
      await database.db.execute(sql`select count(*)::int as n from reviews where event_id = ${seeded.eventId}`),
    ) as [{ n: number }];
    expect(n).toBe(seeded.reviews + 1);
    if (kind === 'postgres') {
      expect(lines).toHaveLength(1 + seeded.reviews);
      expect(lines.at(-1)!.split(',')[1]).not.toBe(String(late!.id));
    } else {
      expect(lines).toHaveLength(1 + n);
      expect(lines.at(-1)!.split(',')[1]).toBe(String(late!.id));
      expect(lines.at(-1)).toContain('Written while the export was being sent.');
    }
  }, 240_000);
});
