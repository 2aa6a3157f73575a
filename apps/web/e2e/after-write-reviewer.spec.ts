import { expect, test, type APIRequestContext, type Page } from './fixtures';
import { acceptModeration, newReviewer, sampleRound, tokenOf, writeReview } from './rounds';
import { activeUser, adminHeaders, expectToast, login } from './support';
import { API, expectReviewToast, freshReviewer, noteField, ownReview, rate, submitValidReview, validReview } from './review-helpers';

/**
 * Issue 26 item 10: after a write, every screen showing a figure it changes shows the new figure, without a reload.
 * Each test visits the screen first (so the app holds its figures), performs the write as a person does, then goes
 * back to the screen inside the app (its navigation, or Back) and reads the new figure from the real server. These
 * are a reviewer's and a moderator's writes; after-write-admin.spec.ts holds the admin's.
 */

const navigation = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });
const goTo = (page: Page, link: string) => navigation(page).getByRole('link', { name: link, exact: true }).click();
const currentStats = (page: Page) => page.getByRole('region', { name: 'Current event stats' });
/** The profile's count of the user's reviews in the current rounds (C-045). */
const submittedNow = (page: Page) => currentStats(page).getByTestId('stat-current-submitted');

async function writeThroughForm(page: Page) {
  await rate(page, 'Impact alignment', 4);
  await rate(page, 'Feasibility', 3);
  await rate(page, 'Auditability (value for money)', 5);
  await noteField(page, 'Impact alignment').fill(validReview.impact_alignment_note);
  await noteField(page, 'Feasibility').fill(validReview.feasibility_note);
  await noteField(page, 'Auditability (value for money)').fill(validReview.auditability_note);
  await ownReview(page).getByRole('button', { name: 'Save review' }).click();
  await expectReviewToast(page, 'Review submitted');
}

/** A moderator (an accepted LV2 invitation) of an inactive round of the test's own, allocated its one review. */
async function allocatedModerator(request: APIRequestContext) {
  const headers = await adminHeaders(request);
  const round = await sampleRound(request, headers, 'after-moderation');
  await round.configure({ reviewer_subscription_enabled: true, review_submission_enabled: true });
  const { auth } = await newReviewer(request, round.row_id);
  const reviewId = await writeReview(request, auth, round.proposals[0]!.row_id, 'moderated');
  const moderator = await activeUser(request);
  const invited = await request.post(`${API}/subscriptions/invite`, {
    headers,
    data: { invitation: { event_id: round.row_id, catalyst_id: moderator.catalystId } },
  });
  expect(invited.status()).toBe(201);
  await acceptModeration(request, await tokenOf(request, moderator), round.row_id, 'after-write-moderator');
  await round.configure({ reviewer_subscription_enabled: false, review_submission_enabled: false, moderation_submission_enabled: true });
  const allocated = await request.post(`${API}/moderations/generate-allocations`, {
    headers,
    data: {
      allocation_params: {
        event_id: round.row_id,
        moderation_seed: 1,
        nr_of_moderations_per_review: 1,
        min_spot_check_per_reviewer: 10,
        dry_run: false,
      },
    },
  });
  expect(allocated.status(), await allocated.text()).toBe(200);
  return { moderator, reviewId };
}

test.describe('a reviewer’s and a moderator’s writes show at once on the screens they change (issue 26 item 10)', () => {
  // C-038, C-045, E-011
  test('a saved review counts in the profile’s current event stats', async ({ page, request }) => {
    const reviewer = await freshReviewer(request);
    const proposal = reviewer.proposals[5]!;
    await login(page, reviewer.user.catalystId, { password: reviewer.user.password, to: `/proposal/${proposal.row_id}` });
    await expect(ownReview(page)).toBeVisible();
    await goTo(page, 'Profile');
    await expect(submittedNow(page)).toHaveText('0');

    await page.goBack();
    await writeThroughForm(page);
    await goTo(page, 'Profile');
    await expect(submittedNow(page)).toHaveText('1');
  });

  // C-038, C-045, E-014
  test('a deleted review no longer counts in the profile’s current event stats', async ({ page, request }) => {
    const reviewer = await freshReviewer(request);
    const proposal = reviewer.proposals[6]!;
    await submitValidReview(request, reviewer, proposal.row_id);
    await login(page, reviewer.user.catalystId, { password: reviewer.user.password, to: `/proposal/${proposal.row_id}` });
    await expect(ownReview(page).getByTestId('own-review-view')).toBeVisible();
    await goTo(page, 'Profile');
    await expect(submittedNow(page)).toHaveText('1');

    await page.goBack();
    await ownReview(page).getByRole('button', { name: 'Delete review' }).click();
    await page.getByRole('dialog', { name: 'Delete your review?' }).getByRole('button', { name: 'Delete' }).click();
    await expectReviewToast(page, 'Review deleted');
    await goTo(page, 'Profile');
    await expect(submittedNow(page)).toHaveText('0');
  });

  // E-011, E-032: the reviewer's own reviews on the community list (My reviews: the demo's stage is moderation open,
  // so the filter is the reviewer's to switch on).
  test('a saved review shows on the community reviews list among the reviewer’s own', async ({ page, request }) => {
    const reviewer = await freshReviewer(request);
    const proposal = reviewer.proposals[8]!;
    const list = page.getByRole('table', { name: 'Reviews', exact: true });
    const myReviews = async () => {
      await goTo(page, 'Reviews');
      // Controlled by the URL: it turns on once the navigation lands.
      await page.getByRole('checkbox', { name: 'My reviews' }).click();
      await expect(page.getByRole('checkbox', { name: 'My reviews' })).toBeChecked();
    };
    await login(page, reviewer.user.catalystId, { password: reviewer.user.password, to: `/proposal/${proposal.row_id}` });
    await expect(ownReview(page)).toBeVisible();
    await myReviews();
    await expect(list).toContainText('No items found.');

    // Back to the proposal (past the list's two entries: unfiltered, then My reviews).
    await page.goBack();
    await page.goBack();
    await writeThroughForm(page);
    await myReviews();
    // One row: the list is narrowed to the reviewer's own (the whole list has many).
    await expect(list.locator('tbody tr')).toHaveCount(1);
    await expect(list.getByRole('link', { name: proposal.title })).toBeVisible();
  });

  // C-010, C-011, C-038: the subscription shows in the profile's table under the modal.
  test('a subscription shows in the profile’s subscriptions', async ({ page, request }) => {
    const user = await activeUser(request);
    await login(page, user.catalystId, user.password);
    const subscriptions = page.getByRole('region', { name: 'Reviewer subscriptions' });
    await expect(subscriptions).toContainText('No subscriptions yet');

    await page.getByRole('button', { name: 'Subscribe' }).click();
    const modal = page.getByRole('dialog', { name: 'Subscribe to Fund 15 (demo)' });
    await modal.getByRole('checkbox', { name: 'I want to be a reviewer' }).check();
    await modal.getByRole('checkbox', { name: 'accept fund rules' }).check();
    await modal.getByRole('button', { name: 'Subscribe' }).click();
    await expectToast(page, 'Subscription successful');
    await modal.getByRole('button', { name: 'Continue' }).click();
    // Other rounds may be open too (other tests make some): the modal moves on to them.
    if (await page.getByRole('dialog').isVisible()) await page.keyboard.press('Escape');
    await expect(page.getByRole('table', { name: 'Reviewer subscriptions' })).toContainText('Fund 15 (demo)');
  });

  test.describe('one moderator of a round of the test’s own', () => {
    // One round for both (the events list keeps the demo rounds on its first page); the totals are read first.
    test.describe.configure({ mode: 'serial' });
    let shared: Awaited<ReturnType<typeof allocatedModerator>> | undefined;
    const moderatorOf = async (request: APIRequestContext) => (shared ??= await allocatedModerator(request));

    // Issue 26 item 16; F-006, F-009: the totals line says it is loading until both totals are known, never '0 of 0'.
    test('the moderated-reviews totals say they are loading until the allocated total is known', async ({ page, request }) => {
      const { moderator } = await moderatorOf(request);
      await login(page, moderator.catalystId, moderator.password);
      // The allocated total (size 1) is held until the line has been read; the server's answer is passed on as it is.
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route(
        (url) => url.pathname === `${API}/proposal-reviews/allocated/` && url.searchParams.get('size') === '1',
        async (route) => {
          await held;
          await route.continue();
        },
      );
      await page.goto('/moderated-reviews');
      const totals = page.getByTestId('moderation-totals');
      await expect(totals).toHaveText('Loading…');
      release();
      await expect(totals).toHaveText('0 moderated of 1 allocated');
    });

    // F-002, F-004, F-030, F-033: a moderation shows on the moderator's allocated list.
    test('a saved moderation shows on the moderator’s allocated list', async ({ page, request }) => {
      const { moderator, reviewId } = await moderatorOf(request);
      await login(page, moderator.catalystId, { password: moderator.password, to: '/allocated-reviews' });
      const list = page.getByRole('table', { name: 'Allocated reviews' });
      const row = list.getByRole('row').filter({ has: page.getByRole('link', { name: `Open review ${reviewId}` }) });
      await expect(row).toContainText('pending moderation');

      await row.getByRole('link', { name: `Open review ${reviewId}` }).click();
      const form = page.getByTestId('moderation-form');
      await form.getByRole('button', { name: 'approved' }).click();
      await form.getByRole('radio', { name: 'valid' }).check();
      await form.getByRole('button', { name: 'Save moderation' }).click();
      await expectToast(page, 'Moderation saved, deleted or edited');
      await page.goBack();
      await expect(row).not.toContainText('pending moderation');
      await expect(row).toContainText('pending');
    });
  });
});
