import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../../src/db/client';
import { SCALE_PASSWORD, seedScale } from '../../src/scale-seed';
import { api, inTurn, login, startServer, until, type ServerProcess } from './harness';

const note = 'The proposal explains the problem well, the milestones are concrete and the budget is itemised by role. '.repeat(3);
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

// Issue 18 item 4: the embedded database (PGlite in DATA_DIR, the default): a crash (kill -9) mid-write leaves
// DATA_DIR usable at the next start, with every write acknowledged before the crash.
describe('kill -9 of a server on the embedded database', () => {
  let dataDir: string;
  let server: ServerProcess | undefined;
  let eventId: number;
  let reviewers: string[];
  let proposals: number[];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'cr-fault-pglite-'));
    const database = await openPglite(dataDir);
    await database.migrate();
    ({ eventId } = await seedScale(database.db, { proposals: 300, reviewers: 20, categories: 5, reviewsPerReviewer: 0, authorShare: 0 }));
    reviewers = rowsOf<{ catalyst_id: string }>(
      await database.db.execute(
        sql`select c.catalyst_id from subscriptions s join users u on u.id = s.user_id join catalyst_ids c on c.id = u.catalyst_id_ref where s.event_id = ${eventId} order by s.id`,
      ),
    ).map((row) => row.catalyst_id);
    proposals = rowsOf<{ id: number }>(
      await database.db.execute(sql`select id from proposals where event_id = ${eventId} order by id`),
    ).map((row) => row.id);
    await database.close();
    server = await startServer({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts again on the same DATA_DIR with every acknowledged review', async () => {
    const origin = server!.origin;
    const tokens = await inTurn(reviewers, 4, (catalystId) => login(origin, catalystId, SCALE_PASSWORD));
    const acknowledged: number[] = [];
    const refused: string[] = [];
    const load = Promise.all(
      tokens.map(async (token, client) => {
        for (let k = 0; k < 15; k += 1) {
          const proposal = proposals[client * 15 + k]!;
          const body = {
            new_proposal_review: {
              proposal_id: proposal,
              impact_alignment_rating_given: 1 + (k % 5),
              impact_alignment_note: note,
              feasibility_rating_given: 3,
              feasibility_note: note,
              auditability_rating_given: 4,
              auditability_note: note,
            },
          };
          const answer = await api(origin, 'POST', '/proposal-reviews/', { token, body });
          if (answer.status === 201) acknowledged.push(answer.body.row_id as number);
          else {
            if (answer.status !== 0) refused.push(`${answer.status} ${JSON.stringify(answer.body)}`);
            return;
          }
        }
      }),
    );
    await until('reviews acknowledged', async () => acknowledged.length >= 60 || refused.length > 0, 120_000);
    await server!.kill9();
    await load;
    expect(refused).toEqual([]);

    // The next start takes over the dead process's lock and recovers the database.
    server = await startServer({ DATA_DIR: dataDir });
    expect((await api(server.origin, 'GET', '/readyz')).status).toBe(200);
    expect((await api(server.origin, 'GET', '/users/me/', { token: tokens[0] })).status).toBe(200);
    await server.stop();
    server = undefined;

    const database = await openPglite(dataDir);
    try {
      const stored = rowsOf<{ id: number }>(await database.db.execute(sql`select id from reviews where event_id = ${eventId}`)).map(
        (row) => row.id,
      );
      expect(acknowledged.filter((id) => !stored.includes(id))).toEqual([]);
      const duplicates = rowsOf(
        await database.db.execute(sql`select subscription_id, proposal_id from reviews group by 1, 2 having count(*) > 1`),
      );
      expect(duplicates).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
