import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../src/app';
import { testConfig, type RawConfig } from '../src/config';
import { openPglite, openPostgres, type Database } from '../src/db/client';
import { DEMO_PASSWORD } from '../src/demo';
import { createFixtures, type Fixtures } from './fixtures';

export const API = '/api/reviews';
export const databaseKinds: ('pglite' | 'postgres')[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/** A fresh database: in-memory PGlite, or a new throw-away database on the TEST_DATABASE_URL server. */
async function freshDatabase(kind: 'pglite' | 'postgres'): Promise<Database & { drop(): Promise<void> }> {
  if (kind === 'pglite') {
    const database = await openPglite();
    return { ...database, drop: async () => {} };
  }
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `cr_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openPostgres(url.toString());
  return {
    ...database,
    drop: async () => {
      // Without (force) first: forcing would terminate backends of the just-ended pool whose sockets are still
      // closing, and their clients then throw an uncaught 57P01 into the test run.
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        for (let attempt = 0; ; attempt += 1) {
          try {
            await client.query(`drop database if exists ${name}`);
            break;
          } catch (error) {
            if (attempt >= 20) {
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

export interface TestContext extends Fixtures {
  app: FastifyInstance;
  database: Database;
}

/**
 * Gives a test file an app on a freshly migrated database and closes both afterwards (fastify/demo's `build(t)`).
 * Use inside a `describe`: the context's fields are filled in `beforeAll`. Config overrides may be a function, read
 * when the app is built.
 */
type Overrides = Partial<Record<keyof RawConfig, string>>;

export function useTestApp(kind: 'pglite' | 'postgres' = 'pglite', overrides: Overrides | (() => Overrides) = {}): TestContext {
  const ctx = {} as TestContext;
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  beforeAll(async () => {
    database = await freshDatabase(kind);
    await database.migrate();
    // A function is read here, after the file's earlier beforeAll hooks (a fake gateway's address, say).
    const config = testConfig({ PUBLIC_URL: 'http://app.test', ...(typeof overrides === 'function' ? overrides() : overrides) });
    const app = await buildApp({ config, db: database.db, jwtSecret: config.JWT_SECRET!, logger: false });
    await app.ready();
    Object.assign(ctx, { app, database }, createFixtures(app, database.db));
  });
  afterAll(async () => {
    await ctx.app?.close();
    await database?.close();
    await database?.drop();
  });
  return ctx;
}

export const json = <T = any>(response: LightMyRequestResponse): T => response.json() as T;
export { DEMO_PASSWORD };
