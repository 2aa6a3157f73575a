import { expect, test } from './fixtures';
import { demo, login } from './support';

test.describe('the frame: footer, navigation, routes', () => {
  //
  test('every screen has the footer whose five links open in a new tab, and the build line', async ({ page }) => {
    for (const path of ['/', '/login', '/register', '/nowhere']) {
      await page.goto(path);
      const footer = page.getByRole('contentinfo');
      await expect(footer.getByRole('img', { name: 'Community Review logo' })).toBeVisible();
      await expect(footer.getByText('Community Review', { exact: true })).toBeVisible();
      const links = footer.getByRole('link');
      await expect(links).toHaveCount(5);
      for (const link of await links.all()) {
        await expect(link).toHaveAttribute('target', '_blank');
        await expect(link).toHaveAttribute('rel', /noopener/);
      }
      await expect(footer.getByTestId('build-revision')).toHaveText('Build abc1234');
    }
  });

  //
  test('the navigation shows home, proposals and reviews always, login when logged out and profile when logged in', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    for (const name of ['Home', 'Proposals', 'Reviews', 'Login']) await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'My proposals' })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Profile' })).toHaveCount(0);
    await login(page, demo.reviewer);
    for (const name of ['Home', 'Proposals', 'Reviews', 'Profile'])
      await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
    // the demo reviewer reviews the demo round, whose review submission is open.
    await expect(nav.getByRole('link', { name: 'My proposals' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Login' })).toHaveCount(0);
  });

  //
  test('API calls go under /api/reviews, with the bearer token only when logged in', async ({ page }) => {
    const calls: { url: string; auth?: string }[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/')) calls.push({ url: request.url(), auth: request.headers().authorization });
    });
    await page.goto('/login');
    await login(page, demo.reviewer, { to: '/profile' });
    await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(new URL(call.url).pathname.startsWith('/api/reviews/')).toBe(true);
    const me = calls.filter((call) => call.url.includes('/users/me'));
    expect(me.length).toBeGreaterThan(0);
    for (const call of me) expect(call.auth).toMatch(/^Bearer /);
    expect(calls.find((call) => call.url.includes('/users/token/login'))?.auth).toBeUndefined();
  });

  //
  test('the allocated proposals screen is loaded lazily', async ({ page }) => {
    await page.goto('/');
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.getByRole('heading', { name: 'Community Review', level: 1 }).waitFor();
    await page.evaluate(() => {
      window.history.pushState({}, '', '/allocated-proposals');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect(page.getByRole('heading', { name: 'Allocated proposals' })).toBeVisible();
    expect(scripts.some((url) => /allocated-proposals-[\w-]+\.js$/.test(url))).toBe(true);
  });

  //
  test('every navigation scrolls to the top', async ({ page }) => {
    await page.setViewportSize({ width: 800, height: 400 });
    await page.goto('/register');
    await page.getByRole('contentinfo').scrollIntoViewIfNeeded();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
    await page.getByRole('link', { name: 'Log in' }).last().click();
    await expect(page).toHaveURL(/\/login$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });
});
