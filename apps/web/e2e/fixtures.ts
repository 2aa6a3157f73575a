import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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
/** Full page loads (a document's `load` event) in this worker's profile, for the CPU log below: which tests load the
 * app more than once. Pages of contexts a test opens itself are not counted. */
let pageLoads = 0;
const countLoads = (page: Page) =>
  page.on('load', () => {
    pageLoads += 1;
  });
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
      if (process.env.E2E_CPU_LOG) context.on('page', countLoads);
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

/** This worker's processes: Chromium's, by pid, with their kind (browser, renderer, gpu-process, utility…) and CPU seconds. */
function chromiumProcesses(): Map<number, { kind: string; seconds: number }> {
  const ticks = 100; // USER_HZ on Linux
  const parentOf = new Map<number, number>();
  const found = new Map<number, { kind: string; seconds: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(entry);
      parentOf.set(pid, Number(fields[1]));
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const kind = /--type=([a-z-]+)/.exec(command)?.[1] ?? 'browser';
      found.set(pid, { kind, seconds: (Number(fields[11]) + Number(fields[12])) / ticks });
    } catch {
      // The process ended while it was read.
    }
  }
  const isOurs = (pid: number): boolean => {
    for (let at = parentOf.get(pid), hops = 0; at !== undefined && at > 1 && hops < 64; at = parentOf.get(at), hops += 1)
      if (at === process.pid) return true;
    return false;
  };
  for (const pid of found.keys()) if (!isOurs(pid)) found.delete(pid);
  return found;
}

/**
 * `E2E_CPU_LOG=file` appends a line of JSON for each test: its full page loads, file, title, time and the CPU seconds
 * it took in this worker (`runner`) and in each kind of Chromium process (issue 45 item 16: where the browser tests'
 * CPU goes, test by test). Linux only (/proc). A process that ended during the test is not counted.
 */
const cpuLog = process.env.E2E_CPU_LOG;
const withCpuLog = <T extends typeof base>(tests: T) =>
  cpuLog
    ? tests.extend<{ cpuPerTest: void }>({
        cpuPerTest: [
          // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
          async ({}, provide, testInfo) => {
            const before = chromiumProcesses();
            const runnerBefore = process.cpuUsage();
            const started = Date.now();
            const loadsBefore = pageLoads;
            await provide();
            const runner = process.cpuUsage(runnerBefore);
            const cpu: Record<string, number> = { runner: (runner.user + runner.system) / 1e6 };
            for (const [pid, { kind, seconds }] of chromiumProcesses())
              cpu[kind] = (cpu[kind] ?? 0) + seconds - (before.get(pid)?.seconds ?? 0);
            for (const kind of Object.keys(cpu)) cpu[kind] = +cpu[kind]!.toFixed(2);
            const line = {
              loads: pageLoads - loadsBefore,
              file: testInfo.file.split('/').pop(),
              title: testInfo.title,
              seconds: (Date.now() - started) / 1000,
              cpu,
            };
            appendFileSync(cpuLog, `${JSON.stringify(line)}\n`);
          },
          { auto: true },
        ],
      })
    : tests;

/** `E2E_FRESH_CONTEXTS=1` gives every test Playwright's own fresh context again (to compare, or to rule the profile out). */
export const test = withCpuLog(process.env.E2E_FRESH_CONTEXTS === '1' ? base : sharedProfile);

export { expect } from '@playwright/test';
export type { APIRequestContext, Browser, BrowserContext, ConsoleMessage, Download, Locator, Page, Request, Route } from '@playwright/test';
