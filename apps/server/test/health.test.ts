import { describe, expect, it } from 'vitest';
import { API, databaseKinds, useTestApp } from './build-test-app';

describe.each(databaseKinds)('system routes on %s', (kind) => {
  const ctx = useTestApp(kind);

  it('answers healthz when the server and its database are up', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: `${API}/healthz` });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('accepts the path with a trailing slash too', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: `${API}/healthz/` });
    expect(response.statusCode).toBe(200);
  });

  it('publishes the OpenAPI description at /api/reviews/docs', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: `${API}/docs/json` });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toContain(`${API}/users/token/login`);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: `${API}/nothing-here` });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Not found.' });
  });

  it('sends security headers', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: `${API}/healthz` });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
  });

  it('serves /env.js with the runtime configuration of the web app (A-001, A-002)', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/env.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('"API_BASE":"/api/reviews"');
  });
});
