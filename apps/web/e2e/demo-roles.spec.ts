import { expect, test, type Page } from './fixtures';
import { login } from './support';

/**
 * The demo's roles find their work from the navigation (issue 26 item 14; spec §2.3, A-040's links): the demo
 * moderator, as the README names the account, reaches their allocated reviews, and the demo reviewer still has their
 * allocated proposals. Nothing here changes the demo.
 */

const navigation = (page: Page) => page.getByRole('banner').getByRole('navigation', { name: 'Main navigation' });

test.describe('the demo accounts find their work from the navigation (issue 26 item 14)', () => {
  test('the demo moderator follows the navigation to their allocated reviews', async ({ page }) => {
    await login(page, 'cardano/demo-moderator', 'Demo-pass1');
    await expect(navigation(page).getByRole('link', { name: 'Moderated reviews', exact: true })).toBeVisible();
    await navigation(page).getByRole('link', { name: 'Allocated reviews', exact: true }).click();
    await expect(page).toHaveURL(/\/allocated-reviews$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Allocated reviews' })).toBeVisible();
    // The flagged and spot-checked reviews of the demo moderation round, each one click from its moderation form.
    const open = page.getByRole('table', { name: 'Allocated reviews' }).getByRole('link', { name: /^Open review \d+$/ });
    await expect(open.first()).toBeVisible();
    await open.first().click();
    await expect(page.getByTestId('moderation-form')).toBeVisible();
    // The stage badge says why: a current round is open for moderation.
    await expect(page.getByRole('banner').getByTestId('stage-badge')).toContainText('Moderation open');
  });

  test('the demo reviewer keeps their links: My proposals opens their 20 allocated proposals', async ({ page }) => {
    await login(page, 'cardano/demo-reviewer', 'Demo-pass1');
    await expect(navigation(page).getByRole('link', { name: 'Reviews', exact: true })).toBeVisible();
    await expect(navigation(page).getByRole('link', { name: 'Allocated reviews', exact: true })).toHaveCount(0);
    await navigation(page).getByRole('link', { name: 'My proposals', exact: true }).click();
    await expect(page).toHaveURL(/\/allocated-proposals$/);
    await expect(page.getByRole('table', { name: 'Allocated proposals' }).getByRole('row')).toHaveCount(21); // a header row and 20
  });
});
