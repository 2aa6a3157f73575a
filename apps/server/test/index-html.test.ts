import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { earlyFetchScript, scriptHashSource } from '../src/plugins/early-fetch';
import { acceptedEncoding } from '../src/plugins/index-html';
import { useTestApp } from './build-test-app';

/** Issue 16 (mobile first paint): index.html names the current page's code, read from the build's page list. */
const INDEX = [
  '<!doctype html>',
  '<html lang="en-US">',
  '  <head>',
  '    <title>Community Review</title>',
  '    <script src="/env.js"></script>',
  '    <script type="module" crossorigin src="/assets/index-1234.js"></script>',
  '  </head>',
  '  <body><div id="root"></div></body>',
  '</html>',
  '',
].join('\n');

const PAGES = [
  { path: '^/proposals(/[^/]*)?/?$', files: ['/assets/proposals-page-abcd.js', '/assets/gone-0000.js', '/elsewhere/x.js'] },
  { path: '^/$', files: ['/assets/home-efgh.js', '/assets/proposals-page-abcd.js'] },
];

let webDist: string;
beforeAll(() => {
  webDist = mkdtempSync(join(tmpdir(), 'cr-web-index-'));
  mkdirSync(join(webDist, 'assets'));
  mkdirSync(join(webDist, '.vite'));
  writeFileSync(join(webDist, 'index.html'), INDEX);
  for (const file of ['index-1234.js', 'proposals-page-abcd.js', 'home-efgh.js'])
    writeFileSync(join(webDist, 'assets', file), 'export {};');
  writeFileSync(join(webDist, '.vite', 'page-preloads.json'), JSON.stringify(PAGES));
});
afterAll(() => rmSync(webDist, { recursive: true, force: true }));

/** The early reads' inline script (plugins/early-fetch.ts), just before the title. */
const EARLY = earlyFetchScript('/api/reviews')!;
const withoutEarly = (html: string) => html.replace(`<script>${EARLY}</script>\n    `, '');

// Low priority: the entry script and the stylesheet come first (the first paint), the page after (issue 30 item 5).
const preloadsOf = (html: string) =>
  [...html.matchAll(/<link rel="modulepreload" crossorigin fetchpriority="low" href="([^"]+)">/g)].map((match) => match[1]);

describe('index.html with the page preloads', () => {
  const ctx = useTestApp('pglite', () => ({ WEB_DIST: webDist }));

  it("names the proposals page's existing files for every form of its path, and nothing else", async () => {
    for (const url of ['/proposals', '/proposals/', '/proposals/3', '/proposals?page=2&title=a']) {
      const response = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(preloadsOf(response.body), url).toEqual(['/assets/proposals-page-abcd.js']);
      // The rest of the document as built, the tags just before </head>.
      expect(response.body, url).toContain(`<script>${EARLY}</script>\n    <title>`);
      expect(
        withoutEarly(response.body)
          .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
          .replace(/\s+/g, ' '),
      ).toBe(INDEX.replace(/\s+/g, ' '));
    }
    const home = await ctx.app.inject({ method: 'GET', url: '/' });
    expect(preloadsOf(home.body)).toEqual(['/assets/home-efgh.js', '/assets/proposals-page-abcd.js']);
  });

  it('sends other app paths the file as built, with the early reads only', async () => {
    for (const url of ['/profile', '/proposal/3', '/proposalsx', '/reviews']) {
      const response = await ctx.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
      expect(response.statusCode, url).toBe(200);
      expect(response.body, url).toContain(`<script>${EARLY}</script>`);
      expect(withoutEarly(response.body), url).toBe(INDEX);
    }
  });

  it('keeps the CSP, the no-cache rule and the compression of index.html', async () => {
    const asBuilt = await ctx.app.inject({ method: 'GET', url: '/profile' });
    const csp = asBuilt.headers['content-security-policy'];
    // Scripts from this origin only, and the one inline script by its hash: no other inline script runs.
    expect(csp).toContain(`script-src 'self' ${scriptHashSource(EARLY)};`);
    expect(scriptHashSource(EARLY)).toBe(
      `'sha256-${createHash('sha256')
        .update(/<script>([\s\S]*?)<\/script>/.exec(asBuilt.body)![1]!)
        .digest('base64')}'`,
    );

    const br = await ctx.app.inject({ method: 'GET', url: '/proposals', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-security-policy']).toBe(csp);
    expect(br.headers['cache-control']).toBe('no-cache');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toContain('accept-encoding');
    const html = brotliDecompressSync(br.rawPayload).toString();
    expect(preloadsOf(html)).toEqual(['/assets/proposals-page-abcd.js']);

    const gzip = await ctx.app.inject({ method: 'GET', url: '/proposals', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(html);
  });

  it('answers 304 to a request that holds the current version', async () => {
    const first = await ctx.app.inject({ method: 'GET', url: '/proposals' });
    const etag = first.headers['etag'] as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await ctx.app.inject({ method: 'GET', url: '/proposals?page=1', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers['cache-control']).toBe('no-cache');
  });

  it("does not serve the build's page list", async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/.vite/page-preloads.json' })).statusCode).toBe(404);
  });

  it('follows a new build without a restart', async () => {
    writeFileSync(join(webDist, 'assets', 'proposals-page-new1.js'), 'export {};');
    writeFileSync(
      join(webDist, '.vite', 'page-preloads.json'),
      JSON.stringify([{ path: PAGES[0]!.path, files: ['/assets/proposals-page-new1.js'] }]),
    );
    writeFileSync(join(webDist, 'index.html'), INDEX.replace('index-1234.js', 'index-5678.js'));
    utimesSync(join(webDist, 'index.html'), new Date(), new Date(Date.now() + 60_000));
    const response = await ctx.app.inject({ method: 'GET', url: '/proposals' });
    expect(response.body).toContain('/assets/index-5678.js');
    expect(preloadsOf(response.body)).toEqual(['/assets/proposals-page-new1.js']);
    expect(preloadsOf((await ctx.app.inject({ method: 'GET', url: '/' })).body)).toEqual([]);
  });
});

describe('the accepted encoding', () => {
  it('prefers brotli, then gzip, and honours q=0', () => {
    expect(acceptedEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(acceptedEncoding('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(acceptedEncoding('identity')).toBeUndefined();
    expect(acceptedEncoding(undefined)).toBeUndefined();
  });
});
