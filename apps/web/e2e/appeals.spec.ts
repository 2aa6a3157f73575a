import { expect, test, type APIRequestContext } from './fixtures';
import { allocateModeration, moderate, newModerator, newReviewer, sampleRound, writeReview } from './rounds';
import { adminHeaders, demo, expectAccessible, expectToast, login } from './support';

/**
 * Appeals (issue 28 item 2): a reviewer appeals an excluded review and sees the result; a fresh moderator decides an
 * appeal. The round is the test's own (inactive), set up through the API: one reviewer's two reviews, one excluded
 * and one included by the round's moderator, the review outcomes run, appeals on (7 days, 3 decisions), and three
 * fresh moderators who joined after the moderation allocation.
 */

const API = '/api/reviews';
type Headers = Record<string, string>;
const rationale =
  'The moderator read my feasibility note as copied, but every figure in it comes from the proposal itself: the ' +
  'milestones, the budget lines and the team. I wrote it in my own words and checked each number against the ' +
  'proposal before I submitted the review.';

async function appealRound(request: APIRequestContext, what: string) {
  const headers = await adminHeaders(request);
  const round = await sampleRound(request, headers, what);
  await round.configure({ reviewer_subscription_enabled: true, review_submission_enabled: true });
  const reviewer = await newReviewer(request, round.row_id);
  const excluded = await writeReview(request, reviewer.auth, round.proposals[0]!.row_id, 'appealed');
  const included = await writeReview(request, reviewer.auth, round.proposals[1]!.row_id, 'kept');
  const moderator = await newModerator(request, headers, round.row_id, `${what}-moderator`);
  await round.configure({ reviewer_subscription_enabled: false, review_submission_enabled: false, moderation_submission_enabled: true });
  await allocateModeration(request, headers, round.row_id, { perReview: 1, minSpotChecks: 10 });
  await moderate(request, moderator.auth, excluded, 0);
  await moderate(request, moderator.auth, included, 1);
  // Moderation closes; the fresh moderators join after the allocation (an invitation needs subscription open).
  await round.configure({ moderation_submission_enabled: false, reviewer_subscription_enabled: true });
  const settings = await request.put(`${API}/configs/appeals/${round.row_id}/`, {
    headers,
    data: { record_update: { appeals_enabled: true, window_days: 7, decisions_needed: 3 } },
  });
  expect(settings.status(), await settings.text()).toBe(200);
  const fresh = [];
  for (const n of [1, 2, 3]) fresh.push(await newModerator(request, headers, round.row_id, `${what}-fresh-${n}`));
  await round.configure({ reviewer_subscription_enabled: false });
  const outcomes = await request.post(`${API}/proposal-reviews/generate-results`, {
    headers,
    data: {
      results_params: { event_id: round.row_id, validity_threshold: 0.5, acceptance_threshold: 0.5, minimum_sample: 10, dry_run: false },
    },
  });
  expect(outcomes.status(), await outcomes.text()).toBe(200);
  return { headers, round, reviewer, excluded, fresh };
}

async function allocateAppeals(request: APIRequestContext, headers: Headers, eventId: number) {
  const response = await request.post(`${API}/appeals/generate-allocations`, {
    headers,
    data: { allocation_params: { event_id: eventId, appeal_seed: 1, dry_run: false } },
  });
  expect(response.status(), await response.text()).toBe(200);
  expect((await response.json()).tot).toBe(3);
}

async function decide(request: APIRequestContext, auth: Headers, appealId: number, decision: 0 | 1) {
  const reason = decision === 1 ? 'valid' : 'profanity';
  const response = await request.put(`${API}/appeals/${appealId}/decision/`, {
    headers: auth,
    data: { appeal_decision: { decision, rationale: reason, predefined_reason: reason } },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as { status: string };
}

test('a reviewer appeals an excluded review, then sees it upheld on the review and on their profile', async ({ page, request }) => {
  const { headers, round, reviewer, excluded, fresh } = await appealRound(request, 'appeal-reviewer');
  await login(page, reviewer.user.catalystId, { password: reviewer.user.password, to: `/review/${excluded}` });
  const panel = page.getByRole('region', { name: 'Appeal' });
  await expect(panel).toContainText('the appeal window closes earlier if proposal scores are generated');
  const field = panel.getByRole('textbox', { name: /Why should this review be included/ });
  await field.fill('Too short.');
  await panel.getByRole('button', { name: 'Submit appeal' }).click();
  await expect(panel.getByText('Content must be at least 200 characters long (excluding spaces)')).toBeVisible();
  await field.fill(rationale);
  await panel.getByRole('button', { name: 'Submit appeal' }).click();
  await expectToast(page, 'Appeal submitted');
  await expect(panel.getByText('Waiting for moderators')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Submit appeal' })).toHaveCount(0);
  await expectAccessible(page);

  // The moderators decide through the API: two uphold, a majority of three.
  await allocateAppeals(request, headers, round.row_id);
  const state = await (await request.get(`${API}/appeals/by-review/${excluded}/`, { headers: reviewer.auth })).json();
  await decide(request, fresh[0]!.auth, state.appeal.row_id, 1);
  expect((await decide(request, fresh[1]!.auth, state.appeal.row_id, 1)).status).toBe('upheld');

  await page.reload();
  await expect(panel.getByText('Upheld', { exact: true })).toBeVisible();
  await expect(panel).toContainText('the review is now included');
  await expect(panel).toContainText('2 uphold, 0 reject, of 3 moderators');
  // The review's ranking badge follows: included.
  await expect(page.getByText(/^included$/i).first()).toBeVisible();

  await page.goto('/profile');
  const appeals = page.getByRole('table', { name: 'Your appeals' });
  await expect(appeals.getByRole('row').filter({ hasText: round.proposals[0]!.title })).toContainText('Upheld');
});

test('a fresh moderator reads an appeal allocated to them and decides it', async ({ page, request }) => {
  const { headers, round, reviewer, excluded, fresh } = await appealRound(request, 'appeal-moderator');
  const made = await request.post(`${API}/appeals/`, { headers: reviewer.auth, data: { new_appeal: { review_id: excluded, rationale } } });
  expect(made.status(), await made.text()).toBe(201);
  const appealId = ((await made.json()) as { row_id: number }).row_id;
  await allocateAppeals(request, headers, round.row_id);
  // One upholds and one rejects: the third decides.
  await decide(request, fresh[0]!.auth, appealId, 1);
  await decide(request, fresh[1]!.auth, appealId, 0);

  const third = fresh[2]!.user;
  await login(page, third.catalystId, { password: third.password, to: '/appeals' });
  const list = page.getByRole('table', { name: 'Appeals allocated to you' });
  await expect(list.getByRole('row').filter({ hasText: round.proposals[0]!.title })).toContainText('Being decided');
  await expectAccessible(page);
  await list.getByRole('link', { name: round.proposals[0]!.title }).click();
  await expect(page).toHaveURL(new RegExp(`/appeal/${appealId}$`));
  await expect(page.getByText(rationale)).toBeVisible();
  await expect(page.getByText('1 uphold, 1 reject, of 3 moderators')).toBeVisible();
  const form = page.getByRole('region', { name: 'Your decision' });
  await form.getByRole('button', { name: 'Save decision' }).click();
  await expect(form.getByText('classification required')).toBeVisible();
  await form.getByRole('button', { name: 'Uphold' }).click();
  await form.getByRole('radio', { name: "person's own opinion" }).check();
  await form.getByRole('button', { name: 'Save decision' }).click();
  await expectToast(page, 'Decision saved');
  await expect(page.getByText('Upheld', { exact: true })).toBeVisible();
  await expect(page.getByText('2 uphold, 1 reject, of 3 moderators')).toBeVisible();
  await expect(form.getByText('This appeal has been decided; decisions can no longer change.')).toBeVisible();
  await expect(form.getByRole('button', { name: 'Save decision' })).toHaveCount(0);
  await expectAccessible(page);

  const review = await request.get(`${API}/proposal-reviews/${excluded}/`, { headers });
  expect(((await review.json()) as { ranking: number }).ranking).toBe(1);
});

test('an admin sets the appeals up under Review Outcomes, sees the open appeal and allocates it (dry run, then for real)', async ({
  page,
  request,
}) => {
  const { round, reviewer, excluded } = await appealRound(request, 'appeal-admin');
  const made = await request.post(`${API}/appeals/`, { headers: reviewer.auth, data: { new_appeal: { review_id: excluded, rationale } } });
  expect(made.status(), await made.text()).toBe(201);
  await login(page, demo.admin, { to: `/admin/${round.row_id}?section=outcomes` });
  await expect(page.getByRole('heading', { name: 'Review Outcomes', level: 2 })).toBeVisible();

  const settings = page.getByRole('form', { name: 'Appeals', exact: true });
  await expect(settings.getByRole('switch', { name: 'Reviewers may appeal excluded reviews' })).toBeChecked();
  await expect(settings).toContainText('it ends at the latest when proposal scores are generated');
  const decisions = settings.getByRole('textbox', { name: /^Decisions per appeal/ });
  await decisions.fill('2');
  await expect(settings.getByText('Decisions per appeal must be an odd number from 1 to 15.')).toBeVisible();
  await decisions.fill('3');
  await settings.getByRole('textbox', { name: /^Appeal window \(days\)/ }).fill('10');
  await settings.getByRole('button', { name: 'Save appeal settings' }).click();
  await expectToast(page, 'Appeal settings saved');
  const stored = await request.get(`${API}/configs/appeals/${round.row_id}/`, { headers: await adminHeaders(request) });
  expect((await stored.json()).value).toEqual({ appeals_enabled: true, window_days: 10, decisions_needed: 3 });

  const list = page.getByRole('table', { name: 'Appeals of excluded reviews' });
  await expect(list.getByRole('row').filter({ hasText: round.proposals[0]!.title })).toContainText('Waiting for moderators');
  await expectAccessible(page);

  const run = page.getByRole('form', { name: 'Allocate appeals' });
  await run.getByRole('button', { name: 'Allocate appeals' }).click();
  const dry = page.getByRole('region', { name: 'Dry run result' });
  await expect(dry.getByRole('row', { name: 'Open appeals 1', exact: true })).toBeVisible();
  await expect(dry.getByRole('row', { name: 'Allocations 3', exact: true })).toBeVisible();
  await run.getByRole('switch', { name: 'Dry run' }).uncheck();
  await run.getByRole('button', { name: 'Allocate appeals' }).click();
  const confirm = page.getByRole('dialog', { name: 'Allocate the appeals?' });
  await confirm.getByRole('button', { name: 'Allocate' }).click();
  await expectToast(page, 'Appeals allocated');
  const result = page.getByRole('dialog', { name: 'Appeal allocation' });
  await expect(result.getByRole('row', { name: 'Appeals allocated 1', exact: true })).toBeVisible();
  await expectAccessible(page);
  await result.getByRole('button', { name: 'Close' }).last().click();
  await expect(list.getByRole('row').filter({ hasText: round.proposals[0]!.title })).toContainText('Being decided');
});
