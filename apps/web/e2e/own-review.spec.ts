import { expect, test, type Page } from './fixtures';
import { newReviewer, sampleRound } from './rounds';
import { activeUser, adminHeaders, expectAccessible, expectToast, login, rewriteJson } from './support';
import {
  API,
  CRITERIA,
  demoRound,
  draftOf,
  expectReviewToast,
  freshReviewer,
  isCall,
  note,
  noteField,
  ownReview,
  rate,
  ratingGroup,
  starName,
  submitValidReview,
  validReview,
} from './review-helpers';

test.describe('own-review form on the single proposal (issue 6, spec §2.12)', () => {
  // Split from one long walk that timed out under load (issue 12): each part starts from its own fresh reviewer.
  // E-008, E-009, E-018, E-020, E-021, E-022; issue 12 item 10 (a note's message waits until the note is left)
  test("a reviewer meets the form empty, and a note's message shows once the note is left", async ({ page, request }) => {
    const reviewer = await freshReviewer(request);
    const proposal = reviewer.proposals[2]!;
    const ownCall = page.waitForRequest(isCall('GET', new RegExp(`/proposals/${proposal.row_id}/submitted-review/$`)));
    await login(page, reviewer.user.catalystId, { password: reviewer.user.password, to: `/proposal/${proposal.row_id}` });
    await ownCall; // E-008
    // E-009: the 404 of a reviewer without a review shows nothing but the empty form.
    await expect(ownReview(page)).toBeVisible();
    await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);

    // E-018: every rating starts at 0; no message before a field is edited.
    for (const criterion of CRITERIA) {
      await expect(ratingGroup(page, criterion).getByRole('radio', { name: starName(0), exact: true })).toBeChecked();
      await expect(noteField(page, criterion)).toHaveValue('');
    }
    await expect(ownReview(page).getByText('Rating must be between 1 and 5')).toHaveCount(0);
    await expect(ownReview(page).getByText(/is required/)).toHaveCount(0);

    // E-020: while the first note is typed only the live count shows; the count leaves out spaces.
    await noteField(page, 'Impact alignment').fill('Too short to count');
    await expect(ownReview(page).getByText('15 / 200–3000 characters (spaces not counted)')).toBeVisible();
    await expect(ownReview(page).getByText('Please provide at least 200 characters')).toHaveCount(0);
    // Once the note is left, its message shows, and only there.
    await noteField(page, 'Feasibility').focus();
    await expect(ownReview(page).getByText('Please provide at least 200 characters')).toHaveCount(1);
    await expect(ownReview(page).getByText('Rating must be between 1 and 5')).toHaveCount(0);
    // E-021, E-022: over 3000 characters without spaces; a note once left follows the typing.
    await noteField(page, 'Impact alignment').fill(note(301));
    await expect(ownReview(page).getByText('Content must not exceed 3000 characters (excluding spaces), currently 3010')).toBeVisible();
    await noteField(page, 'Impact alignment').fill(validReview.impact_alignment_note);
    await expect(ownReview(page).getByText('220 / 200–3000 characters (spaces not counted)')).toBeVisible();
    await expect(ownReview(page).getByText(/Content must not exceed|Please provide at least/)).toHaveCount(0);
  });

  // E-017, E-019; issue 12 item 10 (or on save)
  test('a save attempt with fields missing shows every message and sends nothing', async ({ page, request }) => {
    const reviewer = await freshReviewer(request);
    const proposal = reviewer.proposals[15]!;
    await login(page, reviewer.user.catalystId, { password: reviewer.user.password, to: `/proposal/${proposal.row_id}` });
    await noteField(page, 'Impact alignment').fill(validReview.impact_alignment_note);
    let posts = 0;
    page.on('request', (r) => void (isCall('POST', /\/proposal-reviews\/$/)(r) && (posts += 1)));
    await ownReview(page).getByRole('button', { name: 'Save review' }).click();
    await expect(ownReview(page).getByText('Rating must be between 1 and 5')).toHaveCount(3);
    await expect(ownReview(page).getByText('Feasibility note is required.')).toBeVisible();
    await expect(ownReview(page).getByText('Auditability (value for money) note is required.')).toBeVisible();
    expect(posts).toBe(0);
    await expectAccessible(page);
  });

  // E-002; issue 12 item 4 (the draft is written on every change)
  test('a draft is kept while typing and comes back after a reload', async ({ page, request }) => {
    const reviewer = await freshReviewer(request);
    const proposal = reviewer.proposals[3]!;
    await login(page, reviewer.user.catalystId, { password: reviewer.user.password, to: `/proposal/${proposal.row_id}` });
    await rate(page, 'Impact alignment', 4);
    await noteField(page, 'Impact alignment').fill(validReview.impact_alignment_note);
    await noteField(page, 'Feasibility').fill(validReview.feasibility_note);
    await expect
      .poll(async () => JSON.parse((await draftOf(page, reviewer.user.catalystId, proposal.row_id)) ?? '{}').feasibility_note)
      .toBe(validReview.feasibility_note);
    await page.reload();
    await expect(ownReview(page).getByText('Your unsaved draft was restored.')).toBeVisible();
    await expect(ratingGroup(page, 'Impact alignment').getByRole('radio', { name: '4 stars', exact: true })).toBeChecked();
    await expect(noteField(page, 'Impact alignment')).toHaveValue(validReview.impact_alignment_note);
    await expect(noteField(page, 'Feasibility')).toHaveValue(validReview.feasibility_note);
  });

  // E-004, E-010, E-011, E-015; issue 12 item 9 (which action the toast names)
  test('a reviewer submits a review and edits it', async ({ page, request }) => {
    const reviewer = await freshReviewer(request);
    const proposal = reviewer.proposals[7]!;
    await login(page, reviewer.user.catalystId, { password: reviewer.user.password, to: `/proposal/${proposal.row_id}` });

    // E-011: saving without a row_id creates the review.
    await rate(page, 'Impact alignment', 4);
    await rate(page, 'Feasibility', 3);
    await rate(page, 'Auditability (value for money)', 5);
    await noteField(page, 'Impact alignment').fill(validReview.impact_alignment_note);
    await noteField(page, 'Feasibility').fill(validReview.feasibility_note);
    await noteField(page, 'Auditability (value for money)').fill(validReview.auditability_note);
    const created = page.waitForRequest(isCall('POST', /\/proposal-reviews\/$/));
    await ownReview(page).getByRole('button', { name: 'Save review' }).click();
    expect((await created).postDataJSON()).toEqual({ new_proposal_review: { ...validReview, proposal_id: proposal.row_id } });
    // E-015: the spec's text as the title, the action that happened in the body (DOMAIN.md 14).
    await expectReviewToast(page, 'Review submitted');
    // E-004: view mode shows the saved review.
    const view = ownReview(page).getByTestId('own-review-view');
    await expect(view).toBeVisible();
    await expect(view.getByTestId('rating-impact_alignment')).toContainText('4.0 / 5');
    await expect(view.getByTestId('rating-feasibility')).toContainText('3.0 / 5');
    await expect(view.getByTestId('rating-auditability')).toContainText('5.0 / 5');
    await expect(view.getByText(validReview.auditability_note)).toBeVisible();
    expect(await draftOf(page, reviewer.user.catalystId, proposal.row_id)).toBeNull();
    const saved = (await (await (await created).response())!.json()) as { row_id: number; assessor: string };
    const id = saved.row_id;
    // The proposal's reviews list follows: the new review is in it.
    const card = page.getByRole('article', { name: `Community reviewer ${saved.assessor}` });
    await expect(card).toBeVisible();

    // E-010: saving a review with a row_id updates it.
    await ownReview(page).getByRole('button', { name: 'Edit review' }).click();
    await expect(ratingGroup(page, 'Feasibility').getByRole('radio', { name: '3 stars', exact: true })).toBeChecked();
    await rate(page, 'Feasibility', 2);
    const updated = page.waitForRequest(isCall('PUT', /\/proposal-reviews\/\d+\/$/));
    await ownReview(page).getByRole('button', { name: 'Save review' }).click();
    expect(new URL((await updated).url()).pathname).toBe(`${API}/proposal-reviews/${id}/`);
    expect((await updated).postDataJSON()).toEqual({ proposal_review_update: { ...validReview, feasibility_rating_given: 2, row_id: id } });
    await expect(view.getByTestId('rating-feasibility')).toContainText('2.0 / 5');
    await expectReviewToast(page, 'Review updated');
  });

  // E-012, E-013, E-014, E-015; issue 12 item 9
  test('a reviewer cancels an edit of their review, then deletes it after a confirmation', async ({ page, request }) => {
    const reviewer = await freshReviewer(request);
    const proposal = reviewer.proposals[14]!;
    const { row_id: id, assessor } = await submitValidReview(request, reviewer, proposal.row_id);
    await login(page, reviewer.user.catalystId, { password: reviewer.user.password, to: `/proposal/${proposal.row_id}` });
    const view = ownReview(page).getByTestId('own-review-view');
    const card = page.getByRole('article', { name: `Community reviewer ${assessor}` });
    await expect(card).toBeVisible();

    // E-012: cancel returns to view mode and drops the change.
    await ownReview(page).getByRole('button', { name: 'Edit review' }).click();
    await noteField(page, 'Impact alignment').fill(note(21, 'Unsaved...'));
    await ownReview(page).getByRole('button', { name: 'Cancel' }).click();
    await expect(view.getByText(validReview.impact_alignment_note)).toBeVisible();
    await page.reload();
    await expect(ownReview(page).getByTestId('own-review-view')).toBeVisible();

    // E-013: delete asks first; dismissing the dialog keeps the review.
    let deletes = 0;
    page.on('request', (r) => void (isCall('DELETE', /\/proposal-reviews\/\d+\/$/)(r) && (deletes += 1)));
    await ownReview(page).getByRole('button', { name: 'Delete review' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your review?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect(deletes).toBe(0);
    await expect(view).toBeVisible();

    // E-014: a confirmed delete calls DELETE and leaves an empty form in edit mode.
    await ownReview(page).getByRole('button', { name: 'Delete review' }).click();
    const deleted = page.waitForRequest(isCall('DELETE', /\/proposal-reviews\/\d+\/$/));
    await page.getByRole('dialog', { name: 'Delete your review?' }).getByRole('button', { name: 'Delete' }).click();
    expect(new URL((await deleted).url()).pathname).toBe(`${API}/proposal-reviews/${id}/`);
    await expectReviewToast(page, 'Review deleted'); // E-015
    await expect(ownReview(page).getByTestId('own-review-view')).toHaveCount(0);
    await expect(card).toHaveCount(0);
    for (const criterion of CRITERIA) {
      await expect(ratingGroup(page, criterion).getByRole('radio', { name: starName(0), exact: true })).toBeChecked();
      await expect(noteField(page, criterion)).toHaveValue('');
    }
    await expect(ownReview(page).getByRole('button', { name: 'Save review' })).toBeVisible();
    await expect(ownReview(page).getByRole('button', { name: 'Cancel' })).toHaveCount(0);
  });

  test('a restored draft can be discarded, which empties the form and forgets the draft', async ({ page, request }) => {
    const reviewer = await freshReviewer(request);
    const proposal = reviewer.proposals[5]!;
    await login(page, reviewer.user.catalystId, { password: reviewer.user.password, to: `/proposal/${proposal.row_id}` });
    await rate(page, 'Feasibility', 2);
    await noteField(page, 'Feasibility').fill('A first thought');
    await expect.poll(() => draftOf(page, reviewer.user.catalystId, proposal.row_id)).not.toBeNull();
    await page.reload();
    await expect(noteField(page, 'Feasibility')).toHaveValue('A first thought');
    await ownReview(page).getByRole('button', { name: 'Discard draft' }).click();
    await expect(noteField(page, 'Feasibility')).toHaveValue('');
    await expect(ratingGroup(page, 'Feasibility').getByRole('radio', { name: starName(0), exact: true })).toBeChecked();
    await expect(ownReview(page).getByText('Your unsaved draft was restored.')).toHaveCount(0);
    expect(await draftOf(page, reviewer.user.catalystId, proposal.row_id)).toBeNull();
    await page.reload();
    await expect(noteField(page, 'Feasibility')).toHaveValue('');
  });

  // E-003
  test('the form stays in view while the proposal scrolls on a wide screen, and follows the page on a phone', async ({ page, request }) => {
    const reviewer = await freshReviewer(request);
    const proposal = reviewer.proposals[4]!;
    await page.setViewportSize({ width: 1280, height: 800 });
    await login(page, reviewer.user.catalystId, { password: reviewer.user.password, to: `/proposal/${proposal.row_id}` });
    const column = page.getByTestId('own-review-column');
    await expect(ownReview(page)).toBeVisible();
    expect(await column.evaluate((element) => getComputedStyle(element).position)).toBe('sticky');
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight / 2));
    await expect(ownReview(page).getByRole('heading', { name: 'Your review' })).toBeInViewport();

    await page.setViewportSize({ width: 390, height: 800 });
    await expect.poll(() => column.evaluate((element) => getComputedStyle(element).position)).toBe('static');
  });

  // E-016
  test("a failed save toasts the fixed text (or the server's message) and loses nothing", async ({ page, request }) => {
    const reviewer = await freshReviewer(request);
    const proposal = reviewer.proposals[6]!;
    await login(page, reviewer.user.catalystId, { password: reviewer.user.password, to: `/proposal/${proposal.row_id}` });
    for (const [index, criterion] of CRITERIA.entries()) {
      await rate(page, criterion, index + 2);
      await noteField(page, criterion).fill(note(21));
    }
    await page.route(`**${API}/proposal-reviews/`, (route) =>
      route.fulfill({ status: 500, contentType: 'text/html', body: '<h1>Bad gateway</h1>' }),
    );
    await ownReview(page).getByRole('button', { name: 'Save review' }).click();
    await expectToast(page, 'Error in submitting, updating or deleting a review');
    await expect(noteField(page, 'Auditability (value for money)')).toHaveValue(note(21));
    await expect(ratingGroup(page, 'Auditability (value for money)').getByRole('radio', { name: '4 stars', exact: true })).toBeChecked();
    await expect
      .poll(async () => JSON.parse((await draftOf(page, reviewer.user.catalystId, proposal.row_id)) ?? '{}').auditability_note)
      .toBe(note(21));

    // The toast sits bottom right, over the side column's Save button: a person closes it first.
    await page.locator('.mantine-Notification-root').getByRole('button', { name: 'Close' }).click();
    await page.unroute(`**${API}/proposal-reviews/`);
    await page.route(`**${API}/proposal-reviews/`, (route) =>
      route.fulfill({ status: 403, json: { message: 'Review submission is closed for this event.' } }),
    );
    await ownReview(page).getByRole('button', { name: 'Save review' }).click();
    await expectToast(page, 'Review submission is closed for this event.');
    await expect(ownReview(page).getByTestId('own-review-view')).toHaveCount(0);
  });
});

/** An import file of one proposal by `author` in the objective titled `objective` (the upload's shape, docs/features.md). */
function authoredFile(eventId: number, objective: string, author: string) {
  const entry = (name: string, title: string, properties?: object) => ({
    $ref: `#/definitions/${name}`,
    title,
    ...(properties ? { properties } : {}),
  });
  return {
    format: 'catalyst-voices-proposals/1',
    categories: { objective },
    templates: {
      form: {
        category: 'objective',
        schema: {
          properties: {
            setup: entry('segment', 'Proposal setup', {
              title: entry('section', 'Proposal title', { title: entry('singleLineTextEntry', 'Title') }),
            }),
          },
        },
      },
    },
    documents: [
      {
        id: `authored-${eventId}`,
        ver: '1',
        template: 'form',
        authors: [author],
        payload: { setup: { title: { title: 'The reviewer’s own proposal' } } },
      },
    ],
  };
}

test.describe('who sees the own-review form (spec §2.12, §5, §6)', () => {
  /** Waits until the page knows the event's configuration (the reviews list shows), so an absent form means something. */
  /** Opens a proposal's page; with `signIn`, signs that user in straight onto it (one load of the app). */
  async function openProposal(page: Page, proposalId: number, signIn?: { catalystId: string; password: string }) {
    if (signIn) await login(page, signIn.catalystId, { password: signIn.password, to: `/proposal/${proposalId}` });
    else await page.goto(`/proposal/${proposalId}`);
    await expect(page.getByRole('heading', { level: 2, name: /^Reviews \(\d+\)$/ })).toBeVisible();
  }

  // E-005
  test('a visitor and a logged-in user without a reviewer subscription see no form', async ({ page, request }) => {
    const { proposals } = await demoRound(request);
    await openProposal(page, proposals[0]!.row_id);
    await expect(ownReview(page)).toHaveCount(0);

    const user = await activeUser(request);
    let ownCalls = 0;
    page.on('request', (r) => void (r.url().includes('/submitted-review/') && (ownCalls += 1)));
    await openProposal(page, proposals[0]!.row_id, user);
    await expect(ownReview(page)).toHaveCount(0);
    expect(ownCalls).toBe(0);
  });

  // E-006. Issue 26 item 12: the reviewer really is an author: a proposal of theirs is imported into the round, so the
  // server answers unique_objectives_as_author itself (no rewritten users/me).
  test("a reviewer who is an author in the proposal's objective sees no form there, and sees it in another objective", async ({
    page,
    request,
  }) => {
    const headers = await adminHeaders(request);
    const round = await sampleRound(request, headers, 'author');
    await round.configure({ reviewer_subscription_enabled: true, review_submission_enabled: true });
    const reviewer = await newReviewer(request, round.row_id);
    const authored = round.proposals.find((proposal) => proposal.objective_title !== null)!;
    const other = round.proposals.find(
      (proposal) => proposal.objective_title !== null && proposal.objective_title !== authored.objective_title,
    )!;
    const imported = await request.post(`${API}/proposals/import/${round.row_id}`, {
      headers,
      data: {
        import_options: {
          source: 'file',
          dry_run: false,
          file: authoredFile(round.row_id, authored.objective_title!, reviewer.user.catalystId),
        },
      },
    });
    expect(imported.status(), await imported.text()).toBe(200);
    expect(await imported.json()).toMatchObject({ created: 1, skipped: 0 });

    await openProposal(page, authored.row_id, reviewer.user);
    await expect(ownReview(page)).toHaveCount(0);
    await openProposal(page, other.row_id);
    await expect(ownReview(page)).toBeVisible();
  });

  // E-007, D-025
  test('with review submission off there is no form; with subscription off as well there is no reviews list', async ({ page, request }) => {
    const reviewer = await freshReviewer(request);
    let subscriptionOn = true;
    await rewriteJson(page, `**${API}/configs/reviews/${reviewer.eventId}/`, (json) => {
      json.value.review_submission_enabled = false;
      json.value.reviewer_subscription_enabled = subscriptionOn;
    });
    await openProposal(page, reviewer.proposals[1]!.row_id, reviewer.user);
    await expect(ownReview(page)).toHaveCount(0);

    subscriptionOn = false;
    const config = page.waitForResponse((r) => r.url().includes(`/configs/reviews/${reviewer.eventId}/`));
    await page.reload();
    await config;
    await expect(page.getByRole('heading', { level: 1, name: reviewer.proposals[1]!.title })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: /^Reviews/ })).toHaveCount(0);
    await expect(ownReview(page)).toHaveCount(0);
  });
});

test.describe('the reviews list of a proposal (spec §2.12)', () => {
  // E-035, E-039
  test("a visitor sees the proposal's reviews as cards with the reviewer, level, ranking, ratings, notes and a link", async ({
    page,
    request,
  }) => {
    const reviewer = await freshReviewer(request);
    const proposal = reviewer.proposals[8]!;
    const review = await submitValidReview(request, reviewer, proposal.row_id);
    try {
      const listCall = page.waitForRequest((r) => new URL(r.url()).pathname === `${API}/proposal-reviews/filtered`);
      await page.goto(`/proposal/${proposal.row_id}`);
      const url = new URL((await listCall).url());
      expect(Object.fromEntries(url.searchParams)).toEqual({ proposal_id: String(proposal.row_id), size: '25', page: '0' });
      const card = page.getByRole('article', { name: `Community reviewer ${review.assessor}` });
      await expect(card).toBeVisible();
      await expect(card.getByText('LV0', { exact: true })).toBeVisible();
      await expect(card.getByTestId('review-ranking')).toHaveText('pending moderation');
      await expect(card.getByTestId('rating-impact_alignment')).toContainText('4.0 / 5');
      await expect(card.getByTestId('rating-feasibility')).toContainText('3.0 / 5');
      await expect(card.getByTestId('rating-auditability')).toContainText('5.0 / 5');
      await expect(card.getByText('Overall score: 4.0 / 5')).toBeVisible();
      await expect(card.getByText(validReview.feasibility_note)).toBeVisible();
      await expect(card.getByRole('link', { name: `Open review ${review.row_id}` })).toHaveAttribute('href', `/review/${review.row_id}`);
      await expectAccessible(page);

      // The scroll-to-reviews button reaches the list.
      await page.getByRole('button', { name: 'Scroll to reviews' }).click();
      await expect(card).toBeInViewport();
    } finally {
      await request.delete(`${API}/proposal-reviews/${review.row_id}/`, { headers: reviewer.headers });
    }
  });

  // E-038
  test('a failed list toasts and shows an empty list; an empty answer shows the empty state', async ({ page, request }) => {
    const { proposals } = await demoRound(request);
    await page.route(
      (url) => url.pathname === `${API}/proposal-reviews/filtered`,
      (route) => route.fulfill({ status: 500, contentType: 'text/html', body: '<h1>Bad gateway</h1>' }),
    );
    await page.goto(`/proposal/${proposals[3]!.row_id}`);
    await expectToast(page, 'Error fetching reviews');
    await expect(page.getByRole('heading', { level: 2, name: 'Reviews (0)' })).toBeVisible();
    await expect(page.getByTestId('proposal-reviews').getByText('No items found.')).toBeVisible();

    await page.unroute((url) => url.pathname === `${API}/proposal-reviews/filtered`);
    await page.route(
      (url) => url.pathname === `${API}/proposal-reviews/filtered`,
      (route) => route.fulfill({ json: { data: [], page: { total: 0, size: 25, page: 0 } } }),
    );
    await page.reload();
    await expect(page.getByTestId('proposal-reviews').getByText('No items found.')).toBeVisible();
    await expect(page.getByRole('article')).toHaveCount(0);
  });
});
