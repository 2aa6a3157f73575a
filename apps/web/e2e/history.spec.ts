import { expect, test, type APIRequestContext } from './fixtures';
import { allocateModeration, moderate, newModerator, newReviewer, reviewNote, sampleRound, writeReview } from './rounds';
import { adminHeaders, demo, expectAccessible, login } from './support';

const API = '/api/reviews';

/**
 * Issue 28 items 3 and 4: a review's versions with the diff of each note (an admin, the author), and the admin's
 * Audit log tab, its filters kept in the query string and its pages of 25.
 */

/** A round of the test's own with a review written and then edited once (the impact note and a rating changed). */
async function editedReview(request: APIRequestContext) {
  const headers = await adminHeaders(request);
  const round = await sampleRound(request, headers, 'history');
  await round.configure({ reviewer_subscription_enabled: true, review_submission_enabled: true });
  const reviewer = await newReviewer(request, round.row_id);
  const reviewId = await writeReview(request, reviewer.auth, round.proposals[0]!.row_id, 'first');
  const edited = await request.put(`${API}/proposal-reviews/${reviewId}/`, {
    headers: reviewer.auth,
    data: {
      proposal_review_update: {
        impact_alignment_rating_given: 2,
        impact_alignment_note: `${reviewNote('impactfirst')} Rewritten after the town hall`,
        feasibility_rating_given: 3,
        feasibility_note: reviewNote('feasiblefirst'),
        auditability_rating_given: 5,
        auditability_note: reviewNote('auditfirst'),
      },
    },
  });
  expect(edited.status(), await edited.text()).toBe(200);
  return { round, reviewer, reviewId };
}

test.describe('issue 28 item 3: a review’s versions', () => {
  test('an admin reads a review’s versions with the side-by-side diff of the changed note', async ({ page, request }) => {
    const { reviewer, reviewId } = await editedReview(request);
    await login(page, demo.admin, { to: `/review/${reviewId}` });
    await expect(page.getByTestId('review-edited')).toHaveText('edited 1 time');
    const versions = page.getByRole('region', { name: 'Versions', exact: true });
    await expect(versions).toBeVisible();
    const table = versions.getByRole('table', { name: 'Versions of this review' });
    await expect(table.getByRole('row')).toHaveCount(3); // the header, the create and the edit
    await expect(table.getByRole('row').nth(1)).toContainText('Created');
    await expect(table.getByRole('row').nth(2)).toContainText('Edited');
    // An admin sees who by Catalyst ID, never the anonymous id standing in for it.
    await expect(table.getByRole('row').nth(2)).toContainText(reviewer.user.catalystId.replace('id.catalyst://', ''));
    await expect(table).not.toContainText(reviewer.assessor);

    const changes = versions.getByRole('region', { name: 'Changes from version 1 to version 2' });
    await expect(changes.getByText('Rating: 4 → 2')).toBeVisible();
    // The words added show in the new version as an insertion (underlined, named for screen readers), not by colour alone.
    const after = changes.getByRole('group', { name: 'Version 2' });
    await expect(after.locator('ins')).toContainText('Rewritten after the town hall');
    await expect(after.locator('ins')).toContainText('[added:');
    await expect(changes.getByRole('group', { name: 'Version 1' }).locator('ins')).toHaveCount(0);
    // Only the changed criterion is shown: the feasibility note did not change.
    await expect(changes.getByText('Feasibility', { exact: true })).toHaveCount(0);
    await expectAccessible(page);
  });

  test('the author sees their review’s versions, themselves shown by their anonymous id', async ({ page, request }) => {
    const { reviewer, reviewId } = await editedReview(request);
    await login(page, reviewer.user.catalystId, { password: reviewer.user.password, to: `/review/${reviewId}` });
    await expect(page.getByTestId('review-edited')).toHaveText('edited 1 time');
    const table = page.getByRole('table', { name: 'Versions of this review' });
    await expect(table.getByRole('row')).toHaveCount(3);
    await expect(table.getByRole('row').nth(2)).toContainText(reviewer.assessor);
    await expect(table).not.toContainText(reviewer.user.catalystId.replace('id.catalyst://', ''));
    await expect(page.getByRole('region', { name: 'Changes from version 1 to version 2' }).locator('ins')).toContainText(
      'Rewritten after the town hall',
    );
  });

  test('another reviewer sees "edited 1 time" but no versions', async ({ page, request }) => {
    const { round, reviewId } = await editedReview(request);
    const other = await newReviewer(request, round.row_id);
    // The round's reviews are visible to its reviewers while visibility is on.
    await round.configure({ review_visibility_enabled: true, reviewer_subscription_enabled: true, review_submission_enabled: true });
    await login(page, other.user.catalystId, { password: other.user.password, to: `/review/${reviewId}` });
    await expect(page.getByTestId('review-edited')).toHaveText('edited 1 time');
    await expect(page.getByRole('region', { name: 'Versions', exact: true })).toHaveCount(0);
  });
});

test.describe('issue 28 item 3: what a visitor and a moderator see of a review’s history', () => {
  test('a first visitor sees the demo’s past round’s edited review as "edited 1 time", and an admin its diff', async ({
    page,
    request,
  }) => {
    const events = (await (await request.get(`${API}/events/?size=100`)).json()) as { data: { row_id: number; name: string }[] };
    const past = events.data.find((item) => item.name === 'Fund 14 (demo)');
    expect(past, 'the past demo round').toBeTruthy();
    const listed = (await (await request.get(`${API}/proposal-reviews/filtered?event_id=${past!.row_id}&size=100`)).json()) as {
      data: { row_id: number }[];
    };
    const details = await Promise.all(
      listed.data.map(
        async (review) =>
          (await (await request.get(`${API}/proposal-reviews/${review.row_id}/`)).json()) as { row_id: number; edit_count: number },
      ),
    );
    const edited = details.filter((review) => review.edit_count > 0);
    expect(edited.map((review) => review.edit_count)).toEqual([1]);

    await page.goto(`/review/${edited[0]!.row_id}`);
    await expect(page.getByTestId('review-edited')).toHaveText('edited 1 time');
    await expect(page.getByRole('region', { name: 'Versions', exact: true })).toHaveCount(0);

    await login(page, demo.admin, { to: `/review/${edited[0]!.row_id}` });
    const changes = page.getByRole('region', { name: 'Changes from version 1 to version 2' });
    await expect(changes.getByRole('group', { name: 'Version 2' }).locator('ins')).toContainText('milestones are credible');
    await expect(changes.getByRole('group', { name: 'Version 1' }).locator('del')).not.toHaveCount(0);
  });

  test('a moderator reads "This review changed after you moderated it" once the reviewer edits it', async ({ page, request }) => {
    const headers = await adminHeaders(request);
    const round = await sampleRound(request, headers, 'history-moderation');
    await round.configure({ reviewer_subscription_enabled: true, review_submission_enabled: true });
    const reviewer = await newReviewer(request, round.row_id);
    const reviewId = await writeReview(request, reviewer.auth, round.proposals[0]!.row_id, 'moderated');
    const moderator = await newModerator(request, headers, round.row_id, 'history-moderator');
    await round.configure({ reviewer_subscription_enabled: false, review_submission_enabled: true, moderation_submission_enabled: true });
    await allocateModeration(request, headers, round.row_id, { perReview: 1, minSpotChecks: 1 });
    await moderate(request, moderator.auth, reviewId, 1);

    await login(page, moderator.user.catalystId, { password: moderator.user.password, to: `/review/${reviewId}` });
    // The review is loaded (its answer carries the notice's flag too) before the notice's absence is read.
    await expect(page.getByTestId('review-category')).toBeVisible();
    await expect(page.getByText('This review changed after you moderated it')).toHaveCount(0);

    const edited = await request.put(`${API}/proposal-reviews/${reviewId}/`, {
      headers: reviewer.auth,
      data: {
        proposal_review_update: {
          impact_alignment_rating_given: 1,
          impact_alignment_note: reviewNote('impactchanged'),
          feasibility_rating_given: 3,
          feasibility_note: reviewNote('feasiblemoderated'),
          auditability_rating_given: 5,
          auditability_note: reviewNote('auditmoderated'),
        },
      },
    });
    expect(edited.status(), await edited.text()).toBe(200);
    await page.reload();
    await expect(page.getByRole('status').filter({ hasText: 'This review changed after you moderated it' })).toBeVisible();
    await expectAccessible(page);
  });
});

test.describe('issue 28 item 3: a moderation’s versions', () => {
  test('an admin reads the versions of a review’s moderations: the moderator’s first decision and its change', async ({
    page,
    request,
  }) => {
    const headers = await adminHeaders(request);
    const round = await sampleRound(request, headers, 'history-moderations');
    await round.configure({ reviewer_subscription_enabled: true, review_submission_enabled: true });
    const reviewer = await newReviewer(request, round.row_id);
    const reviewId = await writeReview(request, reviewer.auth, round.proposals[0]!.row_id, 'moderations');
    const moderator = await newModerator(request, headers, round.row_id, 'history-moderations');
    await round.configure({ reviewer_subscription_enabled: false, review_submission_enabled: true, moderation_submission_enabled: true });
    await allocateModeration(request, headers, round.row_id, { perReview: 1, minSpotChecks: 1 });
    await moderate(request, moderator.auth, reviewId, 1);
    const own = (await (await request.get(`${API}/moderations/by-review/${reviewId}/`, { headers: moderator.auth })).json()) as {
      row_id: number;
    }[];
    const changed = await request.put(`${API}/moderations/${own[0]!.row_id}/`, {
      headers: moderator.auth,
      data: {
        record_update: {
          review_id: reviewId,
          classification: 0,
          rationale: 'The notes copy another review word for word.',
          predefined_reason: 'similarity',
        },
      },
    });
    expect(changed.status(), await changed.text()).toBe(200);

    await login(page, demo.admin, { to: `/review/${reviewId}` });
    const section = page.getByRole('region', { name: 'Moderation versions' });
    const table = section.getByRole('table', { name: /^Versions of the moderation by / });
    await expect(table.getByRole('row')).toHaveCount(3);
    await expect(table.getByRole('row').nth(1)).toContainText('Created');
    await expect(table.getByRole('row').nth(1)).toContainText('valid');
    await expect(table.getByRole('row').nth(2)).toContainText('Edited');
    await expect(table.getByRole('row').nth(2)).toContainText('similarity');
    await expect(table.getByRole('row').nth(2)).toContainText('The notes copy another review word for word.');
    // Who: the moderator's Catalyst ID, to an admin.
    await expect(table.getByRole('row').nth(2)).toContainText(moderator.user.catalystId.replace('id.catalyst://', ''));
    await expectAccessible(page);
  });
});

test.describe('issue 28 item 4: the audit log tab', () => {
  test('an admin filters the audit log by event and action, the filters kept in the address, and pages through it', async ({
    page,
    request,
  }) => {
    const headers = await adminHeaders(request);
    const round = await sampleRound(request, headers, 'audit');
    // 27 audited configuration changes of this event: two pages of 25.
    for (let n = 0; n < 27; n += 1) await round.configure({ reviewer_subscription_enabled: n % 2 === 0 });

    await login(page, demo.admin, { to: '/admin/events' });
    await page.getByRole('tab', { name: 'Audit log' }).click();
    await expect(page).toHaveURL(/\/admin\/audit$/);
    const table = page.getByRole('table', { name: 'Audit log' });
    for (const column of ['Who', 'When', 'Action', 'Event', 'Parameters and statistics'])
      await expect(table.getByRole('columnheader', { name: column })).toBeVisible();

    await page.getByRole('textbox', { name: 'Event' }).click();
    await page.getByRole('option', { name: round.name }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]event=${round.row_id}`));
    // The event's 30 entries (created, imported, 28 configuration changes), 25 on the first page, all of it.
    await expect(table.getByRole('row').filter({ hasText: round.name })).toHaveCount(25);

    await page.getByRole('textbox', { name: 'Action' }).click();
    // Each action by its name for people, with its id.
    await page.getByRole('option', { name: 'Round switches changed (config.reviews.update)' }).click();
    await expect(page).toHaveURL(/[?&]action=config\.reviews\.update/);
    const rows = table.getByRole('row').filter({ hasText: 'config.reviews.update' });
    await expect(rows).toHaveCount(25);
    await expect(table.getByRole('row').filter({ hasText: 'proposals.import' })).toHaveCount(0);
    await expect(rows.first()).toContainText(round.name);
    await expect(rows.first()).toContainText('Round switches changed');

    // The parameters: the switches before and after, as JSON, on demand.
    await rows.first().getByRole('button', { name: 'Show details' }).click();
    await expect(rows.first().getByText('"reviewer_subscription_enabled"').first()).toBeVisible();

    await page.getByRole('button', { name: '2', exact: true }).click();
    await expect(page).toHaveURL(/[?&]page=1/);
    await expect(table.getByRole('row').filter({ hasText: 'config.reviews.update' })).toHaveCount(2);

    // A reload keeps the filters and the page.
    await page.reload();
    await expect(page.getByRole('textbox', { name: 'Action' })).toHaveValue('Round switches changed (config.reviews.update)');
    await expect(table.getByRole('row').filter({ hasText: 'config.reviews.update' })).toHaveCount(2);
    await expectAccessible(page);
  });
});

test.describe('issue 28 on a phone', () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test('the versions with their diff and the audit log fit a phone’s width', async ({ page, request }) => {
    const { reviewId } = await editedReview(request);
    const pageWidthFits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    await login(page, demo.admin, { to: `/review/${reviewId}` });
    await expect(page.getByRole('region', { name: 'Changes from version 1 to version 2' })).toBeVisible();
    expect(await pageWidthFits()).toBe(true);
    await page.goto('/admin/audit');
    await expect(page.getByRole('table', { name: 'Audit log' }).getByRole('row').nth(1)).toBeVisible();
    expect(await pageWidthFits()).toBe(true);
    await expectAccessible(page);
  });
});
