import { expect, test, type APIRequestContext, type Page, type Request } from './fixtures';
import { DEBOUNCE_MS, typeDebounced } from './debounce';
import { allocateModeration, newModerator, newReviewer as newRoundReviewer, sampleRound, writeReview as writeRoundReview } from './rounds';
import { activeUser, adminHeaders, expectAccessible, expectToast, login, presentReviewOpenStage, rewriteJson } from './support';

/*
 * The community reviews list (spec §2.13) and a single review (spec §2.15), issue 6. Each test writes its own reviews
 * through the API as a fresh reviewer of the demo round, and narrows the list to that reviewer's anonymous id, so
 * other tests' reviews on the shared server never change what it sees.
 */

const API = '/api/reviews';
const isListCall = (request: Request) => new URL(request.url()).pathname === `${API}/proposal-reviews/filtered`;
const listCall = (page: Page, check: (query: URLSearchParams) => boolean = () => true) =>
  page.waitForRequest((request) => isListCall(request) && check(new URL(request.url()).searchParams));
const table = (page: Page) => page.getByRole('table', { name: 'Reviews', exact: true });
const bodyRows = (page: Page) => table(page).locator('tbody tr');
const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });

/** Over 200 characters without spaces, with a line break that the review page must keep. */
const note = (label: string) =>
  `${label}: the proposal states its goal clearly and the budget is broken down by role and month.\nSecond line: the milestones end with evidence that the community can check, and the team has delivered similar work before, which makes the plan believable and easy to audit over its whole duration.`;

interface Reviewer {
  token: string;
  anonymousId: string;
  catalystId: string;
  password: string;
}

async function demoRound(request: APIRequestContext): Promise<number> {
  const events = (await (await request.get(`${API}/events/current/`)).json()) as { row_id: number; name: string }[];
  return events.find((event) => event.name === 'Fund 15 (demo)')!.row_id;
}

async function demoProposals(
  request: APIRequestContext,
  eventId: number,
): Promise<{ row_id: number; title: string; objective_title: string | null }[]> {
  const response = await request.get(`${API}/proposals/?size=100&page=0&event_id=${eventId}`);
  expect(response.ok()).toBeTruthy();
  return (await response.json()).data;
}

/** A fresh user, logged in through the API and subscribed as a reviewer of the demo round. */
async function newReviewer(request: APIRequestContext): Promise<Reviewer & { eventId: number }> {
  const user = await activeUser(request);
  const login = await request.post(`${API}/users/token/login`, { form: { username: user.catalystId, password: user.password } });
  const token = (await login.json()).access_token as string;
  const eventId = await demoRound(request);
  const subscribed = await request.post(`${API}/subscriptions/`, {
    headers: { authorization: `Bearer ${token}` },
    data: { new_subscription: { want_to_be_reviewer: true, fund_rules_acceptance: true, preferred_categories: [], event_id: eventId } },
  });
  expect(subscribed.ok(), await subscribed.text()).toBeTruthy();
  const subscriptions = (await subscribed.json()) as { event_id: number; extra: { anonymous_id: string } }[];
  const anonymousId = subscriptions.find((item) => item.event_id === eventId)!.extra.anonymous_id;
  return { token, anonymousId, catalystId: user.catalystId, password: user.password, eventId };
}

interface CreatedReview {
  row_id: number;
  proposal_id: number;
  proposal: { title: string; category: string | null };
  assessor: string;
  assessor_level: number;
}

async function writeReview(
  request: APIRequestContext,
  reviewer: Reviewer,
  proposalId: number,
  ratings: [number, number, number] = [4, 3, 5],
): Promise<CreatedReview> {
  const response = await request.post(`${API}/proposal-reviews/`, {
    headers: { authorization: `Bearer ${reviewer.token}` },
    data: {
      new_proposal_review: {
        proposal_id: proposalId,
        impact_alignment_rating_given: ratings[0],
        impact_alignment_note: note('Impact'),
        feasibility_rating_given: ratings[1],
        feasibility_note: note('Feasibility'),
        auditability_rating_given: ratings[2],
        auditability_note: note('Auditability'),
      },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return response.json();
}

/** A reviewer and `count` reviews of theirs, on different proposals of the demo round. */
async function reviewerWithReviews(request: APIRequestContext, count = 1, withCategory = false) {
  const reviewer = await newReviewer(request);
  // One demo proposal has no category: a test that filters by objective leaves it out (it failed one run in 31).
  const proposals = (await demoProposals(request, reviewer.eventId)).filter((proposal) => !withCategory || proposal.objective_title);
  const offset = Math.floor(Math.random() * proposals.length);
  const reviews: CreatedReview[] = [];
  for (let index = 0; index < count; index += 1)
    reviews.push(await writeReview(request, reviewer, proposals[(offset + index) % proposals.length]!.row_id));
  return { reviewer, reviews };
}

/**
 * Two reviews of a fresh reviewer listed on /reviews, with the page's clock installed and then paused: the debounces
 * of what a test types next run only when the test lets the clock run (issue 26 item 15).
 */
async function twoReviewsOnStandingClock(page: Page, request: APIRequestContext) {
  const { reviewer, reviews } = await reviewerWithReviews(request, 2);
  const [kept, other] = reviews as [CreatedReview, CreatedReview];
  await page.clock.install();
  await page.goto(`/reviews?assessors=${reviewer.anonymousId}`);
  await expect(bodyRows(page)).toHaveCount(2);
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 2_000);
  return { reviewer, kept, other };
}

async function addTag(page: Page, name: string, value: string) {
  await field(page, name).fill(value);
  await field(page, name).press('Enter');
}

test.describe('reviews list (issue 6, spec §2.13)', () => {
  // E-001, E-026, E-027, E-028, E-029, E-033, E-035, E-036
  test('a visitor filters the list: kept in the query string on reload, repeated array keys, cleared, and opens a review', async ({
    page,
    request,
  }) => {
    const { reviewer, reviews } = await reviewerWithReviews(request);
    const review = reviews[0]!;

    const first = listCall(page);
    await page.goto('/reviews');
    const initial = new URL((await first).url()).searchParams;
    expect(initial.get('size')).toBe('25'); // E-035
    expect(initial.get('page')).toBe('0');
    expect(initial.getAll('rankings')).toEqual(['0']); // E-033: review submission is open in the demo round
    expect(initial.has('my_reviews')).toBe(false); // E-032: a visitor has no my_reviews
    await expect(page.getByRole('checkbox', { name: 'My reviews' })).toHaveCount(0);
    for (const name of ['ID', 'Proposal title', 'Assessor', 'Ranking', 'Ratings'])
      await expect(table(page).getByRole('columnheader', { name, exact: true })).toBeVisible(); // E-026
    await expectAccessible(page);

    // E-029: proposal id (debounced), assessors (a tag input), rankings (a multi-select): each lands in the query string.
    const byProposal = listCall(page, (query) => query.get('proposal_id') === String(review.proposal_id));
    await field(page, 'Proposal id').fill(String(review.proposal_id));
    await byProposal;
    const byAssessor = listCall(page, (query) => query.getAll('assessors').includes(reviewer.anonymousId));
    await addTag(page, 'Assessors', reviewer.anonymousId);
    await byAssessor;
    const byRankings = listCall(page, (query) => query.getAll('rankings').length === 2);
    await field(page, 'Rankings').click();
    await page.getByRole('option', { name: 'included', exact: true }).click();
    await page.keyboard.press('Escape');
    const ranked = new URL((await byRankings).url()).searchParams;
    // E-036: each value of an array filter repeats its key.
    expect(ranked.getAll('rankings')).toEqual(['0', '1']);
    expect(ranked.getAll('assessors')).toEqual([reviewer.anonymousId]);
    expect(ranked.get('proposal_id')).toBe(String(review.proposal_id));
    await expect(page).toHaveURL(new RegExp(`proposal_id=${review.proposal_id}.*assessors=${reviewer.anonymousId}.*rankings=0&rankings=1`));
    await expect(bodyRows(page)).toHaveCount(1);
    await expect(table(page).getByRole('link', { name: `Open review ${review.row_id}` })).toBeVisible();
    await expect(table(page).getByRole('link', { name: review.proposal.title })).toHaveAttribute('href', `/proposal/${review.proposal_id}`);
    await expect(bodyRows(page).first()).toContainText(`${reviewer.anonymousId}LV0`);
    await expect(bodyRows(page).first()).toContainText('pending moderation'); // E-041
    await expect(bodyRows(page).first()).toContainText('4.0'); // E-024: one decimal
    await expect(bodyRows(page).first()).toContainText('Overall 4.0');

    // E-027: a reload keeps every filter, in the fields and in the request.
    const reloaded = listCall(page);
    await page.reload();
    const again = new URL((await reloaded).url()).searchParams;
    expect(again.getAll('rankings')).toEqual(['0', '1']);
    expect(again.getAll('assessors')).toEqual([reviewer.anonymousId]);
    await expect(field(page, 'Proposal id')).toHaveValue(String(review.proposal_id));
    await expect(page.locator('.mantine-Pill-label', { hasText: 'included' })).toBeVisible();
    await expect(bodyRows(page)).toHaveCount(1);

    // E-028: clear resets every filter to its default.
    const cleared = listCall(page, (query) => !query.has('assessors') && !query.has('proposal_id'));
    await page.getByRole('button', { name: 'Clear filters' }).click();
    expect(new URL((await cleared).url()).searchParams.getAll('rankings')).toEqual(['0']);
    await expect(page).toHaveURL(/\/reviews$/);
    await expect(field(page, 'Proposal id')).toHaveValue('');
    await expect(page.getByRole('button', { name: 'Clear filters' })).toBeDisabled();

    // Back to the one review, then open it.
    await page.goBack();
    await expect(page).toHaveURL(/assessors=/);
    await table(page)
      .getByRole('link', { name: `Open review ${review.row_id}` })
      .click();
    await expect(page).toHaveURL(new RegExp(`/review/${review.row_id}$`));
    await expect(page.getByRole('heading', { level: 1, name: review.proposal.title })).toBeVisible();
  });

  // E-027, E-029, A-141
  test('the title filter is debounced (300 ms) and trimmed: one request once typing stops', async ({ page, request }) => {
    const { reviewer, reviews } = await reviewerWithReviews(request);
    const review = reviews[0]!;
    const calls: URLSearchParams[] = [];
    page.on('request', (call) => {
      if (isListCall(call)) calls.push(new URL(call.url()).searchParams);
    });
    await page.clock.install();
    await page.goto(`/reviews?assessors=${reviewer.anonymousId}`);
    await expect(bodyRows(page)).toHaveCount(1);
    await expect(table(page).getByRole('link', { name: `Open review ${review.row_id}` })).toBeVisible();

    // Typed on a standing page clock (see typeDebounced): one request, once typing stops, with the trimmed text.
    const part = review.proposal.title.slice(0, 10);
    const before = calls.length;
    const byTitle = listCall(page, (query) => query.has('proposal'));
    await typeDebounced(page, field(page, 'Proposal title'), [`  ${part.slice(0, 5)}`, `${part.slice(5)}  `], () =>
      expect.poll(() => new URL(page.url()).searchParams.get('proposal')).toBe(part.trim()),
    );
    expect(new URL((await byTitle).url()).searchParams.get('proposal')).toBe(part.trim());
    await expect(bodyRows(page)).toHaveCount(1);
    expect(
      calls
        .slice(before)
        .filter((query) => query.has('proposal'))
        .map((query) => query.get('proposal')),
    ).toEqual([part.trim()]);
  });

  // E-027, E-029, E-036
  test('objective and include_pending reach the request and survive a reload, with the title', async ({ page, request }) => {
    const { reviewer, reviews } = await reviewerWithReviews(request, 1, true);
    const review = reviews[0]!;
    const part = review.proposal.title.slice(0, 10).trim();
    await page.goto(`/reviews?assessors=${reviewer.anonymousId}&proposal=${encodeURIComponent(part)}`);
    await expect(table(page).getByRole('link', { name: `Open review ${review.row_id}` })).toBeVisible();
    await expect(field(page, 'Proposal title')).toHaveValue(part);

    // The objective is one of the current rounds' categories, sent as its id. Typing narrows the options, and the
    // option is looked up inside the open list only (a role query over the whole page is slow on a busy machine).
    // A title that two current rounds share names its round (the demo's two current rounds share their categories).
    const category = review.proposal.category!;
    const eventName = ((await (await request.get(`/api/reviews/events/${reviewer.eventId}/`)).json()) as { name: string }).name;
    const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const label = new RegExp(`^${escape(category)}( \\(${escape(eventName)}\\))?$`);
    const byObjective = listCall(page, (query) => query.has('objective'));
    await field(page, 'Objective').fill(category);
    await page.getByRole('listbox', { name: 'Objective' }).getByRole('option', { name: label }).click();
    expect(Number(new URL((await byObjective).url()).searchParams.get('objective'))).toBeGreaterThan(0);
    await expect(table(page).getByRole('link', { name: `Open review ${review.row_id}` })).toBeVisible();

    const withPending = listCall(page, (query) => query.get('include_pending') === 'true');
    await page.getByRole('checkbox', { name: 'Include pending' }).click(); // controlled by the URL: it turns on once the navigation lands
    await withPending;
    await page.reload();
    await expect(field(page, 'Objective')).toHaveValue(label);
    await expect(field(page, 'Proposal title')).toHaveValue(part);
    await expect(page.getByRole('checkbox', { name: 'Include pending' })).toBeChecked();
    await expect(bodyRows(page)).toHaveCount(1);
  });

  // Issue 26 item 15; E-027, E-029, A-141: changes to different filters compose, whatever their timing.
  test('a proposal id typed just before a rankings change lands with it: the URL and the list hold both', async ({ page, request }) => {
    const { reviewer, kept, other } = await twoReviewsOnStandingClock(page, request);

    // The page's clock stands while the id is typed and the rankings change: the id's debounce is still running
    // when the rankings' navigation lands.
    const id = String(kept.proposal_id);
    await field(page, 'Proposal id').fill(id);
    await field(page, 'Rankings').click();
    await page.getByRole('listbox', { name: 'Rankings' }).getByRole('option', { name: 'included', exact: true }).click();
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/rankings=0&rankings=1/);
    const both = listCall(page, (query) => query.get('proposal_id') === id && query.getAll('rankings').join() === '0,1');
    await page.clock.runFor(DEBOUNCE_MS);
    await both;
    await page.clock.resume();

    const url = new URL(page.url()).searchParams;
    expect(url.get('proposal_id')).toBe(id);
    expect(url.getAll('rankings')).toEqual(['0', '1']);
    expect(url.getAll('assessors')).toEqual([reviewer.anonymousId]);
    await expect(field(page, 'Proposal id')).toHaveValue(id);
    await expect(bodyRows(page)).toHaveCount(1);
    await expect(table(page).getByRole('link', { name: `Open review ${kept.row_id}` })).toBeVisible();
    await expect(table(page).getByRole('link', { name: `Open review ${other.row_id}` })).toHaveCount(0);
  });

  // Issue 26 item 15; E-027, E-029, A-141: two debounced filters settling in the same moment both land.
  test('a proposal id and a title typed within one debounce both reach the URL and the list', async ({ page, request }) => {
    const { kept, other } = await twoReviewsOnStandingClock(page, request);

    // Typed on a standing page clock, so that both debounces run out at once and their writes meet in one render.
    const id = String(kept.proposal_id);
    const part = kept.proposal.title.slice(0, 8);
    await field(page, 'Proposal id').fill(id);
    await field(page, 'Proposal title').fill(part);
    const both = listCall(page, (query) => query.get('proposal_id') === id && query.get('proposal') === part.trim());
    await page.clock.runFor(DEBOUNCE_MS);
    await both;
    await page.clock.resume();

    const url = new URL(page.url()).searchParams;
    expect(url.get('proposal_id')).toBe(id);
    expect(url.get('proposal')).toBe(part.trim());
    await expect(field(page, 'Proposal id')).toHaveValue(id);
    await expect(field(page, 'Proposal title')).toHaveValue(part);
    await expect(bodyRows(page)).toHaveCount(1);
    await expect(table(page).getByRole('link', { name: `Open review ${kept.row_id}` })).toBeVisible();
    await expect(table(page).getByRole('link', { name: `Open review ${other.row_id}` })).toHaveCount(0);
  });

  // E-035, E-036
  test('pages 25 at a time: 0-based in ?page=, 1-based on screen', async ({ page, request }) => {
    const { reviewer, reviews } = await reviewerWithReviews(request, 26);
    await page.goto(`/reviews?assessors=${reviewer.anonymousId}`);
    await expect(bodyRows(page)).toHaveCount(25);
    await expect(page.getByText('Page 1 of 2')).toBeVisible();
    const second = listCall(page, (query) => query.get('page') === '1');
    await page.getByRole('button', { name: '2', exact: true }).click();
    expect(new URL((await second).url()).searchParams.get('size')).toBe('25');
    await expect(page).toHaveURL(/[?&]page=1/);
    await expect(page.getByText('Page 2 of 2')).toBeVisible();
    await expect(bodyRows(page)).toHaveCount(1);
    // The page in the path moves to the query (spec §2.1).
    await page.goto(`/reviews/1?assessors=${reviewer.anonymousId}`);
    await expect(page).toHaveURL(/[?&]page=1/);
    await expect(bodyRows(page)).toHaveCount(1);
    expect(reviews).toHaveLength(26);
  });

  // E-030, E-031, E-032
  test('in the review-open stage a reviewer’s my_reviews is on, disabled, with their anonymous id as assessor', async ({
    page,
    request,
  }) => {
    const { reviewer, reviews } = await reviewerWithReviews(request);
    await presentReviewOpenStage(page, request); // the demo's stage is moderation open (issue 26 item 14)
    const first = listCall(page);
    await login(page, reviewer.catalystId, { password: reviewer.password, to: '/reviews' });
    const query = new URL((await first).url()).searchParams;
    expect(query.get('my_reviews')).toBe('true');
    expect(query.getAll('assessors')).toEqual([reviewer.anonymousId]);
    expect(query.getAll('rankings')).toEqual(['0']);
    const myReviews = page.getByRole('checkbox', { name: 'My reviews' });
    await expect(myReviews).toBeChecked();
    await expect(myReviews).toBeDisabled();
    await expect(page.locator('.mantine-Pill-label', { hasText: reviewer.anonymousId })).toBeVisible();
    await expect(bodyRows(page)).toHaveCount(1);
    await expect(table(page).getByRole('link', { name: `Open review ${reviews[0]!.row_id}` })).toBeVisible();
    await expectAccessible(page);
  });

  // E-034, E-032
  test('without review submission or moderation the rankings default is included, and my_reviews is free to switch', async ({
    page,
    request,
  }) => {
    const { reviewer } = await reviewerWithReviews(request);
    // This page only sees every round with submission closed; the server's configuration stays as it is.
    await rewriteJson(page, '**/api/reviews/configs/reviews/*/', (json) => {
      json.value = { ...json.value, review_submission_enabled: false, moderation_submission_enabled: false };
    });
    const first = listCall(page);
    await login(page, reviewer.catalystId, { password: reviewer.password, to: '/reviews' });
    const query = new URL((await first).url()).searchParams;
    expect(query.getAll('rankings')).toEqual(['1']);
    expect(query.has('my_reviews')).toBe(false);
    const myReviews = page.getByRole('checkbox', { name: 'My reviews' });
    await expect(myReviews).not.toBeChecked();
    await expect(myReviews).toBeEnabled();
    const mine = listCall(page, (params) => params.get('my_reviews') === 'true');
    await myReviews.click();
    await mine;
    await expect(page).toHaveURL(/my_reviews=true/);
  });

  // E-038
  test('a failed fetch shows the error toast and an empty list with total 0', async ({ page }) => {
    await page.route('**/api/reviews/proposal-reviews/filtered?**', (route) => route.fulfill({ status: 500, body: 'upstream failure' }));
    await page.goto('/reviews');
    await expectToast(page, 'Error fetching reviews');
    await expect(bodyRows(page)).toHaveCount(1);
    await expect(table(page)).toContainText('No items found.');
    await expect(page.getByText('Page 1 of 1')).toBeVisible();

    await page.unroute('**/api/reviews/proposal-reviews/filtered?**');
    await page.route('**/api/reviews/proposal-reviews/filtered?**', (route) =>
      route.fulfill({ status: 503, json: { message: 'The reviews are resting' } }),
    );
    await page.getByRole('checkbox', { name: 'Include pending' }).click(); // controlled by the URL: it turns on once the navigation lands
    await expectToast(page, 'The reviews are resting');
  });

  test('on a phone the filters fold into a panel', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto('/reviews');
    const toggle = page.getByRole('button', { name: 'Show filters' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(field(page, 'Proposal id')).toBeHidden();
    await toggle.click();
    await expect(field(page, 'Proposal id')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Hide filters' })).toHaveAttribute('aria-expanded', 'true');
  });
});

test.describe('single review (issue 6, spec §2.15)', () => {
  // E-001, E-024, E-025, E-043, E-044, E-045, E-046, E-047, E-048, E-050
  test('a visitor sees the proposal, category, reviewer level, the not-allocated note, three cards and the ranking badge', async ({
    page,
    request,
  }) => {
    const { reviewer, reviews } = await reviewerWithReviews(request);
    const review = reviews[0]!;
    const call = page.waitForRequest((request) => new URL(request.url()).pathname === `${API}/proposal-reviews/${review.row_id}/`);
    await page.goto(`/review/${review.row_id}`);
    await call; // E-043
    await expect(page.getByRole('link', { name: review.proposal.title })).toHaveAttribute('href', `/proposal/${review.proposal_id}`); // E-044
    await expect(page.getByTestId('review-category')).toHaveText(review.proposal.category ?? 'No category'); // E-045
    await expect(page.getByTestId('review-assessor')).toContainText(`Anonymous community reviewer${reviewer.anonymousId}LV0`); // E-046
    await expect(page.getByTestId('not-allocated')).toContainText('Not allocated'); // E-047
    await expect(page.getByTestId('ranking-badge')).toHaveText('pending moderation'); // E-050, E-041

    // E-048: three cards, each with stars, a bar out of 5 and the note with its line break.
    const cards = [
      ['Impact alignment', 4, 'Impact'],
      ['Feasibility', 3, 'Feasibility'],
      ['Auditability (value for money)', 5, 'Auditability'],
    ] as const;
    for (const [name, rating, label] of cards) {
      const card = page.getByRole('region', { name });
      await expect(card.getByRole('heading', { name })).toBeVisible();
      await expect(card.getByRole('img', { name: `${rating} of 5 stars` })).toBeVisible(); // E-025
      await expect(card.getByText(`${rating}.0 / 5`)).toBeVisible(); // E-024
      await expect(card.getByRole('progressbar', { name: `${name} rating out of 5` })).toHaveAttribute(
        'aria-valuenow',
        String(rating * 20),
      );
      const text = await card.getByTestId('rating-note').innerText();
      expect(text).toBe(note(label));
    }
    await expect(page.getByTestId('overall-score')).toHaveText('4.0 / 5');
    await expect(page.getByRole('img', { name: '4 of 5 stars' }).first()).toBeVisible(); // overall 4.0: whole stars
    await expect(page.getByRole('link', { name: 'Next allocated review' })).toHaveCount(0);
    await expectAccessible(page);
  });

  // E-049, E-050. Issue 26 item 12: a real moderation allocation; next_allocation and allocated_for_moderation are the server's.
  test('the next-allocation button goes to the named review; the badge hides while the viewer moderates the review', async ({
    page,
    request,
  }) => {
    const headers = await adminHeaders(request);
    const round = await sampleRound(request, headers, 'next allocation');
    await round.configure({ reviewer_subscription_enabled: true, review_submission_enabled: true });
    const author = await newRoundReviewer(request, round.row_id);
    const reviewIds: number[] = [];
    for (const index of [0, 1])
      reviewIds.push(await writeRoundReview(request, author.auth, round.proposals[index]!.row_id, `next${index}`));
    const moderator = await newModerator(request, headers, round.row_id, 'next-moderator');
    await round.configure({ reviewer_subscription_enabled: false, review_submission_enabled: false, moderation_submission_enabled: true });
    // Both reviews are spot-checked, and go to the one moderator.
    await allocateModeration(request, headers, round.row_id, { perReview: 1, minSpotChecks: 2 });
    const review = reviewIds[0]!;
    const answer = await (await request.get(`${API}/proposal-reviews/${review}/`, { headers: moderator.auth })).json();
    expect(answer).toMatchObject({ allocated_for_moderation: true, next_allocation: reviewIds[1] });

    // A visitor does not moderate: the badge shows, and the server names no next allocation for them.
    await page.goto(`/review/${review}`);
    await expect(page.getByTestId('ranking-badge')).toHaveText('pending moderation');
    await expect(page.getByRole('link', { name: 'Next allocated review' })).toHaveCount(0);

    await login(page, moderator.user.catalystId, { password: moderator.user.password, to: `/review/${review}` });
    // The moderation form shows: the page knows this viewer moderates this review, so the absent badge means something.
    await expect(page.getByRole('region', { name: 'Moderation', exact: true })).toBeVisible();
    await expect(page.getByTestId('ranking-badge')).toHaveCount(0); // E-050
    await page.getByRole('link', { name: 'Next allocated review' }).click(); // E-049
    await expect(page).toHaveURL(new RegExp(`/review/${reviewIds[1]}$`));
    await expect(page.getByText(`Review ${reviewIds[1]}`, { exact: true })).toBeVisible();
  });

  // E-051
  test('a missing review says so; a failed fetch shows a quiet message, no toast, and is logged', async ({ page }) => {
    await page.goto('/review/999999999');
    await expect(page.getByRole('heading', { name: 'Review not found' })).toBeVisible();
    await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);

    const logged: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') logged.push(message.text());
    });
    await page.route('**/api/reviews/proposal-reviews/*/', (route) => route.fulfill({ status: 500, body: 'upstream failure' }));
    await page.goto('/review/1');
    await expect(page.getByRole('heading', { name: 'The review could not be loaded' })).toBeVisible({ timeout: 15_000 });
    await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);
    expect(logged.some((text) => text.includes('Fetching review failed'))).toBe(true);
  });
});
