import { expect, test } from './fixtures';
import { demo, login } from './support';

test.describe('home, language and account activation screens', () => {
  //
  test('/ opens the Home screen, in en-US', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
    await expect(page.getByRole('heading', { level: 1, name: 'Community Review' })).toBeVisible();
    await expect(
      page.getByText('Review funding proposals, moderate reviews and run funding rounds, together with the community.'),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Create an account' })).toBeVisible();
    // Issue 3: the current rounds with their stage and windows.
    const round = page.getByRole('region', { name: 'Current funding rounds' }).getByRole('article', { name: 'Fund 15 (demo)' });
    await expect(round).toContainText('Review open');
    await expect(round.getByRole('row', { name: /Reviewer subscription/ })).toContainText('open');
    await expect(page.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    // Every screen reads English text (spot checks on two more).
    await page.goto('/login');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
    await expect(page.getByText('Log in with your Catalyst ID and password.')).toBeVisible();
  });

  //
  test('activation for an account that is already active offers a way to allocated-reviews', async ({ page }) => {
    await login(page, demo.reviewer, { to: '/account/activation?token=any-token' });
    await expect(page.getByRole('heading', { name: 'Account activation' })).toBeVisible();
    await expect(page.getByText('Your account is already active.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Activate' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Go to allocated reviews' }).click();
    await expect(page).toHaveURL(/\/allocated-reviews(\?.*)?$/);
  });

  //
  test('/account/activation reads its token from the query', async ({ page }) => {
    await page.goto('/account/activation');
    await expect(page.getByText('Please check your email: we sent you a link to activate your account.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Activate' })).toHaveCount(0);

    await page.goto('/account/activation?token=the-query-token');
    await expect(page.getByText('Activate your account to start reviewing.')).toBeVisible();
    const activation = page.waitForRequest((r) => r.url().endsWith('/api/reviews/users/activate') && r.method() === 'POST');
    await page.getByRole('button', { name: 'Activate' }).click();
    expect((await activation).postDataJSON()).toEqual({ user_activation: { confirmation_token: 'the-query-token' } });
  });
});
