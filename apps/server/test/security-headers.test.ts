import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERMISSIONS_POLICY } from '../src/plugins/security-headers';
import { API, useTestApp } from './build-test-app';

/** Issue 13 item 13: HSTS only over https, a Permissions-Policy, no-store for personal answers, no source maps. */
let webDist: string;
beforeAll(() => {
  webDist = mkdtempSync(join(tmpdir(), 'cr-web-headers-'));
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Community Review</title>');
  writeFileSync(join(webDist, 'assets', 'app-1234.js'), 'console.log(1);');
  writeFileSync(join(webDist, 'assets', 'app-1234.js.map'), '{"version":3,"sources":["secret.ts"]}');
});
afterAll(() => rmSync(webDist, { recursive: true, force: true }));

describe('security headers on plain http', () => {
  const ctx = useTestApp('pglite', () => ({ WEB_DIST: webDist, PUBLIC_URL: 'http://127.0.0.1:3000' }));

  it('sends no HSTS, but a Permissions-Policy and a CSP whose images stay on this origin', async () => {
    for (const url of ['/', '/profile', `${API}/events/`, `${API}/healthz`]) {
      const response = await ctx.app.inject({ method: 'GET', url });
      expect(response.headers['strict-transport-security'], url).toBeUndefined();
      expect(response.headers['permissions-policy'], url).toBe(PERMISSIONS_POLICY);
      expect(response.headers['content-security-policy'], url).toContain("img-src 'self' data:;");
    }
  });

  it("sends helmet's headers on every answer, errors and not-founds too (computed once, not per request)", async () => {
    const answers = [
      await ctx.app.inject({ method: 'GET', url: `${API}/healthz` }),
      await ctx.app.inject({ method: 'GET', url: `${API}/no-such-route` }),
      await ctx.app.inject({ method: 'GET', url: `${API}/users/me/` }),
      await ctx.app.inject({ method: 'POST', url: `${API}/users/token/login`, payload: 'not a form' }),
    ];
    expect(answers.map((response) => response.statusCode)).toEqual([200, 404, 401, 415]);
    for (const response of answers) {
      expect(response.headers).toMatchObject({
        'content-security-policy': expect.stringContaining("default-src 'self';"),
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'permissions-policy': PERMISSIONS_POLICY,
      });
      expect(response.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    }
  });

  it('never serves a source map', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/assets/app-1234.js' })).statusCode).toBe(200);
    const map = await ctx.app.inject({ method: 'GET', url: '/assets/app-1234.js.map' });
    expect(map.statusCode).toBe(404);
    expect(map.body).not.toContain('secret.ts');
  });

  it('marks every answer to a signed-in caller, to a cookie and to a write no-store', async () => {
    const user = await ctx.newUser();
    const personal = [
      await ctx.app.inject({ method: 'GET', url: `${API}/users/me/`, headers: user.auth }),
      await ctx.app.inject({ method: 'GET', url: `${API}/events/`, headers: user.auth }),
      await ctx.app.inject({ method: 'GET', url: `${API}/admin/users`, headers: user.auth }),
      await ctx.app.inject({ method: 'GET', url: `${API}/users/me/`, headers: { authorization: 'Bearer not-a-token' } }),
      await ctx.login(user.catalystId, user.password),
      await ctx.refresh(user.refreshToken),
    ];
    expect(personal.map((response) => response.statusCode)).toEqual([200, 200, 403, 401, 200, 200]);
    expect(personal.map((response) => response.headers['cache-control'])).toEqual(personal.map(() => 'no-store'));
    // An anonymous read of public data may be cached as the browser likes.
    expect((await ctx.app.inject({ method: 'GET', url: `${API}/events/` })).headers['cache-control']).toBeUndefined();
  });
});

describe('security headers over https', () => {
  const ctx = useTestApp('pglite', () => ({ WEB_DIST: webDist, PUBLIC_URL: 'https://review.example.org' }));

  it('sends HSTS when PUBLIC_URL is https', async () => {
    for (const url of ['/', `${API}/healthz`]) {
      const response = await ctx.app.inject({ method: 'GET', url });
      expect(response.headers['strict-transport-security'], url).toMatch(/^max-age=\d+; includeSubDomains$/);
    }
  });
});

describe('security headers behind a TLS-terminating proxy', () => {
  const ctx = useTestApp('pglite', () => ({ WEB_DIST: webDist, PUBLIC_URL: 'http://review.internal', TRUST_PROXY: 'true' }));

  it('sends HSTS on an https request only', async () => {
    const https = await ctx.app.inject({ method: 'GET', url: `${API}/healthz`, headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers['strict-transport-security']).toBeDefined();
    const http = await ctx.app.inject({ method: 'GET', url: `${API}/healthz`, headers: { 'x-forwarded-proto': 'http' } });
    expect(http.headers['strict-transport-security']).toBeUndefined();
  });
});
