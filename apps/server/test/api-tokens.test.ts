import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_PREFIX, tokenMessages, type ApiTokenPublic, type CreatedApiToken } from '@cr/contract/tokens';
import { AccountStatus } from '@cr/contract/users';
import { apiTokens, auditLog } from '../src/db/schema/index';
import { API, databaseKinds, useTestApp } from './build-test-app';
import type { TestUser } from './fixtures';
import { reviewFields, type TestEvent, type TestProposal, type TestReviewer } from './world-fixtures';

// Issue 29 item 3: personal API tokens — made on the profile, shown once, hashed at rest, scoped per route,
// expiring, revocable, stopped for a banned owner, rate-limited, audited; the OpenAPI document describes them.

type Headers = { authorization: string } | Record<string, never>;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe.each(databaseKinds)('API tokens on %s', (kind) => {
  const ctx = useTestApp(kind, { API_TOKEN_RATE_PER_MINUTE: '30' });
  let event: TestEvent;
  let reviewer: TestReviewer;
  let proposals: TestProposal[];
  let admin: TestUser;

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Headers, payload?: object) =>
    ctx.app.inject({ method, url: `${API}/${url}`, headers, ...(payload ? { payload } : {}) });
  const create = (user: TestUser, fields: Record<string, unknown>) =>
    call('POST', 'users/me/tokens/', user.auth, { new_api_token: { name: 'script', scopes: ['read'], expires_in_days: 30, ...fields } });
  const tokenOf = async (user: TestUser, scopes: string[]) => {
    const response = await create(user, { scopes });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as CreatedApiToken;
  };

  beforeAll(async () => {
    event = await ctx.newEvent({ config: { review_submission_enabled: true } });
    admin = event.admin;
    reviewer = await ctx.newReviewer(event);
    proposals = [await ctx.newProposal(event), await ctx.newProposal(event)];
  });

  it('a token is made once: 201 with its secret, kept only as its SHA-256, listed without it, audited', async () => {
    const created = await tokenOf(reviewer, ['read', 'review']);
    expect(created.token.startsWith(TOKEN_PREFIX)).toBe(true);
    expect(created.token).toHaveLength(TOKEN_PREFIX.length + 43);
    expect(created).toMatchObject({ name: 'script', scopes: ['read', 'review'], hint: created.token.slice(0, 10), revoked_at: null });
    const [row] = await ctx.db.select().from(apiTokens).where(eq(apiTokens.id, created.id));
    expect(row!.tokenHash).toBe(createHash('sha256').update(created.token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.token);
    const listed = (await call('GET', 'users/me/tokens/', reviewer.auth)).json() as ApiTokenPublic[];
    expect(listed.map((token) => token.id)).toContain(created.id);
    expect(JSON.stringify(listed)).not.toContain(created.token);
    const entries = await ctx.db.select().from(auditLog).where(eq(auditLog.action, 'tokens.create'));
    expect(entries.find((entry) => entry.entityId === String(created.id))).toMatchObject({ actorUserId: reviewer.id, entity: 'api_token' });
  });

  it('refuses bad fields (422 with the field), admin-read to a non-admin (403), and anonymous callers (401)', async () => {
    for (const [fields, loc] of [
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ scopes: [] }, 'scopes'],
      [{ scopes: ['write-everything'] }, 'scopes'],
      [{ expires_in_days: 0 }, 'expires_in_days'],
      [{ expires_in_days: 366 }, 'expires_in_days'],
      [{ expires_in_days: 'soon' }, 'expires_in_days'],
    ] as const) {
      const response = await create(reviewer, fields);
      expect(response.statusCode, JSON.stringify(fields)).toBe(422);
      expect(response.json().detail[0].loc.slice(0, 3)).toEqual(['body', 'new_api_token', loc]);
    }
    const adminRead = await create(reviewer, { scopes: ['admin-read'] });
    expect(adminRead.statusCode).toBe(403);
    expect(adminRead.json().message).toBe(tokenMessages.adminReadOnlyAdmins);
    expect((await call('GET', 'users/me/tokens/', {})).statusCode).toBe(401);
    expect((await call('POST', 'users/me/tokens/', {}, { new_api_token: {} })).statusCode).toBe(401);
  });

  it('a token acts as its owner within its scopes: read reads, review writes the owner’s reviews, nothing else', async () => {
    const read = await tokenOf(reviewer, ['read']);
    const review = await tokenOf(reviewer, ['review']);
    const me = await call('GET', 'users/me/', bearer(read.token));
    expect(me.statusCode, me.body).toBe(200);
    expect(me.json()).toEqual((await call('GET', 'users/me/', reviewer.auth)).json());
    // Reading needs `read`.
    const noRead = await call('GET', 'users/me/', bearer(review.token));
    expect(noRead.statusCode).toBe(403);
    expect(noRead.json().message).toBe(tokenMessages.missingScope('read'));
    // Writing a review needs `review`.
    const body = { new_proposal_review: { proposal_id: proposals[0]!.id, ...reviewFields() } };
    const refused = await call('POST', 'proposal-reviews/', bearer(read.token), body);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(tokenMessages.missingScope('review'));
    const written = await call('POST', 'proposal-reviews/', bearer(review.token), body);
    expect(written.statusCode, written.body).toBe(201);
    // A token never manages tokens, the account or the session.
    for (const [method, url] of [
      ['GET', 'users/me/tokens/'],
      ['POST', 'users/password/update'],
      ['POST', 'users/token/logout'],
    ] as const) {
      const response = await call(method, url, bearer(read.token), {});
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().message).toBe(tokenMessages.notForTokens);
    }
    // Its last use is recorded.
    const listed = (await call('GET', 'users/me/tokens/', reviewer.auth)).json() as ApiTokenPublic[];
    expect(listed.find((token) => token.id === read.id)!.last_used_at).not.toBeNull();
  });

  it('admin-read opens exports and dashboards to an admin’s token, never admin writes', async () => {
    const token = await tokenOf(admin, ['admin-read']);
    const dashboard = await call('GET', `events/${event.id}/dashboard/`, bearer(token.token));
    expect(dashboard.statusCode, dashboard.body).toBe(200);
    const stats = await call('GET', `moderations/moderator-stats/?event_id=${event.id}`, bearer(token.token));
    expect([200, 422]).toContain(stats.statusCode); // past the token check: the scope is right
    const write = await call('POST', 'events/', bearer(token.token), { new_event: { name: 'x', description: 'y' } });
    expect(write.statusCode).toBe(403);
    expect(write.json().message).toBe(tokenMessages.notForTokens);
    const readOnly = await tokenOf(admin, ['read']);
    const noAdminRead = await call('GET', `events/${event.id}/dashboard/`, bearer(readOnly.token));
    expect(noAdminRead.statusCode).toBe(403);
    expect(noAdminRead.json().message).toBe(tokenMessages.missingScope('admin-read'));
  });

  it('an expired, a revoked, an unknown token and a banned owner’s token answer 401', async () => {
    const user = await ctx.newUser();
    const expired = await tokenOf(user, ['read']);
    await ctx.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, expired.id));
    const expiredAnswer = await call('GET', 'users/me/', bearer(expired.token));
    expect(expiredAnswer.statusCode).toBe(401);
    expect(expiredAnswer.json().message).toBe(tokenMessages.invalid);

    const revoked = await tokenOf(user, ['read']);
    expect((await call('GET', 'users/me/', bearer(revoked.token))).statusCode).toBe(200);
    const other = await ctx.newUser();
    expect((await call('DELETE', `users/me/tokens/${revoked.id}/`, other.auth)).statusCode).toBe(404);
    const revokedAnswer = await call('DELETE', `users/me/tokens/${revoked.id}/`, user.auth);
    expect(revokedAnswer.statusCode).toBe(200);
    expect(revokedAnswer.json().revoked_at).not.toBeNull();
    expect((await call('GET', 'users/me/', bearer(revoked.token))).statusCode).toBe(401);
    const revokes = await ctx.db.select().from(auditLog).where(eq(auditLog.action, 'tokens.revoke'));
    expect(revokes.map((entry) => entry.entityId)).toContain(String(revoked.id));

    expect((await call('GET', 'users/me/', bearer(`${TOKEN_PREFIX}${'A'.repeat(43)}`))).statusCode).toBe(401);

    const banned = await tokenOf(user, ['read']);
    await ctx.setStatus(user.id, AccountStatus.banned);
    expect((await call('GET', 'users/me/', bearer(banned.token))).statusCode).toBe(401);
  });

  it('limits the requests of one token per minute (429 with Retry-After), not those of another', async () => {
    const user = await ctx.newUser();
    const busy = await tokenOf(user, ['read']);
    const calm = await tokenOf(user, ['read']);
    let refused;
    for (let i = 0; i < 31; i += 1) refused = await call('GET', 'events/', bearer(busy.token));
    expect(refused!.statusCode).toBe(429);
    expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(0);
    expect((await call('GET', 'events/', bearer(calm.token))).statusCode).toBe(200);
  });

  it('the OpenAPI document describes the token scheme and the scope each operation needs', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: `${API}/docs/json` })).json();
    expect(doc.components.securitySchemes.apiToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/api/reviews/proposal-reviews/'].post['x-api-token-scope']).toBe('review');
    expect(doc.paths['/api/reviews/users/me/tokens/'].post['x-api-token-scope']).toBe('none');
    expect(doc.paths['/api/reviews/users/me/'].get['x-api-token-scope']).toBe('read');
  });
});

describe.each(databaseKinds)('API tokens × every route on %s', (kind) => {
  const ctx = useTestApp(kind);
  const tokenOf = async (user: TestUser, scopes: string[]) => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: `${API}/users/me/tokens/`,
      headers: user.auth,
      payload: { new_api_token: { name: 'matrix', scopes, expires_in_days: 1 } },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as CreatedApiToken;
  };

  it('every route states a scope: a token without it is refused before anything else (the matrix for tokens)', async () => {
    const user = await ctx.newUser();
    const byScope = {
      read: await tokenOf(user, ['review', 'moderate']),
      review: await tokenOf(user, ['read', 'moderate']),
      moderate: await tokenOf(user, ['read', 'review']),
      'admin-read': await tokenOf(user, ['read', 'review', 'moderate']),
      none: await tokenOf(user, ['read', 'review', 'moderate']),
    };
    const table = ctx.app.routeTable.filter((route) => route.url.startsWith(API) && !route.url.startsWith(`${API}/docs`));
    expect(table.length).toBeGreaterThan(80);
    for (const route of table) {
      const token = byScope[route.scope];
      const url = route.url.replace(/:(\w+)/g, '1');
      const response = await ctx.app.inject({ method: route.method as 'GET', url, headers: bearer(token.token), payload: {} });
      const expected = route.scope === 'none' ? tokenMessages.notForTokens : tokenMessages.missingScope(route.scope);
      expect([response.statusCode, response.json().message], `${route.method} ${route.url}`).toEqual([403, expected]);
    }
  });
});
