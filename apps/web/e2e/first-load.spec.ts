import { expect, test, type Browser } from '@playwright/test';
import { demo, login } from './support';

/**
 * The first-load budget of issue 30 item 5: 170 KB of JavaScript as sent (brotli) for the pages a reviewer opens.
 * Each page opens in a new browser context (no cache, no service worker); what counts is every script of the app's
 * origin fetched until the page has its heading and the network is idle. `npm run bench web` reports the figures of
 * every page; this keeps every page a reviewer, a moderator and an admin opens first from growing past it unnoticed.
 */
const BUDGET_BYTES = 170 * 1024;
const pages: { path: string; who?: string }[] = [
  { path: '/' },
  { path: '/proposals' },
  { path: '/login' },
  { path: '/reviews' },
  { path: '/proposal/1' },
  { path: '/review/1' },
  { path: '/allocated-proposals', who: demo.reviewer },
  { path: '/allocated-reviews', who: demo.moderator },
  { path: '/profile', who: demo.reviewer },
  { path: '/admin', who: demo.admin },
];

async function scriptBytes(browser: Browser, path: string, who?: string) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const sizes: Promise<number>[] = [];
  page.on('requestfinished', (request) => {
    const url = new URL(request.url());
    if (request.resourceType() === 'script' && url.pathname.startsWith('/assets/')) {
      sizes.push(request.sizes().then((size) => size.responseBodySize));
    }
  });
  if (who) await login(page, who, { to: path });
  else await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  const total = (await Promise.all(sizes)).reduce((sum, size) => sum + size, 0);
  await context.close();
  return total;
}

test.describe('first load (issue 30 item 5)', () => {
  for (const { path, who } of pages) {
    test(`${path}${who ? ' signed in' : ''} loads at most 170 KB of JavaScript compressed`, async ({ browser }) => {
      const bytes = await scriptBytes(browser, path, who);
      expect(bytes, `${path}: ${(bytes / 1024).toFixed(1)} KB`).toBeGreaterThan(50 * 1024); // the scripts were counted
      expect(bytes, `${path}: ${(bytes / 1024).toFixed(1)} KB`).toBeLessThanOrEqual(BUDGET_BYTES);
    });
  }
});

/**
 * The early reads (issue 30 item 5; apps/server/src/plugins/early-fetch.ts): index.html asks for a page's first API reads
 * while the code downloads; the app takes each of them instead of asking again. On every page: each read is asked
 * once, and the app took all of them (none left unused: an unused one would be a request for nothing).
 */
test.describe('early reads (issue 30 item 5)', () => {
  for (const { path, who } of pages) {
    test(`${path}${who ? ' signed in' : ''}: the app takes every read index.html started, and asks none twice`, async ({ browser }) => {
      const context = await browser.newContext({ serviceWorkers: 'block' });
      const page = await context.newPage();
      const asked = new Map<string, number>();
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (request.method() === 'GET' && url.pathname.startsWith('/api/reviews/') && !url.pathname.endsWith('/token/refresh')) {
          asked.set(url.pathname + url.search, (asked.get(url.pathname + url.search) ?? 0) + 1);
        }
      });
      if (who) await login(page, who, { to: path });
      else await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      // Started before the app's code: the status messages and the current rounds at least.
      expect(asked.get('/api/reviews/configs/status/'), path).toBe(1);
      expect(asked.get('/api/reviews/events/current/'), path).toBe(1);
      await expect
        .poll(() => page.evaluate(() => Object.keys((window as { __crEarly?: object }).__crEarly ?? { missing: true })), {
          message: `${path}: early reads the app did not take`,
        })
        .toEqual([]);
      const twice = [...asked].filter(([, count]) => count > 1).map(([url]) => url);
      // The signed-in login helper reads the profile through the page's request context, not the page.
      expect(twice, path).toEqual([]);
      await context.close();
    });
  }
});
