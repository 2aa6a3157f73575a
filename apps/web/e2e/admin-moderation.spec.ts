import { expect, test, type APIRequestContext, type Page } from './fixtures';
import { acceptModeration, newReviewer, sampleRound, writeReview } from './rounds';
import { adminHeaders, demo, expectAccessible, expectToast, login } from './support';

/**
 * The admin's moderation runs (spec §2.17, §3, §5, §8; issue 14 items 1 and 2): Compute flags and the Moderation
 * Allocation. The test works on an event of its own, kept inactive, so the stage other tests see doesn't change.
 */

const API = '/api/reviews';

/** An inactive event with the sample proposals, two reviewers with two reviews each (the same notes: similar) and an LV2 moderator. */
async function roundInModeration(request: APIRequestContext) {
  const headers = await adminHeaders(request);
  const round = await sampleRound(request, headers, 'moderation');
  await round.configure({ reviewer_subscription_enabled: true, review_submission_enabled: true });
  const reviewIds: number[] = [];
  for (let r = 0; r < 2; r += 1) {
    const { auth } = await newReviewer(request, round.row_id);
    for (let k = 0; k < 2; k += 1) reviewIds.push(await writeReview(request, auth, round.proposals[r * 2 + k]!.row_id, String(k)));
  }
  // A moderator: every history qualifies for level 2 here, and they accept the invitation.
  const always = {
    min_valid_reviews: 0,
    max_valid_reviews: 10,
    min_perc_valid_reviews: 0,
    max_perc_valid_reviews: 1,
    min_active_funds: 0,
    max_active_funds: 10,
  };
  await request.put(`${API}/configs/reviews-level-qualifiers/${round.row_id}/`, {
    headers,
    data: { record_update: { lv1: always, lv2: always } },
  });
  const { auth: moderator } = await newReviewer(request, round.row_id);
  await acceptModeration(request, moderator, round.row_id, 'e2e-moderator');
  await round.configure({ reviewer_subscription_enabled: false, review_submission_enabled: false });
  return { row_id: round.row_id, name: round.name, reviewIds };
}

async function openSection(page: Page, eventId: number) {
  await login(page, demo.admin, { to: `/admin/${eventId}?section=moderationAllocation` });
  await expect(page.getByRole('heading', { name: 'Moderation Allocation' })).toBeVisible();
}

const allocationForm = (page: Page) => page.getByRole('form', { name: 'Moderation allocation' });

test.describe('the moderation runs of the admin (issue 14 items 1 and 2)', () => {
  // F-047, F-048, F-049, F-050, F-051, F-053, F-054, F-055, F-056, F-057
  test('an admin dry-runs the moderation allocation, then runs it for real after confirming; the form is disabled after', async ({
    page,
    request,
  }) => {
    const event = await roundInModeration(request);
    await openSection(page, event.row_id);
    const form = allocationForm(page);
    const seed = form.getByRole('textbox', { name: /^Moderation seed/ });
    const perReview = form.getByRole('textbox', { name: /^Number of moderations per review/ });
    const spotChecks = form.getByRole('textbox', { name: /^Minimum spot checks per reviewer/ });
    await expect(seed).toHaveValue('1'); // F-047: defaults to 1
    await expect(perReview).toHaveValue('4'); // F-048: defaults to 4
    await expect(spotChecks).toHaveValue('10'); // F-049
    const dryRun = form.getByRole('switch', { name: 'Dry run' });
    await expect(dryRun).toBeChecked(); // F-050
    await expect(dryRun).toBeDisabled(); // enabled only after the first submit attempt
    await expectAccessible(page);

    // Messages only after a field was edited; the form is disabled while invalid (F-053).
    await expect(form.getByText(/must be at least/)).toHaveCount(0);
    await seed.fill('0');
    await expect(form.getByText('Moderation seed must be at least 1.')).toBeVisible();
    await expect(form.getByRole('button', { name: 'Generate' })).toBeDisabled();
    // Issue 26 item 11: required and whole (F-047, F-048). An emptied field says it is required and the form can't be
    // sent; the fields take no decimal point, so '2.5' typed is 25.
    for (const [field, label] of [
      [seed, 'Moderation seed'],
      [perReview, 'Number of moderations per review'],
    ] as const) {
      await field.fill('');
      await expect(form.getByText(`${label} is required.`)).toBeVisible();
      await expect(field).toHaveValue(''); // it used to show its last number again
      await expect(form.getByRole('button', { name: 'Generate' })).toBeDisabled();
      await field.pressSequentially('2.5');
      await expect(field).toHaveValue('25');
      await expect(form.getByText(`${label} is required.`)).toHaveCount(0);
    }
    await seed.fill('1');
    await perReview.fill('4');
    await spotChecks.fill('1');
    await expect(form.getByRole('button', { name: 'Generate' })).toBeEnabled();

    // A dry run runs at once (F-054) and shows the statistics (F-055).
    const dry = page.waitForRequest((r) => r.url().endsWith('/api/reviews/moderations/generate-allocations'));
    await form.getByRole('button', { name: 'Generate' }).click();
    expect((await dry).postDataJSON()).toEqual({
      allocation_params: {
        event_id: event.row_id,
        moderation_seed: 1,
        nr_of_moderations_per_review: 4,
        min_spot_check_per_reviewer: 1,
        dry_run: true,
      },
    });
    const dryResult = page.getByRole('region', { name: 'Dry run: moderation allocation statistics' });
    await expect(dryResult).toBeVisible();
    const stats = dryResult.getByTestId('moderation-allocation-stats');
    for (const row of [
      'Moderation allocations in total',
      'Moderators',
      'Allocations per reviewer',
      'Allocations per review',
      'Allocations per moderator',
    ])
      await expect(stats.getByRole('rowheader', { name: row, exact: true })).toBeVisible();
    await expect(stats.getByRole('row', { name: /^Moderators/ })).toContainText('1');
    for (const column of ['avg', 'min', 'max']) await expect(stats.getByRole('columnheader', { name: column, exact: true })).toBeVisible();
    await expectAccessible(page);

    // A real run asks first (cancel leaves everything as it was), then shows the statistics modal (F-056, F-057).
    await expect(dryRun).toBeEnabled();
    await dryRun.uncheck();
    await form.getByRole('button', { name: 'Generate' }).click();
    const confirm = page.getByRole('dialog', { name: 'Generate the moderation allocation?' });
    await expect(confirm).toContainText('This is not a dry run');
    await expectAccessible(page);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toHaveCount(0);
    await form.getByRole('button', { name: 'Generate' }).click();
    const real = page.waitForRequest((r) => r.url().endsWith('/api/reviews/moderations/generate-allocations'));
    await confirm.getByRole('button', { name: 'Generate' }).click();
    expect((await real).postDataJSON().allocation_params.dry_run).toBe(false);
    await expectToast(page, 'Moderation allocation generated');
    const result = page.getByRole('dialog', { name: 'Moderation allocation statistics' });
    await expect(result.getByTestId('moderation-allocation-stats')).toBeVisible();
    await expectAccessible(page);
    await result.getByRole('button', { name: 'Close' }).last().click();

    // Generated: the form is disabled (F-051, F-053), also after a reload.
    await expect(page.getByTestId('moderation-allocation-generated')).toBeVisible();
    await expect(form.getByRole('button', { name: 'Generate' })).toBeDisabled();
    await expect(seed).toBeDisabled();
    await page.reload();
    await expect(allocationForm(page).getByRole('button', { name: 'Generate' })).toBeDisabled();
    await expect(page.getByTestId('moderation-allocation-generated')).toBeVisible();
  });

  // F-058, F-052
  test('a failed allocation shows its error toast, and a failed config fetch shows one too', async ({ page, request }) => {
    const event = await roundInModeration(request);
    await page.route('**/api/reviews/moderations/generate-allocations', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }),
    );
    await openSection(page, event.row_id);
    await allocationForm(page).getByRole('button', { name: 'Generate' }).click();
    await expectToast(page, 'Error generating moderation allocation'); // F-058
    await page.route(`**/api/reviews/configs/allocations/${event.row_id}/`, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }),
    );
    await page.reload();
    await expectToast(page, 'Error fetching allocation configuration'); // F-052
  });

  // Issue 14 item 1: Compute flags, dry run counts per type; a flags file is checked before it is sent.
  test('an admin computes flags (dry run shows counts per type, then a real run) and loads a flags file', async ({ page, request }) => {
    const event = await roundInModeration(request);
    await openSection(page, event.row_id);
    const flagsForm = page.getByRole('form', { name: 'Compute flags' });
    const dry = page.waitForRequest((r) => r.url().endsWith('/api/reviews/flags/compute'));
    await flagsForm.getByRole('button', { name: 'Compute flags' }).click();
    expect((await dry).postDataJSON().compute_params).toMatchObject({ event_id: event.row_id, dry_run: true });
    const dryResult = page.getByRole('region', { name: 'Dry run: flags per type' });
    const stats = dryResult.getByTestId('flag-stats');
    await expect(stats.getByRole('row', { name: /^Reviews/ })).toContainText('4');
    for (const type of ['Profanity', 'Similarity', 'AI generated (hint)'])
      await expect(stats.getByRole('rowheader', { name: type })).toBeVisible();
    // The two reviewers wrote the same notes: all four reviews are similar to another.
    await expect(stats.getByRole('row', { name: /^Similarity/ })).toHaveText(/^Similarity\s*4$/);
    await expectAccessible(page);

    await flagsForm.getByRole('switch', { name: 'Dry run' }).uncheck();
    await flagsForm.getByRole('button', { name: 'Compute flags' }).click();
    const confirm = page.getByRole('dialog', { name: 'Compute the flags?' });
    await confirm.getByRole('button', { name: 'Compute' }).click();
    await expectToast(page, 'Flags computed');
    const result = page.getByRole('dialog', { name: 'Flags computed' });
    await expect(result.getByTestId('flag-stats')).toBeVisible();
    await result.getByRole('button', { name: 'Close' }).last().click();

    // A file that is not a flags file is refused before it travels.
    const upload = page.getByRole('button', { name: /^Flags file/ });
    await expect(upload).toBeVisible();
    const chooser = page.waitForEvent('filechooser');
    await upload.click();
    await (await chooser).setFiles({ name: 'flags.json', mimeType: 'application/json', buffer: Buffer.from('[{"review_id": "x"}]') });
    await expect(page.getByText(/This file is not a flags file/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Load flags' })).toBeDisabled();
    await expectAccessible(page);

    // A valid file is sent as it was read, and replaces that type's flags.
    const chooser2 = page.waitForEvent('filechooser');
    await upload.click();
    const flags = [{ review_id: event.reviewIds[0]!, flag_type: 2, score: 0.75, related_reviews: [], related_criteria: null }];
    await (await chooser2).setFiles({ name: 'flags.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(flags)) });
    await expect(page.getByText('1 flag ready to load.')).toBeVisible();
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/reviews/flags/import'));
    await page.getByRole('button', { name: 'Load flags' }).click();
    expect((await sent).postDataJSON()).toEqual({ event_id: event.row_id, flags });
    await expectToast(page, 'Flags loaded');
  });
});
