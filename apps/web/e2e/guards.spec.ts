import { expect, test } from './fixtures';
import { demo, expectToast, login, logoutThroughMenu, passwordField } from './support';

test.describe('navigation guards of spec §2.2', () => {
  //
  for (const path of ['/allocated-reviews', '/moderated-reviews/2', '/profile', '/admin/events']) {
    test(`a visitor opening ${path} is sent to /login`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
    });
  }

  //
  test('a logged-in user opening /login or /reset-password is sent to /profile', async ({ page }) => {
    await login(page, demo.reviewer, { to: '/login' });
    await expect(page).toHaveURL(/\/profile$/);
    await page.goto('/reset-password');
    await expect(page).toHaveURL(/\/profile$/);
  });

  //
  test('a forced password reset blocks review pages until the password is changed', async ({ page }) => {
    for (const [index, path] of ['/allocated-reviews', '/moderated-reviews', '/review/1', '/reviews', '/reviews/3'].entries()) {
      if (index === 0) await login(page, demo.reset, { to: path });
      else await page.goto(path);
      await expect(page, path).toHaveURL(/\/reset-password$/);
    }
    await expect(page.getByText('Please choose a new password before you continue.')).toBeVisible();
    await passwordField(page, /^Old password/).fill('Demo-pass1');
    await passwordField(page, /^New password/).fill('Changed-pass3');
    await passwordField(page, /^Password confirmation/).fill('Changed-pass3');
    const update = page.waitForRequest((r) => r.url().endsWith('/api/reviews/users/password/update'));
    await page.getByRole('button', { name: 'Save the new password' }).click();
    const sent = await update;
    expect(sent.postDataJSON()).toEqual({
      update_user: { old_password: 'Demo-pass1', password: 'Changed-pass3', password_confirmation: 'Changed-pass3' },
    });
    await expectToast(page, 'Password updated');
    // Issue 17: the answer is a new access token of the same session, and the app goes on with it.
    const answer = (await (await sent.response())!.json()) as { access_token: string; token_type: string };
    expect(answer.token_type).toBe('bearer');
    await expect
      .poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('session') ?? '{}').state?.auth?.access_token))
      .toBe(answer.access_token);
    // The form leaves for the profile once the fresh user info is in: the session no longer asks for a reset.
    await expect(page).toHaveURL(/\/profile$/);
    await page.goto('/reviews');
    await expect(page).toHaveURL(/\/reviews$/);
    await page.goto('/allocated-reviews');
    await expect(page).toHaveURL(/\/allocated-reviews$/);
  });

  //
  test('an unknown path shows the not-found text', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByRole('heading', { name: '404: The page you are looking for does not exist.' })).toBeVisible();
  });

  // B-018 (role 100 opens /admin), B-019
  test('/admin redirects an admin to /admin/events, and a non-admin sees the admin-only message', async ({ page }) => {
    await login(page, demo.admin);
    await page.getByRole('link', { name: 'Admin' }).click();
    await expect(page).toHaveURL(/\/admin\/events$/);
    await expect(page.getByRole('tab', { name: 'Events' })).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('tab', { name: 'Users' }).click();
    await expect(page).toHaveURL(/\/admin\/users$/);

    await logoutThroughMenu(page);
    await login(page, demo.reviewer, { to: '/admin' });
    await expect(page.getByText('This section is only accessible to admins.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Admin' })).toHaveCount(0);
  });

  //
  test('a page in the path moves to the 0-based query', async ({ page }) => {
    await page.goto('/proposals/2');
    await expect(page).toHaveURL(/\/proposals\?page=2$/);
  });
});
