import { expect, test } from './fixtures';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SignJWT, decodeJwt } from 'jose';
import { dataDir } from '../playwright.config';
import { demo, expectToast, loginThroughForm } from './support';

/** The same claims as `token` (user, session), signed with the e2e server's key (kept in its DATA_DIR), expired a minute ago. */
async function expiredTwin(token: string): Promise<string> {
  const { sub, sid } = decodeJwt(token);
  const key = new TextEncoder().encode(readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim());
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sid })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub!)
    .setIssuedAt(now - 120)
    .setExpirationTime(now - 60)
    .sign(key);
}

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

  // the test server issues 60-second tokens, so the refresh runs 10 s after login. The token the tab then
  // holds is made to have expired (the same user and session, signed with the server's key, `exp` a minute ago) rather
  // than waited out: the server refuses it as it refuses any expired token, without the test sleeping a minute.
  test('a session survives the expiry of its access token', async ({ page }) => {
    await loginThroughForm(page, demo.reviewer);
    const first = await page.evaluate(() => JSON.parse(localStorage.getItem('session')!).state.auth.access_token);
    await page.waitForResponse((r) => r.url().endsWith('/api/reviews/users/token/refresh') && r.status() === 200, {
      timeout: 20_000,
    });
    const meWith = async (token: string) =>
      (await page.request.get('/api/reviews/users/me', { headers: { authorization: `Bearer ${token}` } })).status();
    // The tab stores the new token a moment after the refresh's answer arrives (on a busy machine, after this reads it).
    const storedToken = () => page.evaluate(() => JSON.parse(localStorage.getItem('session')!).state.auth.access_token as string);
    await expect.poll(storedToken).not.toBe(first);
    const refreshed = await storedToken();
    const expired = await expiredTwin(refreshed);
    expect(await meWith(refreshed)).toBe(200);
    expect(await meWith(expired)).toBe(401);
    await page.evaluate((token) => {
      const stored = JSON.parse(localStorage.getItem('session')!);
      stored.state.auth.access_token = token;
      localStorage.setItem('session', JSON.stringify(stored));
    }, expired);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
    await expect(page).toHaveURL(/\/profile$/); // still logged in, not sent to /login
    await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('session')!).state.auth.access_token)).not.toBe(expired);
    const current = await page.evaluate(() => JSON.parse(localStorage.getItem('session')!).state.auth.access_token);
    expect(await meWith(current)).toBe(200);
    expect(await meWith(expired)).toBe(401);
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
    // Watch for the toast from the start: on a slow machine the reload itself can take most of its 5 s on screen. It
    // shows once the reloaded app has tried the refresh, which on a busy machine took longer than the default 10 s
    // wait (under-load); it is the toast's arrival that is waited for, not a time.
    await Promise.all([
      expectToast(page, 'Session refresh failed, please log in again. Please try again', { timeout: 30_000 }),
      page.reload(),
    ]);
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
  });
});
