import { expect, test, type APIRequestContext } from './fixtures';
import { adminHeaders, catalystIdField, demo, DEMO_PASSWORD, expectToast, login, passwordField } from './support';

/*
 * A status message shows on every page for everyone, so a test that publishes one would change what every other test
 * sees while it runs (a first load fetches the banner's code and sanitiser: 11 KB more). This file runs in the
 * `site-wide` project of playwright.config.ts, after every other test, and removes its message whatever happens.
 */

/** Removes, through the API, every status message whose text holds `marker` (a retry finds its first try's message). */
async function removeMessages(request: APIRequestContext, marker: string) {
  const headers = await adminHeaders(request);
  const saved = (await (await request.get('/api/reviews/configs/status/', { headers })).json()) as {
    value: { messages: { message: string }[] };
  };
  const messages = saved.value.messages.filter((message) => !message.message.includes(marker));
  if (messages.length === saved.value.messages.length) return;
  const put = await request.put('/api/reviews/configs/status/', { headers, data: { record_update: { messages } } });
  expect(put.ok(), await put.text()).toBeTruthy();
}

const MARKER_PREFIX = 'Maintenance e2e';

test.describe('the site-wide status messages (issue 3)', () => {
  // One after the other in one worker: each test's clean-up removes every message of these tests.
  test.describe.configure({ mode: 'default' });
  test.afterEach(async ({ request }) => removeMessages(request, MARKER_PREFIX));

  // B-015, B-016, B-037, B-038, B-039, B-041, B-043, B-044, B-042
  test('an admin publishes a status message; an anonymous visitor sees it and its HTML cannot run script', async ({ page, browser }) => {
    const marker = `${MARKER_PREFIX} ${Date.now().toString(36)}`;
    await login(page, demo.admin, { to: '/admin/status' });
    await page.getByRole('button', { name: 'Add a message' }).click();
    const form = page.getByTestId('status-message-form').last();
    await form
      .getByRole('textbox', { name: /^Message/ })
      .fill(`<b>${marker}</b> tonight <img src=x onerror="window.__xss=1"><script>window.__xss=2</script>`);
    await form.getByRole('textbox', { name: 'Action URL' }).fill('not a url');
    await expect(form.getByText('Please enter a valid URL.')).toBeVisible(); // B-041
    await expect(page.getByRole('button', { name: 'Save status messages' })).toBeDisabled();
    await form.getByRole('textbox', { name: 'Action URL' }).fill('https://docs.projectcatalyst.io');
    await form.getByRole('textbox', { name: 'Action text' }).fill('Read more');
    await form.getByRole('textbox', { name: 'Severity' }).click();
    await page.getByRole('option', { name: 'Warning' }).click();
    const put = page.waitForRequest((r) => r.url().endsWith('/api/reviews/configs/status/') && r.method() === 'PUT');
    await page.getByRole('button', { name: 'Save status messages' }).click();
    const sent = (await put).postDataJSON();
    expect(sent.record_update.messages.at(-1)).toMatchObject({
      severity: 'warning',
      is_active: true,
      action_url: 'https://docs.projectcatalyst.io',
    }); // B-043
    await expectToast(page, 'Status configuration updated'); // B-044

    const visitor = await browser.newPage();
    await visitor.goto('/');
    const banner = visitor.getByTestId('status-banner');
    const mine = banner.getByRole('status').filter({ hasText: marker });
    await expect(mine).toContainText(`${marker} tonight`); // B-015
    await expect(mine.locator('b', { hasText: marker })).toBeVisible(); // B-016: rendered as HTML
    await expect(mine.getByRole('link', { name: 'Read more' })).toHaveAttribute('href', 'https://docs.projectcatalyst.io');
    expect(await visitor.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    await expect(banner.locator('script, img[onerror]')).toHaveCount(0);

    // An inactive message is not shown (B-015); then the test's message is removed again.
    await page.reload();
    const saved = page.getByTestId('status-message-form').last(); // the message this test added
    await expect(saved.getByRole('textbox', { name: /^Message/ })).toHaveValue(new RegExp(marker));
    await saved.getByRole('switch', { name: 'Active' }).uncheck();
    await page.getByRole('button', { name: 'Save status messages' }).click();
    await expectToast(page, 'Status configuration updated');
    const read = visitor.waitForResponse((r) => r.url().endsWith('/api/reviews/configs/status/'));
    await visitor.reload();
    expect(JSON.stringify(await (await read).json())).not.toContain(marker); // inactive: not sent to a visitor
    await visitor.waitForLoadState('networkidle');
    await expect(visitor.getByText(`${marker} tonight`)).toHaveCount(0);
    await saved.getByRole('button', { name: /^Remove this message/ }).click();
    const removed = page.waitForResponse((r) => r.url().endsWith('/api/reviews/configs/status/') && r.request().method() === 'PUT');
    await page.getByRole('button', { name: 'Save status messages' }).click();
    expect((await removed).ok()).toBeTruthy();
    await visitor.close();
  });

  // A stale access token was answered a visitor's list (the active messages only), and the Status tab kept it: a switch
  // clicked then was reset by the next read, and a save would have erased the inactive messages. Nor did a login keep
  // the list read before it as a visitor.
  test('an admin signed in after a visit, or back with a stale access token, edits every message, inactive ones too', async ({
    page,
    request,
  }) => {
    const marker = `${MARKER_PREFIX} ${Date.now().toString(36)}`;
    const headers = await adminHeaders(request);
    const current = (await (await request.get('/api/reviews/configs/status/', { headers })).json()) as { value: { messages: object[] } };
    const put = await request.put('/api/reviews/configs/status/', {
      headers,
      data: {
        record_update: {
          messages: [
            ...current.value.messages,
            { message: `${marker} shown`, severity: 'info', is_active: true, action_text: null, action_url: null },
            { message: `${marker} kept for later`, severity: 'info', is_active: false, action_text: null, action_url: null },
          ],
        },
      },
    });
    expect(put.ok(), await put.text()).toBeTruthy();
    const messageFields = page.getByTestId('status-message-form').getByRole('textbox', { name: /^Message/ });
    const values = () => messageFields.evaluateAll((fields) => fields.map((field) => (field as HTMLTextAreaElement).value));
    const expectBoth = () => expect.poll(values).toEqual(expect.arrayContaining([`${marker} shown`, `${marker} kept for later`]));

    // A visitor's first page reads the visitor's list; then the admin logs in there and opens the Status tab.
    await page.goto('/login');
    await expect(page.getByTestId('status-banner').getByText(`${marker} shown`)).toBeVisible();
    await catalystIdField(page).fill(demo.admin);
    await passwordField(page).fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await page.getByRole('banner').getByRole('link', { name: 'Admin', exact: true }).click();
    await page.getByRole('tab', { name: 'Status' }).click();
    await expectBoth();

    // Back later: the stored access token no longer holds (expired, or its session renewed elsewhere).
    await page.evaluate(() => {
      const stored = JSON.parse(localStorage.getItem('session')!) as { state: { auth: { access_token: string } } };
      stored.state.auth.access_token = 'stale.access.token';
      localStorage.setItem('session', JSON.stringify(stored));
    });
    await page.reload();
    await expectBoth();
    const kept = page.getByTestId('status-message-form').nth((await values()).indexOf(`${marker} kept for later`));
    await expect(kept.getByRole('switch', { name: 'Active' })).not.toBeChecked();
  });
});
