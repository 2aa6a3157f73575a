import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../src/db/client';
import { SCALE_PASSWORD, seedScale } from '../src/scale-seed';
import { API } from './build-test-app';

const rowsOf = <T>(result: unknown) => (result as { rows?: T[] }).rows ?? (result as T[]);

/**
 * A round large enough that its full CSV export cannot fit in a socket's buffers (30,000 reviews), its first reviewer
 * made admin and logged in, and the app listening on a free port: for the tests of a streamed export (G-026).
 */
export async function largeExportRound(ctx: { app: FastifyInstance; database: { db: Db } }) {
  const seeded = await seedScale(ctx.database.db, {
    proposals: 2_000,
    reviewers: 1_500,
    categories: 10,
    reviewsPerReviewer: 20,
    authorShare: 0,
  });
  const [admin] = rowsOf<{ id: number; catalyst_id: string }>(
    await ctx.database.db.execute(
      sql`select u.id, c.catalyst_id from subscriptions s join users u on u.id = s.user_id join catalyst_ids c on c.id = u.catalyst_id_ref where s.event_id = ${seeded.eventId} order by s.id limit 1`,
    ),
  );
  await ctx.database.db.execute(sql`update users set role = 100 where id = ${admin!.id}`);
  const login = await ctx.app.inject({
    method: 'POST',
    url: `${API}/users/token/login`,
    payload: `username=${encodeURIComponent(admin!.catalyst_id)}&password=${SCALE_PASSWORD}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const token = login.json().access_token as string;
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = ctx.app.server.address() as AddressInfo;
  return { seeded, token, port };
}
