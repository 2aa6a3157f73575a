import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../src/app';
import { testConfig, type RawConfig } from '../src/config';
import type { Database } from '../src/db/client';
import { throwawayPostgres } from '../src/db/throwaway';
import { DEMO_PASSWORD } from '../src/demo';
import { ARGON2_OPTIONS } from '../src/lib/secrets';
import { createFixtures, type Fixtures } from './fixtures';
import { borrowedPglite, migratedTemplateOn } from './template-databases';
import { createWorldFixtures, type WorldFixtures } from './world-fixtures';

export const API = '/api/reviews';
export const databaseKinds: ('pglite' | 'postgres')[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/**
 * A fresh, migrated database: in-memory PGlite, or a new throw-away database on the TEST_DATABASE_URL server — each a
 * copy of one migrated database (template-databases.ts).
 */
async function freshDatabase(kind: 'pglite' | 'postgres'): Promise<Database & { drop(): Promise<void> }> {
  if (kind === 'pglite') return borrowedPglite();
  const adminUrl = process.env.TEST_DATABASE_URL!;
  return throwawayPostgres(adminUrl, 'cr_test', { template: await migratedTemplateOn(adminUrl) });
}

export interface TestContext extends Fixtures, WorldFixtures {
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
    const fixtures = createFixtures(app, database.db);
    Object.assign(ctx, { app, database }, fixtures, createWorldFixtures(app, database.db, fixtures));
  });
  afterAll(async () => {
    await ctx.app?.close();
    await database?.close();
    await database?.drop();
  });
  return ctx;
}

/** Password hashing at the production cost, for the tests that need hashes to take their real time (testConfig hashes
 * cheaply). */
export const productionHashing = {
  PASSWORD_HASH_MEMORY_KIB: String(ARGON2_OPTIONS.memoryCost),
  PASSWORD_HASH_ITERATIONS: String(ARGON2_OPTIONS.timeCost),
};

export const json = <T = any>(response: LightMyRequestResponse): T => response.json() as T;
export { DEMO_PASSWORD };
