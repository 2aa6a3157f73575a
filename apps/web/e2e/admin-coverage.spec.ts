import { expect, test, type APIRequestContext, type Page } from './fixtures';
import { allocateModeration, moderate, newModerator, newReviewer, sampleRound, writeReview } from './rounds';
import { adminHeaders, demo, expectAccessible, expectToast, login } from './support';

/**
 * Issue 28 item 1: moderation coverage. On an event of its own (inactive): four reviews allocated to two moderators
 * each; the first moderator includes all four, the second excludes the first review and does nothing more. So three
 * reviews have one of their two moderations and the first is a tie. A third moderator subscribes afterwards.
 */
async function roundWithGaps(request: APIRequestContext) {
  const headers = await adminHeaders(request);
  const round = await sampleRound(request, headers, 'coverage');
  await round.configure({ reviewer_subscription_enabled: true, review_submission_enabled: true });
  const reviewIds: number[] = [];
  for (let r = 0; r < 2; r += 1) {
    const { auth } = await newReviewer(request, round.row_id);
    for (let k = 0; k < 2; k += 1) reviewIds.push(await writeReview(request, auth, round.proposals[r * 2 + k]!.row_id, `cov${r}x${k}`));
  }
  const first = await newModerator(request, headers, round.row_id, 'e2e-coverage-first');
  const second = await newModerator(request, headers, round.row_id, 'e2e-coverage-second');
  await allocateModeration(request, headers, round.row_id, { perReview: 2, minSpotChecks: 2 });
  // Subscription stays open: the third moderator is invited after the allocation.
  await round.configure({ reviewer_subscription_enabled: true, review_submission_enabled: false, moderation_submission_enabled: true });
  for (const reviewId of reviewIds) await moderate(request, first.auth, reviewId, 1);
  await moderate(request, second.auth, reviewIds[0]!, 0);
  await newModerator(request, headers, round.row_id, 'e2e-coverage-fresh');
  await round.configure({ reviewer_subscription_enabled: false, review_submission_enabled: false, moderation_submission_enabled: true });
  return { id: round.row_id };
}

const figure = (page: Page, name: string) =>
  page.getByRole('table', { name: 'Coverage' }).getByRole('row', { name: new RegExp(`^${name}`) });

test.describe('moderation coverage (issue 28 item 1)', () => {
  test('an admin sees the coverage, dry-runs a top-up and tops up; the figures change, and the outcomes warn', async ({
    page,
    request,
  }) => {
    const event = await roundWithGaps(request);
    await login(page, demo.admin, { to: `/admin/${event.id}?section=moderationAllocation` });
    await expect(page.getByRole('heading', { name: 'Moderation coverage' })).toBeVisible();

    // The figures, counted from the planted round.
    await expect(figure(page, 'Moderations asked per review')).toContainText('2');
    await expect(figure(page, 'Reviews allocated for moderation')).toContainText('4');
    await expect(figure(page, 'Reviews with fewer moderations than allocated')).toContainText('3');
    await expect(figure(page, 'Ties')).toContainText('1');
    await expect(figure(page, 'Moderators with unfinished allocations')).toContainText('1');
    await expect(figure(page, 'Unfinished allocations')).toContainText('3');
    await expect(figure(page, 'Moderations a top-up would allocate')).toContainText('4');
    await expect(figure(page, 'Top-up runs')).toContainText('0');
    // The lists: the short reviews, then the tie.
    const shortList = page.getByRole('table', { name: '3 reviews with fewer moderations than allocated' });
    await expect(shortList.getByRole('row')).toHaveCount(4);
    await page.getByRole('tab', { name: 'Ties (1)' }).click();
    await expect(page.getByRole('table', { name: '1 tied review' }).getByRole('row')).toHaveCount(2);
    await page.getByRole('tab', { name: 'Unfinished moderators (1)' }).click();
    await expect(page.getByRole('table', { name: '1 moderator with unfinished allocations' }).getByRole('row')).toHaveCount(2);
    await expectAccessible(page);

    // A dry run answers at once and writes nothing.
    const form = page.getByRole('form', { name: 'Top up moderation coverage' });
    await expect(form.getByRole('textbox', { name: /^Top-up seed/ })).toHaveValue('1');
    await expect(form.getByRole('switch', { name: 'One more moderation for each tie' })).toBeChecked();
    const dry = page.waitForRequest((r) => r.url().endsWith('/api/reviews/moderations/top-up'));
    await form.getByRole('button', { name: 'Top up' }).click();
    expect((await dry).postDataJSON()).toEqual({ top_up_params: { event_id: event.id, top_up_seed: 1, break_ties: true, dry_run: true } });
    const dryResult = page.getByRole('region', { name: 'Dry run: top-up statistics' });
    await expect(dryResult.getByRole('row', { name: /^Moderations needed/ })).toContainText('4');
    await expect(dryResult.getByRole('row', { name: /^Allocations added/ }).first()).toContainText('4');
    await expect(dryResult.getByRole('row', { name: /^Eligible moderators/ })).toContainText('3');
    await expect(figure(page, 'Top-up runs')).toContainText('0');
    await expectAccessible(page);

    // The real run, after the warning.
    await form.getByRole('switch', { name: 'Dry run' }).uncheck();
    await form.getByRole('button', { name: 'Top up' }).click();
    const confirm = page.getByRole('dialog', { name: 'Top up the moderation coverage?' });
    await expect(confirm).toContainText('This is not a dry run');
    await confirm.getByRole('button', { name: 'Top up' }).click();
    await expectToast(page, 'Moderation coverage topped up');
    const result = page.getByRole('dialog', { name: 'Top-up statistics' });
    await expect(result.getByRole('row', { name: /^Moderations needed/ })).toContainText('4');
    await result.getByRole('button', { name: 'Close' }).last().click();

    // The figures follow at once: what was missing is allocated, to the fresh moderator.
    await expect(figure(page, 'Moderations a top-up would allocate')).toContainText('0');
    await expect(figure(page, 'Top-up runs')).toContainText('1');
    await expect(figure(page, 'Allocations added by top-ups')).toContainText('4');
    await expect(figure(page, 'Unfinished allocations')).toContainText('7');
    await expect(figure(page, 'Moderators with unfinished allocations')).toContainText('2');
    await expect(figure(page, 'Reviews with fewer moderations than allocated')).toContainText('3');

    // The Overview's figure.
    await page.getByRole('button', { name: 'Overview' }).click();
    await expect(page.getByText('3 reviews have fewer moderations than allocated (25 % complete, 2 asked per review).')).toBeVisible();

    // Review Outcomes warns, in the dry run's result and in the confirmation, but does not block.
    await page.getByRole('button', { name: 'Review Outcomes' }).click();
    const outcomes = page.getByRole('form', { name: 'Review outcomes' });
    await outcomes.getByRole('button', { name: 'Generate' }).click();
    const outcomeDry = page.getByRole('region', { name: 'Dry run: review outcome statistics' });
    await expect(outcomeDry.getByText('3 reviews have fewer moderations than allocated.')).toBeVisible();
    await outcomes.getByRole('switch', { name: 'Dry run' }).uncheck();
    await outcomes.getByRole('button', { name: 'Generate' }).click();
    const outcomeConfirm = page.getByRole('dialog', { name: 'Generate the review outcomes?' });
    await expect(outcomeConfirm.getByText('3 reviews have fewer moderations than allocated.')).toBeVisible();
    await expect(outcomeConfirm.getByRole('button', { name: 'Generate' })).toBeEnabled();
    await expectAccessible(page);
    await outcomeConfirm.getByRole('button', { name: 'Cancel' }).click();
  });
});
