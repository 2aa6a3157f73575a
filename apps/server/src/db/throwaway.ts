import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openPostgres, type Database } from './client';

/**
 * A new, empty PostgreSQL database on the server of `adminUrl` (the API tests and the benchmarks use one each) — or a
 * copy of `template` — and how to drop it again once its pool is closed.
 */
export async function throwawayPostgres(
  adminUrl: string,
  prefix: string,
  options: { template?: string } = {},
): Promise<Database & { url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}${options.template ? ` template ${options.template}` : ''}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString());
  return {
    ...database,
    url: url.toString(),
    drop: async () => {
      // Without (force) first: forcing would terminate backends of the just-ended pool whose sockets are still
      // closing, and their clients would then throw 57P01 into the process.
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        for (let attempt = 0; ; attempt += 1) {
          try {
            await client.query(`drop database if exists ${name}`);
            break;
          } catch (error) {
            if (attempt >= 30) {
              await client.query(`drop database if exists ${name} with (force)`);
              break;
            }
            if ((error as { code?: string }).code !== '55006') throw error;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        }
      } finally {
        await client.end();
      }
    },
  };
}
