import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test as base, type BrowserContext, type Page } from '@playwright/test';

/*
 * One browser profile per worker, a new tab per test (CI time, issue 26 item 18).
 *
 * Playwright's default gives every test a new incognito context. Chromium keeps no code cache for those, so each test
 * compiled the whole app again: a page cost about 2.1 CPU-seconds on this 2-core machine, against 1.1 in a profile
 * that keeps its disk cache (measured: 10 loads of /proposals each way). Here each worker launches Chromium once with
 * a throw-away profile (`launchPersistentContext`); each test gets a new tab in it, after everything a test can
 * leave behind is reset: other tabs closed, cookies, permissions, local storage, IndexedDB, cache storage and service
 * workers of the app's origin cleared, routes and offline mode undone. Only the HTTP cache (and the code cache in it)
 * survives, which is what the app would find on a returning visit. A tab's sessionStorage, init scripts, routes and
 * listeners die with it.
 *
 * A tab of the app's origin stays open all along (the keeper, on the health check's JSON): with `--process-per-site`
 * every test's tab joins its renderer process instead of starting a new one, whose start-up and cold script compiler
 * cost about 0.9 CPU-seconds a test (a load of /proposals in a new tab: 1.6 CPU-s without the keeper, 0.7 with it;
 * /reviews 2.0 and 1.1; measured five loads each way). It is a separate document: it shares no script state with the
 * tests' tabs.
 *
 * Tests that need a second user side by side still open their own context with `browser.newContext()`.
 */
const KEEPER_PATH = '/api/reviews/healthz';
const isKeeper = (page: Page) => new URL(page.url(), 'http://x').pathname === KEEPER_PATH;

const sharedProfile = base.extend<object, { workerContext: BrowserContext }>({
  workerContext: [
    async ({ playwright }, provide, workerInfo) => {
      const options = workerInfo.project.use;
      const dir = mkdtempSync(join(tmpdir(), 'cr-e2e-profile-'));
      const context = await playwright.chromium.launchPersistentContext(dir, {
        ...options.launchOptions,
        ...options.contextOptions,
        baseURL: options.baseURL,
        viewport: options.viewport ?? { width: 1280, height: 720 },
        // The app's service worker (issue 29) would answer API calls itself, out of reach of `page.route`: the tests
        // that are about it open a context of their own with service workers allowed.
        serviceWorkers: 'block',
      });
      await provide(context);
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
    { scope: 'worker' },
  ],

  context: async ({ workerContext, baseURL }, provide) => {
    let keeper: Page | undefined;
    for (const page of workerContext.pages()) {
      if (!keeper && isKeeper(page)) keeper = page;
      else await page.close();
    }
    await workerContext.unrouteAll({ behavior: 'ignoreErrors' });
    await workerContext.setOffline(false);
    await workerContext.clearCookies();
    await workerContext.clearPermissions();
    if (!keeper) {
      keeper = await workerContext.newPage();
      await keeper.goto(new URL(KEEPER_PATH, baseURL).toString());
    }
    const cdp = await workerContext.newCDPSession(keeper);
    await cdp.send('Storage.clearDataForOrigin', {
      origin: new URL(baseURL!).origin,
      storageTypes: 'local_storage,indexeddb,cache_storage,service_workers,websql,file_systems,shader_cache',
    });
    await cdp.detach();
    await provide(workerContext);
  },

  page: async ({ context, viewport }, provide, testInfo) => {
    const page = await context.newPage();
    if (viewport) await page.setViewportSize(viewport);
    await provide(page);
    // A failed test's screenshot and page snapshot are of its own tab (Playwright's would take the keeper's).
    if (testInfo.status !== testInfo.expectedStatus && !page.isClosed()) {
      await testInfo.attach('screenshot', { body: await page.screenshot().catch(() => Buffer.from('')), contentType: 'image/png' });
      const snapshot = await page.ariaSnapshot({ mode: 'ai', timeout: 5_000 }).catch(() => '');
      if (snapshot) await testInfo.attach('page snapshot', { body: snapshot, contentType: 'text/plain' });
    }
    await page.close();
  },
});

/** `E2E_FRESH_CONTEXTS=1` gives every test Playwright's own fresh context again (to compare, or to rule the profile out). */
export const test = process.env.E2E_FRESH_CONTEXTS === '1' ? base : sharedProfile;

export { expect } from '@playwright/test';
export type { APIRequestContext, Browser, BrowserContext, ConsoleMessage, Download, Locator, Page, Request, Route } from '@playwright/test';
