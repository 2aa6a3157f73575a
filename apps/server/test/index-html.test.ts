import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from './build-test-app';

/**
 * index.html is the build's file, the same for every app path (issue 46 item 5): the server knows nothing of the web
 * app's pages, storage or reads, and no inline script runs (the CSP's script-src is the origin alone).
 */
const INDEX = [
  '<!doctype html>',
  '<html lang="en-US">',
  '  <head>',
  '    <title>Community Review</title>',
  '    <script defer src="/env.js"></script>',
  '    <script type="module" crossorigin src="/assets/index-1234.js"></script>',
  '  </head>',
  `  <body><div id="root"></div>${' '.repeat(1200)}</body>`,
  '</html>',
  '',
].join('\n');

let webDist: string;
beforeAll(() => {
  webDist = mkdtempSync(join(tmpdir(), 'cr-web-index-'));
  mkdirSync(join(webDist, 'assets'));
  mkdirSync(join(webDist, '.vite'));
  writeFileSync(join(webDist, 'index.html'), INDEX);
  writeFileSync(join(webDist, 'index.html.br'), brotliCompressSync(INDEX));
  writeFileSync(join(webDist, 'assets', 'index-1234.js'), 'export {};');
  writeFileSync(join(webDist, '.vite', 'manifest.json'), '{}');
});
afterAll(() => rmSync(webDist, { recursive: true, force: true }));

describe('index.html (issue 46 item 5)', () => {
  const ctx = useTestApp('pglite', () => ({ WEB_DIST: webDist }));

  it('answers every app path with the file as built, never cached without asking', async () => {
    for (const url of ['/', '/proposals', '/proposals/3', '/proposal/3', '/profile', '/admin/events?x=1']) {
      const response = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.body, url).toBe(INDEX);
    }
  });

  it('allows scripts from the origin only: no inline script, no hash', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/profile' });
    expect(response.headers['content-security-policy']).toContain("script-src 'self';");
    expect(response.body).not.toMatch(/<script>/);
  });

  it('sends the precompressed copy where the browser accepts it', async () => {
    const br = await ctx.app.inject({ method: 'GET', url: '/proposals', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(INDEX);
  });

  it("does not serve the build's own data", async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/.vite/manifest.json' })).statusCode).toBe(404);
  });
});
