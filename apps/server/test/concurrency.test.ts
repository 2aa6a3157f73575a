import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { catalystIds, refreshTokens } from '../src/db/schema/index';
import { API, databaseKinds, useTestApp } from './build-test-app';
import { refreshCookieOf, uniqueName } from './fixtures';

describe.each(databaseKinds)('concurrent requests on %s', (kind) => {
  const ctx = useTestApp(kind);
  const register = (catalystId: string, email: string) => ctx.registerResponse({ catalyst_id: catalystId, email });

  it('registers one of two simultaneous registrations of one Catalyst ID and answers the other 409', async () => {
    const name = uniqueName('race');
    const responses = await Promise.all(Array.from({ length: 4 }, (_, i) => register(`cardano/${name}`, `${name}-${i}@example.test`)));
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
    for (const response of responses.filter((r) => r.statusCode === 409)) {
      expect(response.json()).toEqual({ message: 'This Catalyst ID is already registered.' });
    }
    const [rows] = await ctx.db
      .select({ n: count() })
      .from(catalystIds)
      .where(eq(catalystIds.catalystId, `cardano/${name}`));
    expect(rows!.n).toBe(1);
  });

  it('registers one of two simultaneous registrations with one e-mail address and answers the other 409', async () => {
    const name = uniqueName('race-mail');
    const responses = await Promise.all(Array.from({ length: 4 }, (_, i) => register(`cardano/${name}-${i}`, `${name}@example.test`)));
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
    for (const response of responses.filter((r) => r.statusCode === 409)) {
      expect(response.json()).toEqual({ message: 'This e-mail address is already registered.' });
    }
  });

  // Issue 13 item 6: the grace window answers both with the one successor instead of ending the session.
  it('rotates a refresh token once when two refreshes race with it, and answers both with the same successor', async () => {
    const user = await ctx.newUser();
    const responses = await Promise.all([ctx.refresh(user.refreshToken), ctx.refresh(user.refreshToken)]);
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(refreshCookieOf(responses[0]!)).toBe(refreshCookieOf(responses[1]!));
    const rows = await ctx.db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id));
    expect(rows).toHaveLength(2);
    expect(rows.filter((row) => row.rotatedAt !== null)).toHaveLength(1);
    expect(rows.every((row) => row.revokedAt === null)).toBe(true);
  });

  it('uses an activation token once when two activations race with it', async () => {
    const user = await ctx.register();
    const token = await ctx.tokenFromMail(user.email);
    const activate = () =>
      ctx.app.inject({ method: 'POST', url: `${API}/users/activate`, payload: { user_activation: { confirmation_token: token } } });
    const responses = await Promise.all([activate(), activate()]);
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 400]);
  });
});
