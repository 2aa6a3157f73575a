import { readFileSync } from 'node:fs';
import { expect, test, type Page } from './fixtures';
import { freshReviewer, validReview } from './review-helpers';
import { demo, expectAccessible, expectListsShown, expectNoOverflow, login } from './support';

/*
 * Issue 31: the interface in Spanish and Japanese. The strings the tests look for are read from the locale files, so
 * that a test fails when a screen shows anything but the chosen language's words.
 */
type Tree = { [key: string]: string | Tree };
const read = (name: string) => JSON.parse(readFileSync(new URL(`../src/locales/${name}.json`, import.meta.url), 'utf8')) as Tree;
const strings = (language: string): Tree => ({ ...read(language), ...read(`${language}.more`) });

/** A string of a locale as i18next renders it: the key's plural form for `count`, its `{{variables}}` filled. */
function tr(language: 'es' | 'ja', key: string, values: Record<string, string | number> = {}): string {
  const tree = strings(language);
  const lookup = (path: string) =>
    path.split('.').reduce<string | Tree | undefined>((node, part) => (node as Tree | undefined)?.[part], tree);
  let text = lookup(key);
  if (text === undefined && typeof values.count === 'number') {
    text = lookup(`${key}_${new Intl.PluralRules(language).select(values.count)}`) ?? lookup(`${key}_other`);
  }
  expect(typeof text, `${language} ${key}`).toBe('string');
  return (text as string).replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(values[name]));
}

const CRITERIA = [
  ['impact_alignment', validReview.impact_alignment_rating_given, validReview.impact_alignment_note],
  ['feasibility', validReview.feasibility_rating_given, validReview.feasibility_note],
  ['auditability', validReview.auditability_rating_given, validReview.auditability_note],
] as const;

/** The reviewer's path in `language`: the proposals list, a proposal's review form, its submission, the profile. */
async function reviewerPath(page: Page, language: 'es' | 'ja', proposal: { row_id: number; title: string }) {
  const t = (key: string, values?: Record<string, string | number>) => tr(language, key, values);
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  await page
    .getByRole('banner')
    .getByRole('link', { name: t('nav.proposals'), exact: true })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: t('proposals.title') })).toBeVisible();
  await page.getByRole('textbox', { name: t('proposals.filterByTitle') }).fill(proposal.title);
  // The filter is debounced: the address says so first, then the list shows the one proposal (a person clicks the row
  // they see; clicked while the unfiltered rows were being replaced, the press and its release met different rows).
  await expect(page).toHaveURL(/\/proposals\?title=/);
  const table = page.getByRole('table', { name: t('proposals.tableLabel') });
  await expect(table.getByRole('row')).toHaveCount(2);
  await table.getByRole('link', { name: proposal.title }).click();
  await expect(page).toHaveURL(new RegExp(`/proposal/${proposal.row_id}$`));

  const form = page.getByRole('region', { name: t('reviews.ownTitle') });
  for (const [criterion, stars, note] of CRITERIA) {
    const name = t(`reviews.criteria.${criterion}`);
    const group = form.getByRole('radiogroup', { name: t('reviews.ratingLabel', { criterion: name }) });
    const radio = group.getByRole('radio', { name: t('reviews.stars', { count: stars }), exact: true });
    await group.locator(`label[for="${await radio.getAttribute('id')}"]`).click();
    await expect(radio).toBeChecked();
    await form.getByRole('textbox', { name: t('reviews.noteLabel', { criterion: name }) }).fill(note);
  }
  await expectAccessible(page);
  await form.getByRole('button', { name: t('reviews.save') }).click();
  const toast = page.locator('.mantine-Notification-root').filter({ hasText: t('reviews.saved') });
  await expect(toast.getByText(t('reviews.submitted'), { exact: true })).toBeVisible();
  await expect(form.getByRole('button', { name: t('reviews.edit') })).toBeVisible();

  await page.goto('/profile');
  await expect(page.getByRole('heading', { level: 1, name: t('profile.title') })).toBeVisible();
  await expect(page.getByTestId('profile-language')).toHaveValue(language);
  await expectAccessible(page);
}

test.describe('a Japanese browser (issue 31)', () => {
  test('shows Japanese from the first visit, and the reviewer’s path works in it', async ({ browser, request }, testInfo) => {
    // A browser of its own: the shared profile's language is the suite's (fixtures.ts).
    const context = await browser.newContext({
      locale: 'ja-JP',
      baseURL: testInfo.project.use.baseURL,
      viewport: { width: 1366, height: 900 },
      reducedMotion: 'reduce',
      serviceWorkers: 'block',
    });
    try {
      const page = await context.newPage();
      const reviewer = await freshReviewer(request);
      await page.goto('/');
      await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
      await expect(page.getByRole('banner').getByRole('link', { name: tr('ja', 'nav.login'), exact: true })).toBeVisible();
      // Issue 45 item 3: the footer's navigation is named in the page's language ("Programme links" stayed English).
      await expect(page.getByRole('contentinfo').getByRole('navigation', { name: tr('ja', 'footer.label'), exact: true })).toBeVisible();
      await login(page, reviewer.user.catalystId, { password: reviewer.user.password, to: '/' });
      await reviewerPath(page, 'ja', reviewer.proposals[11]!);
      // Only negotiated from the browser, never chosen: the account keeps no language.
      const me = await request.get('/api/reviews/users/me/', { headers: reviewer.headers });
      expect((await me.json()).extra.language).toBeNull();
    } finally {
      await context.close();
    }
  });
});

test.describe('the language menu (issue 31)', () => {
  test.use({ viewport: { width: 1366, height: 900 } });

  test('switches a signed-in reviewer to Spanish at once, keeps it with the account, and the path works in it', async ({
    page,
    request,
  }) => {
    const reviewer = await freshReviewer(request);
    await login(page, reviewer.user.catalystId, { password: reviewer.user.password, to: '/' });
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
    const saved = page.waitForResponse((response) => response.url().endsWith('/users/me/language/') && response.status() === 200);
    await page.getByTestId('nav-language').selectOption('es');
    await expect(page.getByRole('banner').getByRole('link', { name: tr('es', 'nav.proposals'), exact: true })).toBeVisible();
    await saved;
    const me = await request.get('/api/reviews/users/me/', { headers: reviewer.headers });
    expect((await me.json()).extra.language).toBe('es');
    await reviewerPath(page, 'es', reviewer.proposals[12]!);
    // The server's messages follow the interface's language too (the app sends it as Accept-Language).
    const wrongLogin = (language: string) =>
      page.evaluate(async (acceptLanguage) => {
        const response = await fetch('/api/reviews/users/token/login', {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': acceptLanguage },
          body: 'username=cardano%2Fdemo-reviewer&password=Not-the-password-1',
        });
        return ((await response.json()) as { message: string }).message;
      }, language);
    const catalog = JSON.parse(readFileSync(new URL('../../server/src/locales/messages.es.json', import.meta.url), 'utf8')) as Record<
      string,
      string
    >;
    const english = await wrongLogin('en-US');
    expect(catalog[english]).toBeTruthy();
    expect(await wrongLogin('es')).toBe(catalog[english]);
  });

  test('the account’s language applies on a new browser', async ({ page, request }) => {
    const reviewer = await freshReviewer(request);
    const put = await request.put('/api/reviews/users/me/language/', { headers: reviewer.headers, data: { language: 'ja' } });
    expect(put.status()).toBe(200);
    await login(page, reviewer.user.catalystId, { password: reviewer.user.password, to: '/profile' });
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await expect(page.getByRole('heading', { level: 1, name: tr('ja', 'profile.title') })).toBeVisible();
  });
});

/** Whether a control's text is cut: a button, tab or badge whose content is wider than its box. */
async function clippedControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('button, [role="tab"], a.mantine-Button-root, .mantine-Badge-root, .plain-badge')]
      .filter((element) => element.offsetParent !== null && element.scrollWidth > element.clientWidth + 1)
      .map((element) => `${element.tagName.toLowerCase()} "${(element.textContent ?? '').slice(0, 50)}"`),
  );
}

// The pseudo-locale (strings 40 % longer, accented) on every screen a reviewer, a moderator and an admin open.
const SCREENS = [
  { path: '/', who: null },
  { path: '/login', who: null },
  { path: '/proposals', who: null },
  { path: '/reviews', who: null },
  { path: '/allocated-proposals', who: demo.reviewer },
  { path: '/profile', who: demo.reviewer },
  { path: '/allocated-reviews', who: demo.moderator },
  { path: '/moderated-reviews', who: demo.moderator },
  { path: '/admin/events', who: demo.admin },
  { path: '/admin/users', who: demo.admin },
] as const;

const PSEUDO_SIZES = [
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
];

test.describe('the pseudo-locale at 390 and 1366 px (issue 31)', () => {
  test.use({ viewport: PSEUDO_SIZES[0] });

  /** Checks the screen the tab shows at each width, resizing between them (one load a screen: issue 45 item 16). */
  async function fitsAtEachSize(page: Page, name: string) {
    for (const size of PSEUDO_SIZES) {
      await page.setViewportSize(size);
      await test.step(`${name} fits at ${size.width} px`, async () => {
        await expectNoOverflow(page);
        expect(await clippedControls(page), `${name} at ${size.width} px`).toEqual([]);
      });
    }
  }

  /** Opens a screen by a link of the page to it where the page shows one, as a person moves on (no new load of the app),
   * else by its address. */
  async function openScreen(page: Page, path: string) {
    const link = page.locator(`a[href="${path}"]`).first();
    if (await link.isVisible()) {
      await link.click();
      await expect(page).toHaveURL((url) => url.pathname + url.search === path);
      await expectListsShown(page);
    } else await page.goto(path);
  }

  test('no screen scrolls sideways or clips a control when every string is 40 % longer', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('cr.language', 'en-XA'));
    let signedIn: string | null = null;
    const seen: string[] = [];
    for (const screen of SCREENS) {
      if (screen.who && screen.who !== signedIn) {
        await login(page, screen.who, { to: screen.path });
        signedIn = screen.who;
      } else await openScreen(page, screen.path);
      await expect(page.locator('html')).toHaveAttribute('lang', 'en-XA');
      // The screen's own heading, in pseudo-text: the page has rendered in the pseudo-locale.
      await expect(page.getByRole('heading', { level: 1 }).first()).toHaveText(/^\[.*\]$/);
      await page.waitForLoadState('networkidle');
      await fitsAtEachSize(page, screen.path);
      seen.push(screen.path);
    }
    // An event's configuration (the admin is signed in last), a proposal and a review, opened from their lists.
    await openScreen(page, '/admin/events');
    await page.getByRole('main').getByRole('link').filter({ hasText: /\w/ }).first().click();
    await expect(page).toHaveURL(/\/admin\/\d+/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await fitsAtEachSize(page, 'an event configuration');
    await openScreen(page, '/proposals');
    await page.getByRole('main').getByRole('link').filter({ hasText: /\w/ }).first().click();
    await expect(page).toHaveURL(/\/proposal\/\d+$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await fitsAtEachSize(page, 'a proposal');
    await openScreen(page, '/reviews');
    await page
      .getByRole('main')
      .getByRole('link', { name: /^\[.*\d+/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/review\/\d+$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    await fitsAtEachSize(page, 'a review');
    expect(seen).toHaveLength(SCREENS.length);
  });
});
