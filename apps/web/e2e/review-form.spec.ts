import { expect, test, type APIRequestContext, type Locator, type Page } from './fixtures';
import { login } from './support';
import {
  API,
  CRITERIA,
  draftOf,
  expectReviewToast,
  freshReviewer,
  note,
  noteField,
  ownReview,
  ratingGroup,
  starName,
  validReview,
} from './review-helpers';

/** Issue 12: what a reviewer hit on the review form, each walked as they walked it. */

type Reviewer = Awaited<ReturnType<typeof freshReviewer>>;

/** A saved review of the reviewer's, written through the API; the test then starts from the view mode. */
async function savedReview(request: APIRequestContext, reviewer: Reviewer, proposalId: number) {
  const created = await request.post(`${API}/proposal-reviews/`, {
    headers: reviewer.headers,
    data: { new_proposal_review: { ...validReview, proposal_id: proposalId } },
  });
  expect(created.status()).toBe(201);
  return (await created.json()) as { row_id: number; assessor: string };
}

/** Where a person's pointer lands on a star: the middle of the star as drawn. */
async function clickStar(page: Page, criterion: (typeof CRITERIA)[number], stars: number) {
  const group = ratingGroup(page, criterion);
  const id = await group.getByRole('radio', { name: starName(stars), exact: true }).getAttribute('id');
  const star = group.locator(`label[for="${id}"]`);
  await star.scrollIntoViewIfNeeded();
  const box = await star.boundingBox();
  expect(box, 'the star is drawn').not.toBeNull();
  await page.mouse.click(box!.x + box!.width / 2, box!.y + box!.height / 2);
}

/** How many lines an element's text takes, from its height and line height. */
async function linesOf(locator: Locator) {
  await expect(locator).toBeVisible();
  return locator.evaluate((element) => {
    const style = getComputedStyle(element);
    const lineHeight = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.55;
    return Math.round(element.getBoundingClientRect().height / lineHeight);
  });
}

/** A field's label as shown, with the required mark after it. */
const labelText = (text: string) => new RegExp(`^${text.replace(/[()]/g, '\\$&')}\\s*\\*?$`);

test.describe('the review form (issue 12)', () => {
  // Issue 12 item 1; E-018 (a new rating starts at 0)
  test('a reviewer gives 1 star by clicking the first star, on a fresh rating and again', async ({ page, request }) => {
    const reviewer = await freshReviewer(request);
    const proposal = reviewer.proposals[9]!;
    await login(page, reviewer.user.catalystId, { password: reviewer.user.password, to: `/proposal/${proposal.row_id}` });
    for (const criterion of CRITERIA) {
      const one = ratingGroup(page, criterion).getByRole('radio', { name: starName(1), exact: true });
      await expect(ratingGroup(page, criterion).getByRole('radio', { name: starName(0), exact: true })).toBeChecked();
      await clickStar(page, criterion, 1);
      await expect(one).toBeChecked();
      await clickStar(page, criterion, 1);
      await expect(one).toBeChecked();
    }
    // And another value after it, as before.
    await clickStar(page, 'Feasibility', 3);
    await expect(ratingGroup(page, 'Feasibility').getByRole('radio', { name: starName(3), exact: true })).toBeChecked();
    await clickStar(page, 'Feasibility', 1);
    await expect(ratingGroup(page, 'Feasibility').getByRole('radio', { name: starName(1), exact: true })).toBeChecked();
  });

  // Issue 12 item 3; E-010, E-014
  test('a review edited, saved, edited again and deleted never comes back as a draft', async ({ page, request }) => {
    const reviewer = await freshReviewer(request);
    const proposal = reviewer.proposals[10]!;
    await savedReview(request, reviewer, proposal.row_id);
    await login(page, reviewer.user.catalystId, { password: reviewer.user.password, to: `/proposal/${proposal.row_id}` });
    const view = ownReview(page).getByTestId('own-review-view');
    const draft = async () => JSON.parse((await draftOf(page, reviewer.user.catalystId, proposal.row_id)) ?? 'null');

    // An edit that is saved leaves no draft behind.
    await view.getByRole('button', { name: 'Edit review' }).click();
    const edited = note(24, 'Reconsider');
    await noteField(page, 'Feasibility').fill(edited);
    await expect.poll(async () => (await draft())?.feasibility_note).toBe(edited);
    await ownReview(page).getByRole('button', { name: 'Save review' }).click();
    await expectReviewToast(page, 'Review updated');
    await expect(view.getByText(edited)).toBeVisible();
    expect(await draft()).toBeNull();

    // An edit that ends in a delete: the draft goes with the review.
    await view.getByRole('button', { name: 'Edit review' }).click();
    const second = note(25, 'Secondlook');
    await noteField(page, 'Impact alignment').fill(second);
    await expect.poll(async () => (await draft())?.impact_alignment_note).toBe(second);
    await ownReview(page).getByRole('button', { name: 'Delete review' }).click();
    await page.getByRole('dialog', { name: 'Delete your review?' }).getByRole('button', { name: 'Delete' }).click();
    await expectReviewToast(page, 'Review deleted');
    await expect(ownReview(page).getByRole('button', { name: 'Save review' })).toBeVisible();
    await expect(ownReview(page).getByText('Your unsaved draft was restored.')).toHaveCount(0);
    for (const criterion of CRITERIA) {
      await expect(noteField(page, criterion)).toHaveValue('');
      await expect(ratingGroup(page, criterion).getByRole('radio', { name: starName(0), exact: true })).toBeChecked();
    }
    expect(await draft()).toBeNull();

    await page.reload();
    await expect(noteField(page, 'Impact alignment')).toHaveValue('');
    await expect(noteField(page, 'Feasibility')).toHaveValue('');
    await expect(ownReview(page).getByText('Your unsaved draft was restored.')).toHaveCount(0);
  });

  // Issue 12 item 4; E-002 (the draft)
  test('what was typed is what a reload restores, to the last keystroke', async ({ page, request }) => {
    const reviewer = await freshReviewer(request);
    const proposal = reviewer.proposals[11]!;
    await login(page, reviewer.user.catalystId, { password: reviewer.user.password, to: `/proposal/${proposal.row_id}` });
    const text = 'The impact is clear, and the very last words count too';
    await noteField(page, 'Impact alignment').click();
    await page.keyboard.type(text);
    // Written with every keystroke: nothing waits for a pause in the typing.
    expect(JSON.parse((await draftOf(page, reviewer.user.catalystId, proposal.row_id)) ?? '{}').impact_alignment_note).toBe(text);
    await page.reload();
    await expect(noteField(page, 'Impact alignment')).toHaveValue(text);
    await expect(ownReview(page).getByText('Your unsaved draft was restored.')).toBeVisible();
  });

  // Issue 12 item 7; E-003
  test('at 1366 px the form has room beside a readable proposal: ratings and labels stay on one line', async ({ page, request }) => {
    const reviewer = await freshReviewer(request);
    const proposal = reviewer.proposals[12]!;
    await savedReview(request, reviewer, proposal.row_id);
    await page.setViewportSize({ width: 1366, height: 900 });
    await login(page, reviewer.user.catalystId, { password: reviewer.user.password, to: `/proposal/${proposal.row_id}` });
    const view = ownReview(page).getByTestId('own-review-view');
    await expect(view).toBeVisible();

    // Side by side: the proposal keeps a readable measure, the form is no narrow strip.
    const heading = await page.getByRole('heading', { level: 1, name: proposal.title }).boundingBox();
    const form = await page.getByTestId('own-review-column').boundingBox();
    expect(heading && form).toBeTruthy();
    expect(form!.x).toBeGreaterThan(heading!.x + 500);
    expect(form!.width).toBeGreaterThanOrEqual(420);

    for (const key of ['impact_alignment', 'feasibility', 'auditability']) {
      expect(await linesOf(view.getByTestId(`rating-${key}`).getByTestId('rating-value')), `${key} value`).toBe(1);
    }
    expect(await linesOf(view.getByText('Auditability (value for money)', { exact: true }))).toBe(1);
    await expect(view.getByTestId('rating-auditability').getByTestId('rating-value')).toHaveText('5.0 / 5');

    await view.getByRole('button', { name: 'Edit review' }).click();
    for (const criterion of CRITERIA) {
      expect(await linesOf(ownReview(page).getByText(labelText(`${criterion} rating`))), `${criterion} rating label`).toBe(1);
      expect(await linesOf(ownReview(page).getByText(labelText(`${criterion} note`))), `${criterion} note label`).toBe(1);
    }
  });
});

test.describe('a single review offers its author Edit and Delete (issue 12 item 11)', () => {
  // Issue 12 item 11; E-013, E-014, E-015
  test('the author edits from the review page and deletes there; a visitor sees neither', async ({ page, request, browser }) => {
    const reviewer = await freshReviewer(request);
    const proposal = reviewer.proposals[13]!;
    const review = await savedReview(request, reviewer, proposal.row_id);

    const visitor = await browser.newPage();
    try {
      await visitor.goto(`/review/${review.row_id}`);
      await expect(visitor.getByRole('heading', { level: 1, name: proposal.title })).toBeVisible();
      await expect(visitor.getByRole('button', { name: 'Delete review' })).toHaveCount(0);
      await expect(visitor.getByRole('link', { name: 'Edit review' })).toHaveCount(0);
    } finally {
      await visitor.close();
    }

    await login(page, reviewer.user.catalystId, { password: reviewer.user.password, to: `/review/${review.row_id}` });
    await page.getByRole('link', { name: 'Edit review' }).click();
    await expect(page).toHaveURL(new RegExp(`/proposal/${proposal.row_id}$`));
    // The form opens in edit mode with the saved review.
    await expect(noteField(page, 'Feasibility')).toHaveValue(validReview.feasibility_note);
    await expect(ownReview(page).getByRole('button', { name: 'Save review' })).toBeVisible();

    await page.goto(`/review/${review.row_id}`);
    await page.getByRole('button', { name: 'Delete review' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your review?' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expectReviewToast(page, 'Review deleted');
    await expect(page).toHaveURL(new RegExp(`/proposal/${proposal.row_id}$`));
    await expect(noteField(page, 'Feasibility')).toHaveValue('');
    const gone = await request.get(`${API}/proposal-reviews/${review.row_id}/`);
    expect(gone.status()).toBe(404);
  });
});
