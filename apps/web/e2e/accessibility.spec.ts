import { expect, test } from './fixtures';
import { demo, expectAccessible, expectNoOverflow, login } from './support';

/** The screens anyone opens: axe at a desktop's size; at a phone's and a tablet's (issue 19) no sideways scroll either. */
const ANONYMOUS = [
  { path: '/', desktop: true, small: true },
  { path: '/login', desktop: true, small: true },
  { path: '/register', desktop: true, small: true },
  { path: '/check-your-inbox', desktop: true, small: true },
  { path: '/account/activation', desktop: true, small: true },
  { path: '/account/activation?token=x', desktop: true, small: false },
  { path: '/account/email-verification', desktop: false, small: true },
  { path: '/account/email-verification?token=x', desktop: true, small: false },
  { path: '/reset-password', desktop: false, small: true },
  { path: '/reset-password?token=x', desktop: true, small: false },
  { path: '/no/such/page', desktop: true, small: true },
] as const;
const DESKTOP = { width: 1280, height: 720 };
const SMALL = [
  { width: 390, height: 844 }, // a phone
  { width: 768, height: 1024 }, // a tablet
];

test.describe('accessibility (axe-core: no serious or critical violation)', () => {
  // One tab for all of them, each screen loaded once and resized (issue 45 item 16): each screen is its own step.
  test('the anonymous screens, and at a phone’s and a tablet’s size they fit (issue 19)', async ({ page }) => {
    for (const screen of ANONYMOUS) {
      await test.step(screen.path, async () => {
        // Loaded at the first size it is checked at: a phone's for the screens checked small.
        const sizes = [...(screen.small ? SMALL : []), ...(screen.desktop ? [DESKTOP] : [])];
        await page.setViewportSize(sizes[0]!);
        await page.goto(screen.path);
        await page.getByRole('contentinfo').waitFor();
        for (const size of sizes) {
          await page.setViewportSize(size);
          if (size !== DESKTOP) await expectNoOverflow(page);
          await expectAccessible(page);
        }
      });
    }
  });

  test('profile and the admin area', async ({ page }) => {
    await login(page, demo.admin);
    await expectAccessible(page);
    // On to the admin area as a person goes: by its link (the app does not load again).
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Admin', exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/events$/);
    await expect(page.getByRole('button', { name: 'Edit Fund 15 (demo)' })).toBeVisible();
    await expectAccessible(page);
  });
});
