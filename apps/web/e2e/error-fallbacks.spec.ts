import { expect, test, type Page } from './fixtures';
import { catalystIdField, demo, login, logoutThroughMenu, passwordField, uniqueIdentity } from './support';

/**
 * Spec §8: when the server answers with no message of its own, each failure shows its fixed text, verbatim.
 * The API is made to fail in the browser (page.route), as a down or broken server would.
 */

const API = '**/api/reviews';
const emptyFailure = { status: 500, body: '' };
const emptyJsonFailure = { status: 503, contentType: 'application/json', body: '{}' };

/** A red error toast whose message is exactly this text. */
async function expectErrorToast(page: Page, text: string) {
  const toast = page
    .locator('.mantine-Notification-root')
    .filter({ has: page.locator('.mantine-Notification-description', { hasText: text }) });
  await expect(toast.first()).toBeVisible();
  await expect(toast.first().locator('.mantine-Notification-title')).toHaveText('Error');
  await expect(toast.first().locator('.mantine-Notification-description')).toHaveText(text);
}

async function fillRegistration(page: Page, catalystId: string, email: string, password: string) {
  await page.goto('/register');
  await catalystIdField(page).fill(catalystId);
  await page.getByRole('textbox', { name: /^E-mail address/ }).fill(email);
  await passwordField(page, /^Password\s*\*?$/).fill(password);
  await passwordField(page, /^Password confirmation/).fill(password);
  for (const box of await page.getByRole('checkbox').all()) await box.check();
}

test.describe('fixed error texts when the server gives no message', () => {
  //
  test('login: "Login failed. Please try again"', async ({ page }) => {
    await page.route(`${API}/users/token/login`, (route) => route.fulfill(emptyFailure));
    await page.goto('/login');
    await catalystIdField(page).fill(demo.reviewer);
    await passwordField(page).fill('Demo-pass1');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expectErrorToast(page, 'Login failed. Please try again');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('link', { name: 'Login' })).toBeVisible(); // still logged out
  });

  // an empty JSON body is no message either; a body with a message is preferred to the fixed text.
  test('login: the server message when present, the fixed text otherwise', async ({ page }) => {
    let answer = emptyJsonFailure;
    await page.route(`${API}/users/token/login`, (route) => route.fulfill(answer));
    await page.goto('/login');
    await catalystIdField(page).fill(demo.reviewer);
    await passwordField(page).fill('Demo-pass1');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expectErrorToast(page, 'Login failed. Please try again');

    answer = { status: 503, contentType: 'application/json', body: JSON.stringify({ message: 'Login is paused for maintenance.' }) };
    await page.getByRole('button', { name: 'Log in' }).click();
    await expectErrorToast(page, 'Login is paused for maintenance.');
  });

  //
  test('password-reset request: "Failed to request password reset. Please try again"', async ({ page }) => {
    await page.route(`${API}/users/password/reset-request`, (route) => route.fulfill(emptyFailure));
    await page.goto('/login');
    await catalystIdField(page).fill(demo.reviewer);
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await expectErrorToast(page, 'Failed to request password reset. Please try again');
    await expect(page).toHaveURL(/\/login$/); // not sent on to check-your-inbox
  });

  //
  test('password reset: "Failed to reset password. Please try again"', async ({ page }) => {
    await page.route(`${API}/users/password/reset`, (route) => route.fulfill(emptyJsonFailure));
    await page.goto('/reset-password?token=some-token');
    await catalystIdField(page).fill(demo.reviewer);
    await passwordField(page, /^New password/).fill('Brand-new-pass2');
    await passwordField(page, /^Password confirmation/).fill('Brand-new-pass2');
    await page.getByRole('button', { name: 'Save the new password' }).click();
    await expectErrorToast(page, 'Failed to reset password. Please try again');
    await expect(page).toHaveURL(/\/reset-password/);
  });

  //
  test('activation (not a 400): "Account activation failed. Please try again", and no modal', async ({ page }) => {
    await page.route(`${API}/users/activate`, (route) => route.fulfill(emptyFailure));
    await page.goto('/account/activation?token=token-from-the-query');
    await expect(page.getByText('Activate your account to start reviewing.')).toBeVisible();
    const activation = page.waitForRequest((r) => r.url().endsWith('/api/reviews/users/activate'));
    await page.getByRole('button', { name: 'Activate' }).click();
    expect((await activation).postDataJSON()).toEqual({ user_activation: { confirmation_token: 'token-from-the-query' } });
    await expectErrorToast(page, 'Account activation failed. Please try again');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page).toHaveURL(/\/account\/activation\?token=token-from-the-query$/);
  });

  //
  test('logout: "Logout failed. Please try again"', async ({ page }) => {
    await login(page, demo.reviewer);
    await page.route(`${API}/users/token/logout`, (route) => route.fulfill(emptyFailure));
    await logoutThroughMenu(page);
    await expectErrorToast(page, 'Logout failed. Please try again');
    await expect(page.locator('.mantine-Notification-description', { hasText: 'Logged out' })).toHaveCount(0);
  });

  // A-073, DOMAIN.md decision 8 (no separate toast)
  test('registration: the modal shows "An error occurred. Please try again."', async ({ page }) => {
    const user = uniqueIdentity();
    await page.route(`${API}/users/`, (route) => (route.request().method() === 'POST' ? route.fulfill(emptyFailure) : route.fallback()));
    await fillRegistration(page, user.catalystId, user.email, user.password);
    await page.getByRole('button', { name: 'Register' }).click();
    const modal = page.getByRole('dialog', { name: 'Verify your email' });
    await expect(modal.getByTestId('register-error')).toHaveText('An error occurred. Please try again.');
    await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);
    await expect(page).toHaveURL(/\/register$/);
  });

  // DOMAIN.md decision 8
  test('registration: the failure is shown in the registration modal with the server message, not as a toast', async ({ page }) => {
    const user = uniqueIdentity();
    await fillRegistration(page, demo.admin, user.email, user.password); // already registered: the real server refuses it
    await page.getByRole('button', { name: 'Register' }).click();
    const modal = page.getByRole('dialog', { name: 'Verify your email' });
    await expect(modal).toBeVisible();
    await expect(modal.getByText('Registration failed. Please try again', { exact: true })).toBeVisible();
    await expect(modal.getByTestId('register-error')).toHaveText('This Catalyst ID is already registered.');
    await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);
    await modal.getByRole('button', { name: 'Close' }).last().click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page).toHaveURL(/\/register$/);
  });
});
