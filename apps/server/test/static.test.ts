import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { testConfig } from '../src/config';
import { openPglite, type Database } from '../src/db/client';

describe('serving the built web app', () => {
  let app: FastifyInstance;
  let database: Database;
  let webDist: string;

  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), 'cr-web-'));
    mkdirSync(join(webDist, 'assets'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Community Review</title>');
    writeFileSync(join(webDist, 'assets', 'app-1234.js'), 'console.log(1);');
    database = await openPglite();
    await database.migrate();
    const config = testConfig({ WEB_DIST: webDist, BUILD_REVISION: 'abc1234' });
    app = await buildApp({ config, db: database.db, jwtSecret: config.JWT_SECRET!, logger: false });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await database?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('serves index.html for / and for any app path (SPA fallback) (A-003)', async () => {
    for (const url of ['/', '/profile', '/admin/users/cardano%2Fabc', '/no-such-page']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<title>Community Review</title>');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves hashed assets with a long cache lifetime', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/app-1234.js' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('console.log(1);');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers 404 for a missing file and for an unknown API path', async () => {
    expect((await app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(404);
    const api = await app.inject({ method: 'GET', url: '/api/reviews/unknown' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ message: 'Not found.' });
  });

  it('serves /env.js with the configured build revision (A-007)', async () => {
    const response = await app.inject({ method: 'GET', url: '/env.js' });
    expect(response.headers['content-type']).toContain('javascript');
    expect(response.body).toBe('window.__ENV__ = {"API_BASE":"/api/reviews","BUILD_REVISION":"abc1234"};\n');
  });
});
