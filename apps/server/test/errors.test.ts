import { count } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { testConfig } from '../src/config';
import { catalystIds } from '../src/db/schema/index';
import { API, databaseKinds, useTestApp } from './build-test-app';
import { PASSWORD, uniqueName } from './fixtures';
import { migratedPglite } from './template-databases';

const acks = { policy_acknowledgments: { privacy_policy: true, terms_and_conditions: true } };

describe.each(databaseKinds)('bad requests on %s', (kind) => {
  const ctx = useTestApp(kind, { BODY_LIMIT_BYTES: '2000' });
  const catalystIdRows = async () => (await ctx.db.select({ n: count() }).from(catalystIds))[0]!.n;

  it('answers 413 for a body over BODY_LIMIT_BYTES and writes nothing', async () => {
    const before = await catalystIdRows();
    const name = uniqueName('big');
    const response = await ctx.app.inject({
      method: 'POST',
      url: `${API}/users/`,
      payload: {
        new_user: {
          catalyst_id: `cardano/${name}`,
          email: `${name}@example.test`,
          password: PASSWORD,
          password_confirmation: PASSWORD,
          extra: acks,
          padding: 'x'.repeat(3000),
        },
      },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ message: 'The request body is too large.' });
    expect(await catalystIdRows()).toBe(before);
  });

  it('answers 400 for malformed JSON', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: `${API}/users/`,
      payload: '{"new_user": {',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'The request body is not valid JSON.' });
  });

  it('answers 400 for an empty JSON body', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: `${API}/users/activate`,
      payload: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'The request body is not valid JSON.' });
  });

  it('answers 415 for a content type the API does not take', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: `${API}/users/activate`,
      payload: '<xml/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ message: 'This content type is not supported here.' });
  });

  it.each([
    ['GET', '/users/me/'],
    ['GET', '/catalyst-ids/me'],
    ['POST', '/catalyst-ids/me'],
    ['POST', '/users/password/update'],
  ] as const)('answers 401 to an anonymous %s %s, before looking at the body', async (method, path) => {
    const response = await ctx.app.inject({ method, url: `${API}${path}`, ...(method === 'POST' ? { payload: { nonsense: true } } : {}) });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'Not authenticated.' });
  });

  it.each([
    ['a malformed bearer token', 'Bearer not-a-jwt'],
    ['a token signed with another secret', 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl'],
  ])('answers 401 to %s', async (_label, authorization) => {
    const response = await ctx.app.inject({ method: 'GET', url: `${API}/users/me/`, headers: { authorization } });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ message: 'Your session has expired. Please log in again.' });
  });

  it('answers users/me with the user info of spec §3 (A-111, A-112)', async () => {
    const user = await ctx.newUser();
    const response = await ctx.app.inject({ method: 'GET', url: `${API}/users/me`, headers: user.auth });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      email: user.email,
      username: null,
      catalyst_id: {
        id: user.catalystId.replace('id.catalyst://', ''),
        email: user.email,
        email_verified: false,
        username: null,
        status: 2,
        rbac_reg_status: 3,
      },
      extra: {
        role: 0,
        force_reset: false,
        unique_objectives_as_author: [],
        subscriptions: [],
        due_diligence: { status: 0, url: null },
        language: null,
        registered_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        stats: { reviews: { allocations: 0, submitted: 0, allocated_submitted: 0 } },
        historic_stats: {
          reviews: { active_funds: 0, submitted: 0, blank: 0, valid: 0, approval_rate: 0 },
          moderations: { active_funds: 0, submitted: 0 },
        },
      },
    });
  });
});

describe('unexpected errors', () => {
  it('answers 500 without internals when a route throws', async () => {
    const database = await migratedPglite();
    const config = testConfig();
    const app = await buildApp({ config, db: database.db, jwtSecret: config.JWT_SECRET!, logger: false });
    app.get(`${API}/test-throws`, { config: { access: 'public' } }, () => {
      throw new Error('secret internals: password_hash column at /srv/app');
    });
    try {
      const response = await app.inject({ method: 'GET', url: `${API}/test-throws` });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ message: 'An unexpected error occurred.' });
      expect(response.body).not.toContain('secret');
      expect(response.body).not.toContain('stack');
    } finally {
      await app.close();
      await database.close();
    }
  });

  it('answers 500 without internals when the database fails under a request', async () => {
    const database = await migratedPglite();
    const config = testConfig();
    const app = await buildApp({ config, db: database.db, jwtSecret: config.JWT_SECRET!, logger: false });
    await app.ready();
    await database.close();
    try {
      const response = await app.inject({
        method: 'POST',
        url: `${API}/users/token/login`,
        payload: 'username=cardano%2Fabc&password=whatever',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ message: 'An unexpected error occurred.' });
    } finally {
      await app.close();
    }
  });

  it('refuses to start when an API route does not say who may call it', async () => {
    const database = await migratedPglite();
    const config = testConfig();
    const app = await buildApp({ config, db: database.db, jwtSecret: config.JWT_SECRET!, logger: false });
    try {
      expect(() => app.get(`${API}/unguarded`, () => 'open')).toThrow(/does not state who may call it/);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
