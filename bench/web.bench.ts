/**
 * The web app's first load (issue 16): builds the app, serves it with the real server on an embedded database with
 * the demo data, opens each route in a fresh Chromium context (Debian's /usr/bin/chromium, or CHROMIUM_PATH) and
 * adds up the JS and CSS it loaded: raw, gzip and brotli bytes (the build's .gz/.br copies). Then, when the
 * `lighthouse` package is installed, Lighthouse's performance, accessibility and layout shift for desktop and mobile.
 * Writes bench/results/web.json. Targets (issue 30 item 5): every page ≤ 170 KB of JS compressed; Lighthouse mobile
 * ≥ 95 on /proposals and ≥ 90 elsewhere, desktop ≥ 95, accessibility 100, CLS ≤ 0.02. Signed-in pages (`route@who`)
 * are measured signed in, by Lighthouse too.
 *
 * BENCH_SKIP_BUILD=1 reuses apps/web/dist (BENCH_WEB_DIST: another build, e.g. an older commit's); BENCH_ROUTES=/proposals,/reviews picks the routes;
 * BENCH_LIGHTHOUSE_ROUTES those Lighthouse opens (default: the same); BENCH_LIGHTHOUSE=0 skips it;
 * BENCH_LIGHTHOUSE_JSON=<dir> writes each full Lighthouse report there; BENCH_LIST_FILES=1 lists each page's scripts.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { chromium } from '@playwright/test';
import { buildApp } from '../apps/server/src/app';
import { testConfig } from '../apps/server/src/config';
import { openPglite } from '../apps/server/src/db/client';
import { seedDemo } from '../apps/server/src/demo';
import { round } from './lib/database';

const root = fileURLToPath(new URL('..', import.meta.url));
const here = fileURLToPath(new URL('.', import.meta.url));
const webDist = process.env.BENCH_WEB_DIST ?? join(root, 'apps/web/dist');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Every page a reviewer opens (issue 30 item 5); `route@who` opens it signed in as that demo account. */
const routes = (
  process.env.BENCH_ROUTES ??
  '/,/proposals,/reviews,/proposal/1,/review/1,/allocated-proposals@reviewer,/allocated-reviews@moderator,/profile@reviewer,/login,/admin@admin'
).split(',');

if (!process.env.BENCH_WEB_DIST && (process.env.BENCH_SKIP_BUILD !== '1' || !existsSync(join(webDist, 'index.html')))) {
  console.error('building the web app…');
  execFileSync('npm', ['run', 'build', '-w', '@cr/web'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** Bytes of one built file as sent: raw, and its precompressed copies (made here for files too small to have them). */
function sizes(file: string) {
  const raw = readFileSync(file);
  const sized = (suffix: string, make: (content: Buffer) => Buffer) =>
    existsSync(file + suffix) ? statSync(file + suffix).size : make(raw).length;
  return { raw: raw.length, gzip: sized('.gz', (c) => gzipSync(c, { level: 9 })), brotli: sized('.br', (c) => brotliCompressSync(c)) };
}

console.error('starting the server…');
const database = await openPglite();
await database.migrate();
await seedDemo(database.db);
const config = testConfig({ LOG_LEVEL: 'silent', WEB_DIST: webDist });
const app = await buildApp({ config, db: database.db, jwtSecret: config.JWT_SECRET!, logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

/** The session the app keeps (its persisted keys) for a demo account signed in through the API. */
async function sessionFor(request: import('@playwright/test').APIRequestContext, catalystId: string): Promise<string> {
  const login = await request.post(`${origin}/api/reviews/users/token/login`, {
    form: { username: catalystId, password: 'Demo-pass1' },
  });
  const token = (await login.json()) as { access_token: string };
  const me = await (
    await request.get(`${origin}/api/reviews/users/me/`, { headers: { authorization: `Bearer ${token.access_token}` } })
  ).json();
  const claims = JSON.parse(Buffer.from(token.access_token.split('.')[1]!, 'base64url').toString()) as { exp: number };
  const state = {
    localUser: { catalyst_id: catalystId },
    logged: true,
    fetching: false,
    userInfo: me,
    auth: { ...token, expires_at: claims.exp * 1000 },
    refreshTokenTimeout: null,
  };
  return JSON.stringify({ state, version: 0 });
}

/** Signs a demo account in before the page's first script runs. */
async function signIn(page: import('@playwright/test').Page, catalystId: string) {
  const value = JSON.stringify(await sessionFor(page.request, catalystId));
  await page.addInitScript({ content: `localStorage.setItem('session', ${value});` });
}

type Totals = { files: number; raw: number; gzip: number; brotli: number };
const empty = (): Totals => ({ files: 0, raw: 0, gzip: 0, brotli: 0 });
const firstLoad: Record<string, { js: Totals; css: Totals; jsFiles: string[] }> = {};
const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
try {
  for (const entry of routes) {
    const [route, who] = entry.split('@') as [string, string | undefined];
    const context = await browser.newContext();
    const page = await context.newPage();
    if (who) await signIn(page, `cardano/demo-${who}`);
    const loaded = new Set<string>();
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.origin === origin && /\.(js|css)$/.test(url.pathname) && url.pathname !== '/env.js') loaded.add(url.pathname);
    });
    // The page's heading shows once its lazy route module ran; on a busy machine the network can be idle before that.
    await page.goto(origin + route, { waitUntil: 'load' });
    await page
      .locator('h1')
      .first()
      .waitFor({ timeout: 60_000 })
      .catch(() => console.error(`${route}: no heading within 60 s`));
    await page.waitForLoadState('networkidle');
    const js = empty();
    const css = empty();
    for (const path of loaded) {
      const total = path.endsWith('.css') ? css : js;
      const size = sizes(join(webDist, path));
      total.files += 1;
      total.raw += size.raw;
      total.gzip += size.gzip;
      total.brotli += size.brotli;
    }
    firstLoad[route] = { js, css, jsFiles: [...loaded].filter((path) => path.endsWith('.js')).sort() };
    if (process.env.BENCH_LIST_FILES) console.error(route, firstLoad[route].jsFiles.join(' '));
    if (!page.url().endsWith(route)) console.error(`${route}: ended at ${page.url()}`);
    await context.close();
  }
} finally {
  await browser.close();
}

const kb = (bytes: number) => round(bytes / 1024, 1);
console.log('\nFirst load per route (KB; gzip and brotli are the bytes sent compressed)\n');
console.log('| route | JS files | JS raw | JS gzip | JS brotli | CSS raw | CSS gzip | CSS brotli |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const [route, { js, css }] of Object.entries(firstLoad)) {
  console.log(
    `| ${route} | ${js.files} | ${kb(js.raw)} | ${kb(js.gzip)} | ${kb(js.brotli)} | ${kb(css.raw)} | ${kb(css.gzip)} | ${kb(css.brotli)} |`,
  );
}

// Lighthouse, when installed (a dev dependency): desktop and mobile, each route once, in Debian's Chromium.
const lighthouseResults: Record<string, Record<string, number | null>> = {};
if (process.env.BENCH_LIGHTHOUSE !== '0') {
  const lighthouse = await import('lighthouse').catch(() => undefined);
  const launcher = await import('chrome-launcher').catch(() => undefined);
  if (!lighthouse || !launcher) {
    console.log('\n(lighthouse not installed: `npm install` brings it; skipped)');
  } else {
    const desktop = (await import('lighthouse/core/config/desktop-config.js')).default;
    const chrome = await launcher.launch({ chromePath: chromiumPath, chromeFlags: ['--headless=new', '--no-sandbox'] });
    // A signed-in page (`route@who`) needs the session in the origin's storage, which Lighthouse's own reset would
    // clear: this connection does the reset instead (the origin's storage, service workers and the HTTP cache, as
    // Lighthouse does), then writes the session for a signed-in page.
    const driver = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
    const setup = await driver.contexts()[0]!.newPage();
    await setup.goto(`${origin}/env.js`);
    const cdp = await setup.context().newCDPSession(setup);
    const prepare = async (who: string | undefined) => {
      await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
      await cdp.send('Network.clearBrowserCache');
      if (who) {
        const value = await sessionFor(setup.request, `cardano/demo-${who}`);
        await setup.evaluate(
          (session) =>
            (globalThis as unknown as { localStorage: { setItem(key: string, value: string): void } }).localStorage.setItem(
              'session',
              session,
            ),
          value,
        );
      }
    };
    try {
      for (const entry of (process.env.BENCH_LIGHTHOUSE_ROUTES ?? routes.join(',')).split(',')) {
        const [route, who] = entry.split('@') as [string, string | undefined];
        for (const formFactor of ['desktop', 'mobile'] as const) {
          // Lighthouse now and then fails to record its own trace (NO_NAVSTART, "run Lighthouse again"): once more then.
          let lhr: import('lighthouse').RunnerResult['lhr'];
          for (let attempt = 1; ; attempt += 1) {
            await prepare(who);
            const result = await lighthouse.default(
              origin + route,
              {
                port: chrome.port,
                output: 'json',
                logLevel: 'error',
                onlyCategories: ['performance', 'accessibility'],
                disableStorageReset: true,
              },
              formFactor === 'desktop' ? desktop : undefined,
            );
            lhr = result!.lhr;
            if (!lhr.runtimeError || attempt === 3) break;
            console.error(`${entry} ${formFactor}: ${lhr.runtimeError.code}, measured again`);
          }
          // BENCH_LIGHTHOUSE_JSON=<dir> keeps each full report (critical chains, LCP breakdown, network requests).
          if (process.env.BENCH_LIGHTHOUSE_JSON) {
            const name = `${entry.replace(/\W+/g, '_')}-${formFactor}-${Date.now()}.json`;
            mkdirSync(process.env.BENCH_LIGHTHOUSE_JSON, { recursive: true });
            writeFileSync(join(process.env.BENCH_LIGHTHOUSE_JSON, name), JSON.stringify(lhr));
          }
          const score = (id: string) => (lhr.categories[id]?.score == null ? null : round(lhr.categories[id]!.score! * 100, 0));
          const audit = (id: string) => lhr.audits[id]?.numericValue ?? null;
          lighthouseResults[`${entry} ${formFactor}`] = {
            performance: score('performance'),
            accessibility: score('accessibility'),
            fcpMs: round(audit('first-contentful-paint') ?? 0, 0),
            lcpMs: round(audit('largest-contentful-paint') ?? 0, 0),
            tbtMs: round(audit('total-blocking-time') ?? 0, 0),
            cls: round(audit('cumulative-layout-shift') ?? 0, 3),
          };
        }
      }
    } finally {
      await driver.close().catch(() => undefined);
      chrome.kill();
    }
    console.log('\nLighthouse\n');
    console.log('| route, form factor | performance | accessibility | FCP ms | LCP ms | TBT ms | CLS |');
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const [name, r] of Object.entries(lighthouseResults)) {
      console.log(`| ${name} | ${r.performance} | ${r.accessibility} | ${r.fcpMs} | ${r.lcpMs} | ${r.tbtMs} | ${r.cls} |`);
    }
  }
}

mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'web.json'), JSON.stringify({ firstLoad, lighthouse: lighthouseResults }, null, 2));
await app.close();
await database.close();
