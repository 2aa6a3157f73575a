import { test } from './fixtures';
import { demo, expectAccessible, login } from './support';

test.describe('accessibility (axe-core: no serious or critical violation)', () => {
  // One tab for all of them: each screen is its own step (a tab per screen cost a second of CPU each).
  test('the anonymous screens', async ({ page }) => {
    for (const path of [
      '/',
      '/login',
      '/register',
      '/account/activation',
      '/account/activation?token=x',
      '/account/email-verification?token=x',
      '/reset-password?token=x',
      '/check-your-inbox',
      '/no/such/page',
    ]) {
      await test.step(path, async () => {
        await page.goto(path);
        await page.getByRole('contentinfo').waitFor();
        await expectAccessible(page);
      });
    }
  });

  test('profile and the admin area', async ({ page }) => {
    await login(page, demo.admin);
    await expectAccessible(page);
    await page.goto('/admin/events');
    await expectAccessible(page);
  });
});
