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
