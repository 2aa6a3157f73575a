import { expect, test, type APIRequestContext, type Page } from './fixtures';
import { newReviewer, sampleRound, writeReview } from './rounds';
import { adminHeaders, demo, expectAccessible, login } from './support';

/**
 * The round's dashboard (issue 15 item 5): an admin opens an event's configuration and its first section, the
 * Overview, shows the round's figures from the real server. The test works on an event of its own, kept inactive,
 * so the stage other tests see doesn't change.
 */

const API = '/api/reviews';
const DAY = 86_400_000;

/**
 * An inactive event with the sample proposals and a review window from yesterday to a week ahead; two LV0 reviewers
 * write three reviews (4/3/5 each, so each reviewed proposal scores (4 + 3 + 5) / 3 = 4); then the review outcomes
 * (nothing moderated: all three included) and the proposal scores run for real.
 */
async function closedRound(request: APIRequestContext) {
  const headers = await adminHeaders(request);
  const round = await sampleRound(request, headers, 'dashboard');
  const window = { starts_at: new Date(Date.now() - DAY).toISOString(), ends_at: new Date(Date.now() + 7 * DAY).toISOString() };
  await round.configure({
    reviewer_subscription_enabled: true,
    review_submission_enabled: true,
    review_submission_starts_at: window.starts_at,
    review_submission_ends_at: window.ends_at,
  });
  for (const reviewed of [[0, 1], [2]]) {
    const { auth } = await newReviewer(request, round.row_id);
    for (const index of reviewed) await writeReview(request, auth, round.proposals[index]!.row_id, '');
  }
  const outcomes = await request.post(`${API}/proposal-reviews/generate-results`, {
    headers,
    data: {
      results_params: { event_id: round.row_id, validity_threshold: 1, acceptance_threshold: 1, minimum_sample: 10, dry_run: false },
    },
  });
  expect(outcomes.status(), await outcomes.text()).toBe(200);
  const scores = await request.post(`${API}/proposals/generate-results`, {
    headers,
    data: {
      results_params: {
        event_id: round.row_id,
        allocation_weights: { allocated: 0.8, not_allocated: 0.2 },
        level_weights: { level_0: 1, level_1: 1 },
        dry_run: false,
      },
    },
  });
  expect(scores.status(), await scores.text()).toBe(200);
  return { row_id: round.row_id, name: round.name, proposals: round.proposals, window };
}

/** The cells of a table's row whose header cell is `name`. */
const rowOf = (page: Page, table: string, name: string) =>
  page
    .getByRole('table', { name: table })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name, exact: true }) });

test.describe('the round’s dashboard (issue 15 item 5)', () => {
  test('an admin opens the event configuration on its Overview: the round’s figures, each chart with its table', async ({
    page,
    request,
  }) => {
    const round = await closedRound(request);
    await login(page, demo.admin, { to: `/admin/${round.row_id}` });
    const menu = page.getByRole('navigation', { name: 'Event configuration sections' });
    await expect(menu.getByRole('button', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('heading', { level: 2, name: 'Overview' })).toBeVisible();

    // Subscribers: the two reviewers, active at LV0.
    await expect(page.getByText('2 subscriptions', { exact: true })).toBeVisible();
    await expect(rowOf(page, 'Subscribers per level', 'LV0').getByRole('cell')).toHaveText(['2', '2', '0', '0', '0', '0']);
    await expect(rowOf(page, 'Subscribers per level', 'LV2').getByRole('cell')).toHaveText(['0', '0', '0', '0', '0', '0']);

    // Proposals per category, counted from the proposals list.
    await expect(page.getByText(`${round.proposals.length} proposals`, { exact: true })).toBeVisible();
    const category = round.proposals[0]!.objective_title!;
    const inCategory = round.proposals.filter((proposal) => proposal.objective_title === category).length;
    await expect(rowOf(page, 'Proposals per category', category).getByRole('cell')).toHaveText([String(inCategory)]);

    // Nothing allocated; three reviews today, inside the review window.
    await expect(page.getByText('0 of 0 allocated reviews done (0%)')).toBeVisible();
    await expect(rowOf(page, 'Allocations', 'Reviews submitted').getByRole('cell')).toHaveText(['3']);
    const day = (iso: string) => iso.slice(0, 10);
    await expect(page.getByText(`Review window: ${day(round.window.starts_at)} to ${day(round.window.ends_at)}`)).toBeVisible();
    await expect(rowOf(page, 'Reviews submitted per day', day(new Date().toISOString())).getByRole('cell')).toHaveText(['3']);

    // Moderation: none allocated yet.
    await expect(page.getByText('0 of 0 moderation allocations done (0%)')).toBeVisible();

    // Outcomes: nothing moderated, so all three included; scores: three proposals at 4, the rest without a score.
    await expect(page.getByText('3 included, 0 excluded by moderation, 0 excluded by threshold, 0 pending')).toBeVisible();
    await expect(rowOf(page, 'Review outcomes', 'Included').getByRole('cell')).toHaveText(['3']);
    await expect(page.getByText(`3 proposals scored, ${round.proposals.length - 3} without a score`)).toBeVisible();
    await expect(rowOf(page, 'Score distribution', '4.0–4.5').getByRole('cell')).toHaveText(['3']);
    await expect(rowOf(page, 'Score distribution', '3.5–4.0').getByRole('cell')).toHaveText(['0']);

    // The charts are drawn (the bars of the reviews-per-day chart and the outcomes' donut).
    await expect(page.locator('.recharts-bar-rectangle').first()).toBeVisible();
    await expect(page.locator('.recharts-pie-sector').first()).toBeVisible();
    await expectAccessible(page);
  });
});
