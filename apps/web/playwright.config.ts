import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

/** Browser tests run Debian's Chromium (never a downloaded browser) against the real server on a throw-away database:
 * its headless build (package `chromium-headless-shell`, as Playwright runs by default) when installed, a fifth less
 * CPU than the whole browser in headless mode (docs/decisions.md, issue 45 item 16); else the browser. */
const chromium =
  process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');
const port = Number(process.env.E2E_PORT ?? 3100);
/** The SMTP sink the test server sends its mail to (e2e/smtp-sink.ts). */
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? port + 10_000);
export const dataDir = process.env.E2E_DATA_DIR ?? join(tmpdir(), 'cr-e2e-data');
export const baseURL = `http://127.0.0.1:${port}`;
/** Lets the tests read the outbox (MAIL_OUTBOX_API) without an admin session; a test server's value, not a secret. */
export const outboxToken = 'e2e-outbox-token-for-tests-only';
/** `E2E_FRESH_CONTEXTS=1`: Playwright's own fresh context per test instead of the shared profile (e2e/fixtures.ts). */
const freshContexts = process.env.E2E_FRESH_CONTEXTS === '1';
// Playwright's error context snapshots the first tab of the context, which with the shared profile is the keeper.
if (!freshContexts) process.env.PLAYWRIGHT_NO_COPY_PROMPT ??= '1';

/** The tests that change what every page shows, for every visitor. */
const SITE_WIDE = /status-banner\.spec\.ts$/;

export default defineConfig({
  testDir: './e2e',
  fullyParallel: true,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ...(process.env.PLAYWRIGHT_REPORTER_EXTRA === 'json' ? [['json'] as ['json']] : [])],
  outputDir: '../../test-results',
  use: {
    baseURL,
    // Animations off (the theme respects the setting), so axe never measures a half-faded element.
    contextOptions: { reducedMotion: 'reduce' },
    // The app's service worker would answer API calls out of reach of `page.route`; the offline tests allow it in a
    // context of their own.
    serviceWorkers: 'block',
    // A trace records a screencast and DOM snapshots of every action: a quarter of the suite's CPU when kept for every
    // test. It is recorded for a retried test (CI retries once); a failure's screenshot and error context are kept always.
    trace: (process.env.E2E_TRACE as 'off' | 'on' | 'retain-on-failure' | 'on-first-retry' | undefined) ?? 'on-first-retry',
    // The shared profile's page fixture (e2e/fixtures.ts) attaches a failed test's screenshot and page snapshot of its
    // own tab; Playwright's would picture the keeper tab as well.
    screenshot: freshContexts ? 'only-on-failure' : 'off',
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        // One renderer process for the app's tabs: each test opens a new tab, and a new renderer process compiled and
        // set the app up again (0.94 CPU-s a load of /proposals, 0.73 with this; issue 26 item 18).
        ...(process.env.E2E_NO_PPS ? [] : ['--process-per-site']),
      ],
    },
  },
  projects: [
    { name: 'app', testIgnore: SITE_WIDE },
    // A test that changes what every page shows (a status message) runs after all the others, so none of them sees it
    // (e2e/status-banner.spec.ts). Run it alone with `--project site-wide --no-deps`.
    { name: 'site-wide', testMatch: SITE_WIDE, dependencies: ['app'] },
  ],
  webServer: [
    {
      command: 'node --import tsx e2e/smtp-sink.ts',
      port: smtpPort,
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { E2E_SMTP_PORT: String(smtpPort) },
    },
    {
      // As the README starts it: `npm start` (the compiled server; the checks built it beforehand).
      command: 'node ../../scripts/start.mjs',
      url: `${baseURL}/api/reviews/healthz`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        // `npm test` with TEST_DATABASE_URL gives the server a PostgreSQL database of its own (seeded beforehand): the
        // embedded database runs in the server's process and costs it a core's share on a 2-core machine.
        ...(process.env.E2E_DATABASE_URL ? { DATABASE_URL: process.env.E2E_DATABASE_URL } : {}),
        // Load shedding has tests of its own; on a busy CI machine it must not answer a browser test 503.
        OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
        PUBLIC_URL: baseURL,
        SEED_DEMO: 'true',
        MAIL_OUTBOX_API: 'true',
        MAIL_OUTBOX_TOKEN: outboxToken,
        // Mail goes out over SMTP to the test sink, as in production (the admin's mail-queue test sees a real refusal).
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        MAIL_RATE_PER_SECOND: '1000',
        // Short enough that a test can outlive a token; long enough that the 50 s refresh lead leaves 10 s between refreshes.
        ACCESS_TOKEN_TTL_SECONDS: '60',
        LOGIN_LIMIT_PER_ACCOUNT: '10000',
        LOGIN_LIMIT_PER_ADDRESS: '10000',
        LOGIN_LIMIT_PER_ACCOUNT_ADDRESS: '10000',
        RESET_LIMIT_PER_ACCOUNT: '10000',
        RESET_LIMIT_PER_ADDRESS: '10000',
        // Every test signs up from 127.0.0.1.
        REGISTER_LIMIT_PER_ADDRESS: '10000',
        EMAIL_CHANGE_LIMIT_PER_ACCOUNT: '10000',
        EMAIL_CHANGE_LIMIT_PER_ADDRESS: '10000',
        BUILD_REVISION: 'abc1234def5678',
        LOG_LEVEL: 'warn',
      },
    },
  ],
});
