import { expect, test } from '@playwright/test';
import { demo, expectToast, loginThroughForm } from './support';

test.describe('the session', () => {
  //
  test('login persists the session keys of the spec', async ({ page }) => {
    await loginThroughForm(page, demo.reviewer);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('session') ?? '{}').state);
    expect(Object.keys(stored).sort()).toEqual(['auth', 'fetching', 'localUser', 'logged', 'refreshTokenTimeout', 'userInfo']);
    expect(stored.logged).toBe(true);
    expect(stored.auth.access_token).toBeTruthy();
    expect(stored.userInfo.catalyst_id.id).toBe('cardano/demo-reviewer');
    // the refresh is due 50 s before the token expires.
    expect(stored.auth.expires_at - stored.refreshTokenTimeout).toBeGreaterThan(49_000);
    expect(stored.auth.expires_at - stored.refreshTokenTimeout).toBeLessThan(51_500);
  });

  // the test server issues 60-second tokens, so the refresh runs 10 s after login and the first token
  // has expired a minute after login.
  test('a session survives the expiry of its access token', async ({ page }) => {
    test.setTimeout(120_000);
    await loginThroughForm(page, demo.reviewer);
    const first = await page.evaluate(() => JSON.parse(localStorage.getItem('session')!).state.auth.access_token);
    const refresh = page.waitForResponse((r) => r.url().endsWith('/api/reviews/users/token/refresh') && r.status() === 200, {
      timeout: 20_000,
    });
    await refresh;
    // Wait on the state, not a clock: until the server refuses the first token (it expires 60 s after login).
    const meWith = async (token: string) =>
      (await page.request.get('/api/reviews/users/me', { headers: { authorization: `Bearer ${token}` } })).status();
    await expect.poll(() => meWith(first), { timeout: 90_000, intervals: [1_000] }).toBe(401);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
    await expect(page).toHaveURL(/\/profile$/); // still logged in, not sent to /login
    const current = await page.evaluate(() => JSON.parse(localStorage.getItem('session')!).state.auth.access_token);
    expect(current).not.toBe(first);
    expect(await meWith(current)).toBe(200);
    expect(await meWith(first)).toBe(401);
  });

  //
  test('a failed refresh logs the user out with its toast', async ({ page, context }) => {
    await loginThroughForm(page, demo.reviewer);
    await context.clearCookies(); // the refresh cookie is gone: the next refresh fails
    // Make the refresh due now: the timer runs at once when the moment 50 s before expiry has passed.
    await page.evaluate(() => {
      const stored = JSON.parse(localStorage.getItem('session')!);
      stored.state.auth.expires_at = Date.now() - 1000;
      localStorage.setItem('session', JSON.stringify(stored));
    });
    // Watch for the toast from the start: on a slow machine the reload itself can take most of its 5 s on screen.
    await Promise.all([expectToast(page, 'Session refresh failed, please log in again. Please try again'), page.reload()]);
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
  });
});
