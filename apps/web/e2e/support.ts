import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page, type APIRequestContext } from '@playwright/test';
import type { AxeResults } from 'axe-core';
import { outboxToken } from '../playwright.config';

export const DEMO_PASSWORD = 'Demo-pass1';
export const demo = {
  admin: 'id.catalyst://cardano/demo-admin',
  reviewer: 'id.catalyst://cardano/demo-reviewer',
  moderator: 'id.catalyst://cardano/demo-moderator',
  newcomer: 'id.catalyst://cardano/demo-newcomer',
  reset: 'id.catalyst://cardano/demo-reset',
};

let counter = 0;
/** A Catalyst ID and e-mail address no other test uses. */
export function uniqueIdentity() {
  counter += 1;
  const tag = `${Date.now().toString(36)}${process.pid}${counter}`;
  return { catalystId: `id.catalyst://cardano/e2e-${tag}`, email: `e2e-${tag}@example.test`, password: 'Strong-pass1' };
}

export const catalystIdField = (page: Page) => page.getByRole('textbox', { name: /^Catalyst ID/ });
export const passwordField = (page: Page, name: RegExp = /^Password/) => page.getByRole('textbox', { name });

/** Logs in as a person does: the login form, then the profile it leads to. For the tests of logging in itself. */
export async function loginThroughForm(page: Page, catalystId: string, password = DEMO_PASSWORD) {
  await page.goto('/login');
  await catalystIdField(page).fill(catalystId);
  await passwordField(page).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/profile$/);
}

/**
 * Logs in through the API where the login form is not what a test is about (issue 26 item 18: a form login loaded
 * the app twice): the same POST the form sends (the refresh cookie lands in the page's context), then the session
 * the web app keeps (spec §4 "Session", its persisted keys) written to the page's storage, then the first screen
 * (`to`, the profile by default).
 */
let loginCount = 0;
export async function login(page: Page, catalystId: string, passwordOrOptions: string | { password?: string; to?: string } = {}) {
  const { password = DEMO_PASSWORD, to = '/profile' } =
    typeof passwordOrOptions === 'string' ? { password: passwordOrOptions } : passwordOrOptions;
  const response = await page.request.post('/api/reviews/users/token/login', { form: { username: catalystId, password } });
  expect(response.status(), await response.text()).toBe(200);
  const token = (await response.json()) as { access_token: string; token_type: string };
  const me = await page.request.get('/api/reviews/users/me/', { headers: { authorization: `Bearer ${token.access_token}` } });
  expect(me.status()).toBe(200);
  const claims = JSON.parse(Buffer.from(token.access_token.split('.')[1]!, 'base64url').toString()) as { exp: number };
  const state = {
    localUser: { catalyst_id: catalystId },
    logged: true,
    fetching: false,
    userInfo: await me.json(),
    auth: { ...token, expires_at: claims.exp * 1000 },
    refreshTokenTimeout: null,
  };
  // Storage belongs to an origin: the session is written before the app's first script runs, on the next navigation
  // of this tab only (a later reload or logout is left alone).
  loginCount += 1;
  await page.addInitScript(
    ({ value, marker }) => {
      if (sessionStorage.getItem(marker)) return;
      sessionStorage.setItem(marker, 'written');
      localStorage.setItem('session', value);
    },
    { value: JSON.stringify({ state, version: 0 }), marker: `e2e-login-${loginCount}` },
  );
  // The first screen the test opens (the profile unless it names one): the app loads once per login.
  await page.goto(to);
  if (to === '/profile') await expect(page).toHaveURL(/\/profile$/);
}

/**
 * Reads the signed-in address as a person does on a wide screen: opens the account menu (its code loads on the first
 * press, issue 30 item 5), checks the address it shows, and closes it again.
 */
export async function expectNavEmail(page: Page, email: string, { not = false }: { not?: boolean } = {}) {
  const button = page.getByRole('banner').getByRole('button', { name: 'Account' });
  await button.click();
  const label = page.getByRole('menu').getByTestId('nav-email');
  await expect(label).toBeVisible();
  if (not) await expect(label).not.toHaveText(email);
  else await expect(label).toHaveText(email);
  await button.click();
  await expect(page.getByRole('menu')).toBeHidden();
}

/** Logs out as a person does on a wide screen: the account menu of the navigation bar, then Logout. */
export async function logoutThroughMenu(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: 'Account' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  // Done once the app has cleared the session and moved to the login page, whatever the server answered: a test that
  // loaded another page before then booted on the session still stored, which the server had just revoked (2026-12-03).
  await expect(page).toHaveURL(/\/login$/);
}

/** The newest e-mailed link for an address, read from the outbox as a person would read their mailbox. */
export async function mailedLink(request: APIRequestContext, email: string, kind: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(async () => {
      const response = await request.get(`/api/reviews/dev/outbox?to=${encodeURIComponent(email)}`, {
        headers: { 'x-outbox-token': outboxToken },
      });
      const mails = (await response.json()) as { kind: string; link: string }[];
      link = mails.find((mail) => mail.kind === kind)?.link;
      return link;
    })
    .toBeTruthy();
  return link!;
}

export async function expectToast(page: Page, text: string | RegExp, { timeout }: { timeout?: number } = {}) {
  await expect(page.locator('.mantine-Notification-root').filter({ hasText: text }).first()).toBeVisible({ timeout });
}

/** Waits until no list of the screen is still loading or filling its rows (its `aria-busy`): for a screen opened
 * inside the app, which has no load of its own to wait for. */
export async function expectListsShown(page: Page) {
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

/** axe-core's script, put into a page before its first check (axe.min.js: less than half of axe.js to parse). */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core: no serious or critical violation on the page as it is. */
export async function expectAccessible(page: Page) {
  // Every rule runs; only the violations are collected in full (passes and inapplicable rules are not needed, and
  // gathering their nodes took a fifth of each call). axe runs in the page itself (the app has no frames to check one
  // by one), its script put there once for the document's life: sent before every check, as @axe-core/playwright
  // does, it took a third of each check (2026-12-03: 630 ms a check of /proposals, 410 of them axe's run; issue 26
  // item 18, issue 45 item 16).
  const check = async () => {
    // One call to the page when axe is there already; its script first when it is not.
    const run = () =>
      page.evaluate(() => {
        const { axe } = window as { axe?: { run(context: Document, options: object): Promise<AxeResults> } };
        return axe ? axe.run(document, { resultTypes: ['violations'] }) : null;
      });
    let results = await run();
    if (!results) {
      await page.evaluate(axeSource);
      results = (await run())!;
    }
    const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    const describe = (n: (typeof bad)[number]['nodes'][number]) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`;
    return bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map(describe).join('; ')})`);
  };
  // A check that did not finish (a navigation took its document, or the script did not load whole) is a finding of
  // its own, asked again: expect.poll ends at an error, not at a wrong answer. The script goes in again next time.
  const violations = () =>
    check().catch(async (error: Error) => {
      await page.evaluate(() => delete (window as { axe?: unknown }).axe).catch(() => {});
      return [`axe did not finish: ${error.message.split('\n')[0]}`];
    });
  // Asked again while the page settles: a table that arrived during the check is laid out, then made focusable when
  // it scrolls sideways (components/scroll-table.tsx), a frame later; axe once caught it in between (2026-12-02).
  await expect.poll(violations, { timeout: 5_000, intervals: [250, 500, 1_000] }).toEqual([]);
}

/** Registers an account through the API, as the registration form would. */
export async function registerThroughApi(request: APIRequestContext, user = uniqueIdentity()) {
  const response = await request.post('/api/reviews/users/', {
    data: {
      new_user: {
        catalyst_id: user.catalystId,
        email: user.email,
        password: user.password,
        password_confirmation: user.password,
        extra: { policy_acknowledgments: { privacy_policy: true, terms_and_conditions: true } },
      },
    },
  });
  expect(response.status()).toBe(201);
  return user;
}

/** A registered account, activated from the e-mailed link as its owner would. */
export async function activeUser(request: APIRequestContext) {
  const user = await registerThroughApi(request);
  const link = new URL(await mailedLink(request, user.email, 'activation'));
  const activated = await request.post('/api/reviews/users/activate', {
    data: { user_activation: { confirmation_token: link.searchParams.get('token') } },
  });
  expect(activated.ok()).toBeTruthy();
  return user;
}

/** The demo administrator's bearer header, for arranging a test's data through the API. */
export async function adminHeaders(request: APIRequestContext) {
  const response = await request.post('/api/reviews/users/token/login', { form: { username: demo.admin, password: DEMO_PASSWORD } });
  return { authorization: `Bearer ${(await response.json()).access_token}` };
}

/** Rewrites the JSON of every answer to a call, as the server would answer in another state (users/me, configs). */
export async function rewriteJson(page: Page, url: string | RegExp, change: (json: any) => void) {
  await page.route(url, async (route) => {
    try {
      const response = await route.fetch();
      const json = await response.json();
      change(json);
      await route.fulfill({ response, json });
    } catch (error) {
      // A reload or an unroute while this request was on its way makes it obsolete: nothing is left to answer.
      if (/disposed|already handled|Target .* closed/i.test(String(error))) return;
      throw error;
    }
  });
}

/**
 * The demo holds two current rounds (issue 26 item 14): Fund 15 open for review and the moderation round open for
 * moderation, so the site's stage reads moderation open. A test of what only the review-open stage shows (the
 * reviewed mark, the locked my_reviews) has this page see the moderation round's moderation closed; the server's
 * configuration stays as it is, for the tests running beside it.
 */
export async function presentReviewOpenStage(page: Page, request: APIRequestContext) {
  const current = (await (await request.get('/api/reviews/events/current/')).json()) as { row_id: number; name: string }[];
  const round = current.find((event) => event.name === 'Moderation round (demo)');
  expect(round, 'the demo moderation round is a current event').toBeDefined();
  await rewriteJson(page, `**/api/reviews/configs/reviews/${round!.row_id}/`, (json) => {
    json.value.moderation_submission_enabled = false;
  });
}

/** The page body is no wider than the window: nothing runs off the right edge. */
export async function expectNoOverflow(page: Page) {
  const overflow = () =>
    page.evaluate(() => {
      const by = document.documentElement.scrollWidth - window.innerWidth;
      // The elements that reach past the right edge, named so that a failure says what to fix.
      const culprits =
        by <= 0
          ? []
          : [...document.body.querySelectorAll<HTMLElement>('*')]
              .filter(
                (element) =>
                  element.getBoundingClientRect().right > window.innerWidth + 0.5 ||
                  (element.clientWidth > 1 && element.scrollWidth > element.clientWidth + 1),
              )
              .slice(-5)
              .map(
                (element) =>
                  `${element.tagName.toLowerCase()}.${[...element.classList].join('.')} "${(element.textContent ?? '').slice(0, 40)}"`,
              );
      return { by, culprits };
    });
  await expect
    .poll(async () => (await overflow()).by, { message: 'page scrolls sideways' })
    .toBeLessThanOrEqual(0)
    .catch(async (error: Error) => {
      throw new Error(`${error.message}\nReaching past the edge: ${(await overflow()).culprits.join('; ')}`);
    });
}
