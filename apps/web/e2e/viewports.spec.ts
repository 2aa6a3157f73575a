import { expect, test, type APIRequestContext, type Locator, type Page } from './fixtures';
import { freshReviewer, note, noteField, ownReview } from './review-helpers';
import {
  activeUser,
  adminHeaders,
  demo,
  expectAccessible,
  expectNoOverflow,
  login,
  presentReviewOpenStage,
  registerThroughApi,
  uniqueIdentity,
} from './support';

/*
 * Issue 19: every screen at a phone's size (390×844) and a tablet's (768×1024). On each: the page never scrolls
 * sideways, the screen's primary action is visible and works, and axe finds nothing serious or critical. Lists are
 * cards on the phone and tables (scrolling sideways, with a cue, where they are wider) on the tablet.
 *
 * Each screen is loaded once, at the phone's size, and checked there; then the tab is resized to the tablet's and the
 * screen checked again, as a person turning a tablet or widening a window sees it (issue 45 item 16: a load and a
 * sign-in per size were half of this file's work). A screen opened next is loaded at whatever size the tab has, and
 * checked at both.
 */

const MODERATOR = demo.moderator;
const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'tablet', width: 768, height: 1024 },
] as const;
type Viewport = (typeof VIEWPORTS)[number];

test.use({ viewport: { width: VIEWPORTS[0].width, height: VIEWPORTS[0].height } });

/** Checks the screen the tab shows at each size in turn, resizing the tab between them (no new load). */
async function atEachSize(page: Page, check: (phone: boolean, viewport: Viewport) => Promise<void>, sizes = VIEWPORTS) {
  for (const viewport of sizes) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await test.step(`at ${viewport.width}×${viewport.height} (${viewport.name})`, () => check(viewport.name === 'phone', viewport));
  }
}

async function expectFits(page: Page) {
  await expectNoOverflow(page);
  await expectAccessible(page);
}

/** Registers a user whose Catalyst ID is one unbroken word of 500 characters (the longest allowed); answers the id. */
async function registerLongId(request: APIRequestContext) {
  const user = uniqueIdentity();
  const catalystId = `${user.catalystId}-${'x'.repeat(500 - user.catalystId.length - 1)}`;
  await registerThroughApi(request, { ...user, catalystId });
  return catalystId;
}

/** A list as the window shows it: a list of cards on a phone, a table on a tablet. */
function list(page: Page, phone: boolean, name: string): Locator {
  return phone ? page.getByRole('list', { name }) : page.getByRole('table', { name });
}

/** A fresh inactive round with the sample proposals and two subscribed reviewers, ready for a proposal allocation. */
async function roundToAllocate(request: APIRequestContext) {
  const headers = await adminHeaders(request);
  const created = await request.post('/api/reviews/events/', {
    headers,
    data: { new_event: { name: `E2E viewport ${Date.now().toString(36)}-${process.pid}`, description: 'Viewport test.', active: false } },
  });
  expect(created.status()).toBe(201);
  const eventId = ((await created.json()) as { row_id: number }).row_id;
  const config = `/api/reviews/configs/reviews/${eventId}/`;
  const imported = await request.post(`/api/reviews/proposals/import/${eventId}`, {
    headers,
    data: { import_options: { source: 'sample', dry_run: false } },
  });
  expect(imported.status()).toBe(200);
  await request.put(config, { headers, data: { record_update: { reviewer_subscription_enabled: true } } });
  for (let i = 0; i < 2; i += 1) {
    const user = await activeUser(request);
    const login = await request.post('/api/reviews/users/token/login', { form: { username: user.catalystId, password: user.password } });
    const subscribed = await request.post('/api/reviews/subscriptions/', {
      headers: { authorization: `Bearer ${(await login.json()).access_token}` },
      data: { new_subscription: { want_to_be_reviewer: true, fund_rules_acceptance: true, preferred_categories: [], event_id: eventId } },
    });
    expect(subscribed.status()).toBe(201);
  }
  await request.put(config, { headers, data: { record_update: { reviewer_subscription_enabled: false } } });
  return eventId;
}

/** Whether an element lies wholly inside the window. */
const isInWindow = (locator: Locator) =>
  locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight && box.right <= window.innerWidth;
  });

test.describe('at a phone’s and a tablet’s size (issue 19)', () => {
  test('the header keeps brand, stage and menu on one line; the menu holds the links and follows them', async ({ page }) => {
    await login(page, demo.admin);
    const header = page.getByRole('banner');
    const brand = header.getByTestId('nav-brand');
    const badge = header.getByTestId('stage-badge');
    const burger = header.getByRole('button', { name: 'Open navigation' });
    // Each size follows a different link of the menu: the second is a real move too.
    const follow = { phone: ['Reviews', /\/reviews$/], tablet: ['Proposals', /\/proposals$/] } as const;
    await atEachSize(page, async (_phone, viewport) => {
      await expect(badge).toBeVisible();
      // The short form shows on a phone; the full text stays for screen readers.
      await expect(badge).toContainText('Moderation open'); // the demo's moderation round is current (issue 26 item 14)
      const boxes = await Promise.all([brand, badge, burger].map((item) => item.boundingBox()));
      for (const box of boxes) {
        expect(box).not.toBeNull();
        expect(Math.abs(box!.y + box!.height / 2 - (boxes[0]!.y + boxes[0]!.height / 2))).toBeLessThanOrEqual(4);
        expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
      }
      expect(await brand.evaluate((element) => element.getBoundingClientRect().height)).toBeLessThan(40); // one line
      await expectFits(page);
      await burger.click();
      const drawer = page.getByRole('dialog', { name: 'Community Review' });
      for (const name of ['Home', 'Proposals', 'Reviews', 'Admin', 'Profile'])
        await expect(drawer.getByRole('link', { name, exact: true })).toBeVisible();
      await expect(drawer.getByRole('button', { name: 'Logout' })).toBeVisible();
      const [link, url] = follow[viewport.name];
      await drawer.getByRole('link', { name: link, exact: true }).click();
      await expect(page).toHaveURL(url);
      await expect(drawer).toBeHidden();
    });
  });

  // D-001 (the proposals list), D-010 (allocated view)
  test('the proposals list fits and opens a proposal', async ({ page }) => {
    await page.goto('/proposals');
    let title = '';
    await atEachSize(page, async (phone) => {
      const proposals = list(page, phone, 'Proposals');
      await expect(proposals.getByRole('link').first()).toBeVisible();
      await expectFits(page);
      title = (await proposals.getByRole('link').first().textContent())!;
    });
    await list(page, false, 'Proposals').getByRole('link').first().click();
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await atEachSize(page, () => expectFits(page));
  });

  test('the allocated proposals fit with their reviewed mark', async ({ page, request }) => {
    await presentReviewOpenStage(page, request); // the mark shows only while the stage is review open
    await login(page, demo.reviewer, { to: '/allocated-proposals' });
    await atEachSize(page, async (phone) => {
      const allocated = list(page, phone, 'Allocated proposals');
      await expect(allocated.getByText(/^(Reviewed|Not reviewed)$/).first()).toBeVisible();
      await expectFits(page);
    });
  });

  test('the reviews list fits and opens a review', async ({ page }) => {
    await page.goto('/reviews');
    await atEachSize(page, async (phone) => {
      await expect(
        list(page, phone, 'Reviews')
          .getByRole('link', { name: /^Open review \d+$/ })
          .first(),
      ).toBeVisible();
      await expectFits(page);
    });
    await list(page, false, 'Reviews')
      .getByRole('link', { name: /^Open review \d+$/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/review\/\d+$/);
    await atEachSize(page, () => expectFits(page));
  });

  test('the review form keeps the note, its count and Save in view over a phone keyboard, and keeps the draft', async ({
    page,
    request,
  }) => {
    const reviewer = await freshReviewer(request);
    const proposal = reviewer.proposals[9]!;
    await login(page, reviewer.user.catalystId, { password: reviewer.user.password, to: `/proposal/${proposal.row_id}` });
    const field = noteField(page, 'Feasibility');
    await expect(field).toBeVisible();
    await expectFits(page);
    await field.click();
    await field.pressSequentially(note(3), { delay: 0 });
    const count = ownReview(page).getByText(/^30 \/ .* characters/);
    const save = ownReview(page).getByRole('button', { name: 'Save review' });
    await atEachSize(page, async () => {
      await expect(count).toBeVisible();
      await expect.poll(() => isInWindow(count)).toBe(true);
      await expect.poll(() => isInWindow(save)).toBe(true);
      await expectFits(page);
    });
    await page.reload();
    await expect(noteField(page, 'Feasibility')).toHaveValue(note(3));
  });

  test('the moderator lists fit, open a review, and the moderation form keeps its count and Save in view', async ({ page }) => {
    await login(page, MODERATOR, { to: '/moderated-reviews' });
    await atEachSize(page, async () => {
      await expect(page.getByTestId('moderation-totals')).toBeVisible();
      await expectFits(page);
    });
    await page.goto('/allocated-reviews');
    const open = (phone: boolean) =>
      list(page, phone, 'Allocated reviews')
        .getByRole('link', { name: /^Open review \d+$/ })
        .first();
    await atEachSize(page, async (phone) => {
      await expect(open(phone)).toBeVisible();
      await expectFits(page);
    });
    await open(false).click();
    const form = page.getByTestId('moderation-form');
    await form.getByRole('button', { name: 'excluded' }).click();
    await form.getByRole('radio', { name: 'other' }).check();
    const custom = form.getByRole('textbox', { name: 'Custom reason' });
    await custom.click();
    await custom.pressSequentially('Copied from another review.', { delay: 0 });
    const count = form.getByText('27 / 500');
    await atEachSize(page, async () => {
      await expect.poll(() => isInWindow(count)).toBe(true);
      await expect.poll(() => isInWindow(form.getByRole('button', { name: 'Save moderation' }))).toBe(true);
      await expectFits(page);
    });
    // Leave the demo moderator's review as it was.
    await form.getByRole('button', { name: 'Clear' }).click();
    await expect(form.getByRole('radio')).toHaveCount(0);
  });

  test('the admin events and users fit; an event opens its configuration in one column', async ({ page, request }) => {
    await registerLongId(request); // the newest user, so the first row of the list
    await login(page, demo.admin, { to: '/admin/users' });
    await atEachSize(page, async (phone) => {
      await expect(
        list(page, phone, 'Users')
          .getByRole('link', { name: /^View the profile of / })
          .first(),
      ).toBeVisible();
      await expectFits(page);
    });
    // The mail queue (issue 27): its tables scroll sideways inside the page on a phone. From tab to tab, as a person goes.
    await page.getByRole('tab', { name: 'Mail queue' }).click();
    await atEachSize(page, async () => {
      await expect(page.getByRole('table', { name: 'Failed mails' })).toBeVisible();
      await expectFits(page);
    });
    await page.getByRole('tab', { name: 'Events' }).click();
    const edit = (phone: boolean) => list(page, phone, 'Events').getByRole('button', { name: 'Edit Fund 15 (demo)' });
    await atEachSize(page, async (phone) => {
      await expect(edit(phone)).toBeVisible();
      await expectFits(page);
    });
    await atEachSize(page, async (phone) => {
      await edit(phone).click();
      const modal = page.getByRole('dialog', { name: 'Edit event' });
      await expect(modal.getByRole('textbox', { name: /^Name/ })).toBeVisible();
      await expectNoOverflow(page);
      await modal.getByRole('button', { name: 'Close' }).click();
      await expect(modal).toBeHidden();
    });
    await list(page, false, 'Events').getByRole('link', { name: 'Configure Fund 15 (demo)' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Fund 15 (demo)' })).toBeVisible();
    await atEachSize(page, () => expectFits(page)); // the Overview, the first section, with its charts
    const sections = page.getByRole('navigation', { name: 'Event configuration sections' });
    await sections.getByRole('button', { name: 'General Configuration' }).click();
    await atEachSize(page, async () => {
      const nav = await sections.boundingBox();
      const form = await page.getByRole('button', { name: 'Save general settings' }).boundingBox(); // issue 45 item 12
      expect(form!.y).toBeGreaterThan(nav!.y + nav!.height); // the form below the sections, not beside them
      await expectFits(page);
    });
  });

  // D-036, D-043: the statistics modal and its histograms after a real allocation run.
  test('the allocation statistics modal and its histograms fit the screen', async ({ page, request }) => {
    const eventId = await roundToAllocate(request);
    await login(page, demo.admin, { to: `/admin/${eventId}?section=proposalAllocation` });
    const form = page.getByRole('form', { name: 'Proposal allocation' });
    // The first run is a dry run (D-032): its statistics show in the page, histograms included.
    await form.getByRole('button', { name: 'Generate' }).click();
    const dryResult = page.getByRole('region', { name: 'Dry run: proposal allocation statistics' });
    await expect(dryResult.getByTestId('histogram')).toHaveCount(2);
    await atEachSize(page, () => expectNoOverflow(page));
    await form.getByRole('switch', { name: 'Dry run' }).uncheck();
    await form.getByRole('button', { name: 'Generate' }).click();
    await page.getByRole('dialog', { name: 'Generate the proposal allocation?' }).getByRole('button', { name: 'Generate' }).click();
    const stats = page.getByRole('dialog', { name: 'Proposal allocation statistics' });
    await expect(stats.getByTestId('histogram')).toHaveCount(2);
    await atEachSize(page, async (_phone, viewport) => {
      for (const item of [stats, ...(await stats.getByTestId('histogram').all())]) {
        await expect
          .poll(async () => {
            const box = (await item.boundingBox())!;
            return box.x >= 0 && box.x + box.width <= viewport.width;
          }, 'inside the window')
          .toBe(true);
      }
      await expectFits(page);
    });
    await stats.getByRole('button', { name: 'Close' }).last().click();
    await expect(stats).toBeHidden();
  });

  test('the admin status messages and a user profile with a long Catalyst ID fit', async ({ page, request }) => {
    await login(page, demo.admin, { to: '/admin/status' });
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await atEachSize(page, () => expectFits(page));
    const longId = await registerLongId(request);
    await page.goto(`/admin/users/${encodeURIComponent(longId)}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Invite to level 2' })).toBeVisible();
    await atEachSize(page, () => expectFits(page));
  });

  test('every section of an event configuration fits', async ({ page }) => {
    await login(page, demo.admin, { to: '/admin/events' });
    await list(page, true, 'Events').getByRole('link', { name: 'Configure Fund 15 (demo)' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Fund 15 (demo)' })).toBeVisible();
    const sections = page.getByRole('navigation', { name: 'Event configuration sections' }).getByRole('button');
    const names = await sections.allTextContents();
    expect(names.length).toBeGreaterThanOrEqual(9);
    for (const name of names) {
      await sections.filter({ hasText: name }).click();
      await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
      await atEachSize(page, () => expectNoOverflow(page));
    }
    await atEachSize(page, () => expectAccessible(page));
  });

  test('the profile fits; its subscriptions table says when it scrolls sideways', async ({ page }) => {
    await login(page, demo.reviewer);
    await atEachSize(page, async (phone) => {
      await expect(page.getByRole('table', { name: 'Reviewer subscriptions' })).toBeVisible();
      if (phone) await expect(page.getByTestId('scroll-cue').first()).toBeVisible();
      await expectFits(page);
    });
  });
});
