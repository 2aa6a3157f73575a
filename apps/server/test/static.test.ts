import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { testConfig } from '../src/config';
import type { Database } from '../src/db/client';
import { migratedPglite } from './template-databases';

const BIG = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word-${i}`))};\n`;

describe('serving the built web app', () => {
  let app: FastifyInstance;
  let database: Database;
  let webDist: string;

  beforeAll(async () => {
    webDist = mkdtempSync(join(tmpdir(), 'cr-web-'));
    mkdirSync(join(webDist, 'assets'));
    writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Community Review</title>');
    writeFileSync(join(webDist, 'assets', 'app-1234.js'), 'console.log(1);');
    // As the build writes them (apps/web/vite.config.ts, issue 16): a brotli and a gzip copy beside each text file.
    writeFileSync(join(webDist, 'assets', 'big-abcd.js'), BIG);
    writeFileSync(join(webDist, 'assets', 'big-abcd.js.br'), brotliCompressSync(BIG));
    writeFileSync(join(webDist, 'assets', 'big-abcd.js.gz'), gzipSync(BIG));
    writeFileSync(join(webDist, 'index.html.br'), brotliCompressSync('<!doctype html><title>Community Review</title>'));
    database = await migratedPglite();
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

  it('sends a hashed asset brotli- or gzip-compressed where the browser accepts it, cached for good (issue 16)', async () => {
    const br = await app.inject({ method: 'GET', url: '/assets/big-abcd.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['vary']).toContain('accept-encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(BIG);

    const gzip = await app.inject({ method: 'GET', url: '/assets/big-abcd.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(BIG);

    const plain = await app.inject({ method: 'GET', url: '/assets/big-abcd.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['vary']).toContain('accept-encoding');
    expect(plain.body).toBe(BIG);
  });

  it('sends index.html compressed and never cached without revalidation, and env.js no-cache (issue 16)', async () => {
    for (const url of ['/', '/proposals']) {
      const response = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(brotliDecompressSync(response.rawPayload).toString()).toContain('<title>Community Review</title>');
    }
    expect((await app.inject({ method: 'GET', url: '/env.js' })).headers['cache-control']).toBe('no-cache');
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
