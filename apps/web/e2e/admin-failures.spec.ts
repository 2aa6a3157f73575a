import { expect, test, type Page, type Route } from './fixtures';
import { demo, login } from './support';

/**
 * Spec §8 for events, configs, status and the admin area: when the server fails without a message of its own,
 * a person sees the fixed error text, and failed lists are empty with total 0.
 * The API is made to fail in the browser (page.route), so nothing is ever saved. Each test sets its failures up, then
 * signs the admin in straight onto the screen (the login's own requests go through `page.request`, which no route
 * touches).
 */

const API = '/api/reviews';
const emptyFailure = { status: 500, body: '' };

/** Answers 500 with an empty body to the requests of `method` whose path is exactly `path` (any query). */
async function failRequests(page: Page, method: 'GET' | 'POST' | 'PUT', path: string | RegExp) {
  const failed: string[] = [];
  const matches = (url: URL) => (typeof path === 'string' ? url.pathname === path : path.test(url.pathname));
  await page.route(matches, (route: Route) => {
    if (route.request().method() !== method) return route.fallback();
    failed.push(route.request().url());
    return route.fulfill(emptyFailure);
  });
  return failed;
}

/** A red error toast whose message is exactly this text. */
async function expectErrorToast(page: Page, text: string) {
  const toast = page
    .locator('.mantine-Notification-root')
    .filter({ has: page.locator('.mantine-Notification-description', { hasText: text }) });
  await expect(toast.first()).toBeVisible();
  await expect(toast.first().locator('.mantine-Notification-title')).toHaveText('Error');
  await expect(toast.first().locator('.mantine-Notification-description')).toHaveText(text);
}

/** The table is empty: only the 'No items found.' row, and a single page. */
async function expectEmptyTable(page: Page, name: string) {
  const body = page.getByRole('table', { name }).locator('tbody tr');
  await expect(body).toHaveCount(1);
  await expect(body.first()).toHaveText('No items found.');
  await expect(page.getByText('Page 1 of 1')).toBeVisible(); // total 0
}

test.describe('admin area and events: fixed error toasts when the server fails', () => {
  // B-003
  test('B-003: the current events fail to load on the home page → "Error fetching current event(s)"', async ({ page }) => {
    const failed = await failRequests(page, 'GET', `${API}/events/current/`);
    await login(page, demo.admin, { to: '/' });
    await expectErrorToast(page, 'Error fetching current event(s)');
    expect(failed.length).toBeGreaterThan(0);
    // No current event is shown, and the stage badge is hidden (stage inactive).
    await expect(
      page.getByRole('region', { name: 'Current funding rounds' }).getByText('No funding round is running right now.'),
    ).toBeVisible();
    await expect(page.getByTestId('stage-badge')).toHaveCount(0);
  });

  // B-005
  test('B-005: the event configs fail to load → "Error fetching configs"', async ({ page }) => {
    const failed = await failRequests(page, 'GET', /^\/api\/reviews\/configs\/reviews\/\d+\/$/);
    await login(page, demo.admin, { to: '/' });
    await expectErrorToast(page, 'Error fetching configs');
    expect(failed.length).toBeGreaterThan(0);
    // The current event is still listed; without its configuration every window counts as closed.
    const round = page.getByRole('article', { name: 'Fund 15 (demo)' });
    await expect(round).toBeVisible();
    await expect(round.getByText('open', { exact: true })).toHaveCount(0);
    await expect(round.getByText('closed', { exact: true })).toHaveCount(3);
  });

  // B-025
  test('B-025: the events list fails → "Error fetching events" and the Events table is empty with total 0', async ({ page }) => {
    const failed = await failRequests(page, 'GET', `${API}/events/`);
    await login(page, demo.admin, { to: '/admin/events' });
    await expectErrorToast(page, 'Error fetching events');
    await expectEmptyTable(page, 'Events');
    expect(new URL(failed[0]!).searchParams.get('size')).toBe('25');
  });

  // B-036
  test('B-036: the users list fails → "Error fetching users" and the Users table is empty with total 0', async ({ page }) => {
    const failed = await failRequests(page, 'GET', `${API}/admin/users`);
    await login(page, demo.admin, { to: '/admin/users' });
    await expectErrorToast(page, 'Error fetching users');
    await expectEmptyTable(page, 'Users');
    expect(new URL(failed[0]!).searchParams.get('size')).toBe('25');
  });

  // B-032
  test('B-032: creating or editing an event fails without a server message → "Error updating or creating event"', async ({ page }) => {
    const name = `E2E failing fund ${Date.now().toString(36)}`;
    const created = await failRequests(page, 'POST', `${API}/events/`);
    const updated = await failRequests(page, 'PUT', /^\/api\/reviews\/events\/\d+\/$/);
    await login(page, demo.admin, { to: '/admin/events' });

    await page.getByRole('button', { name: 'New fund' }).click();
    const modal = page.getByRole('dialog', { name: 'New event' });
    await modal.getByRole('textbox', { name: /^Name/ }).fill(name);
    await modal.getByRole('textbox', { name: /^Description/ }).fill('Never saved: the server fails.');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expectErrorToast(page, 'Error updating or creating event');
    expect(created).toHaveLength(1);
    await expect(modal).toBeVisible(); // nothing typed is lost
    await expect(modal.getByRole('textbox', { name: /^Name/ })).toHaveValue(name);
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await expect(modal).toBeHidden();
    await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0);

    // Editing fails the same way.
    await page.getByRole('button', { name: 'Edit Fund 15 (demo)' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit event' });
    await edit.getByRole('textbox', { name: /^Description/ }).fill('Changed by a failing save.');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => updated.length).toBe(1);
    await expect(page.locator('.mantine-Notification-root').filter({ hasText: 'Error updating or creating event' })).toHaveCount(2);
    await expect(edit).toBeVisible();
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('row').filter({ hasText: 'Changed by a failing save.' })).toHaveCount(0);
  });

  // B-045
  test('B-045: saving the status messages fails → "Error updating status configuration"', async ({ page }) => {
    const marker = `Never saved ${Date.now().toString(36)}`;
    const saved = await failRequests(page, 'PUT', `${API}/configs/status/`);
    await login(page, demo.admin, { to: '/admin/status' });
    await expect(page.getByRole('heading', { name: 'Status messages' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const before = await page.getByTestId('status-message-form').count();
    await page.getByRole('button', { name: 'Add a message' }).click();
    await page
      .getByTestId('status-message-form')
      .last()
      .getByRole('textbox', { name: /^Message/ })
      .fill(marker);
    await page.getByRole('button', { name: 'Save status messages' }).click();
    await expectErrorToast(page, 'Error updating status configuration');
    expect(saved).toHaveLength(1);

    // Nothing was saved: after a reload the list is as it was.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Status messages' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await expect(page.getByTestId('status-message-form')).toHaveCount(before);
    await expect(page.getByText(marker)).toHaveCount(0);
  });

  // B-046
  test('B-046: the status configuration fails to load on the Status tab → "Error fetching status configuration"', async ({ page }) => {
    const failed = await failRequests(page, 'GET', `${API}/configs/status/`);
    await login(page, demo.admin, { to: '/admin/status' });
    await expectErrorToast(page, 'Error fetching status configuration');
    expect(failed.length).toBeGreaterThan(0);
    await expect(page.getByTestId('status-banner')).toHaveCount(0);
    // The saved list is unknown, so it is not shown as empty and cannot be overwritten: neither adding to it nor saving.
    await expect(page.getByText('No status messages.', { exact: false })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Add a message' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Save status messages' })).toBeDisabled();
  });
});
