import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext, type Download, type Locator, type Page, type Request } from './fixtures';
import { acceptModeration, newEvent, newReviewer, sampleRound, tokenOf, writeReview } from './rounds';
import { activeUser, adminHeaders, demo, expectAccessible, expectToast, login } from './support';

/**
 * Closing a round (issue 15 items 1–3; spec §2.17, §3, §5, §7, §8; checklist group G): the admin's Review Outcomes,
 * Proposal Scoring and Export Data sections, on an event of the test's own, kept inactive, so the stage other tests
 * see doesn't change. The figures come from the real server: the runs are computed over the reviews and moderations
 * the round below writes through the API.
 */

const API = '/api/reviews';

/**
 * A round ready to close: the sample proposals; reviewer A wrote 10 reviews, every one excluded by the one
 * moderator (an approval rate of 0 over 10 moderated reviews: excluded by threshold at the default minimum sample);
 * reviewer B wrote 2, the first excluded and the second included by the moderator (4, 3 and 5 stars).
 */
async function roundToClose(request: APIRequestContext) {
  const headers = await adminHeaders(request);
  const round = await sampleRound(request, headers, 'closing');
  const { configure, proposals } = round;
  const event = { row_id: round.row_id, name: round.name };
  await configure({ reviewer_subscription_enabled: true, review_submission_enabled: true });

  const reviewers: { assessor: string; reviewIds: number[] }[] = [];
  for (const [r, count] of [10, 2].entries()) {
    const { auth, assessor } = await newReviewer(request, event.row_id);
    const reviewIds: number[] = [];
    for (let k = 0; k < count; k += 1) reviewIds.push(await writeReview(request, auth, proposals[r * 10 + k]!.row_id, `${r}${k}`));
    reviewers.push({ assessor, reviewIds });
  }

  const moderator = await activeUser(request);
  const invited = await request.post(`${API}/subscriptions/invite`, {
    headers,
    data: { invitation: { event_id: event.row_id, catalyst_id: moderator.catalystId } },
  });
  expect(invited.status()).toBe(201);
  const moderatorAuth = await acceptModeration(request, await tokenOf(request, moderator), event.row_id, 'closing-moderator');
  await configure({ reviewer_subscription_enabled: false, review_submission_enabled: false, moderation_submission_enabled: true });
  // One moderation per review and at least 10 spot checks per reviewer: every review goes to the one moderator.
  const allocated = await request.post(`${API}/moderations/generate-allocations`, {
    headers,
    data: {
      allocation_params: {
        event_id: event.row_id,
        moderation_seed: 1,
        nr_of_moderations_per_review: 1,
        min_spot_check_per_reviewer: 10,
        dry_run: false,
      },
    },
  });
  expect(allocated.status(), await allocated.text()).toBe(200);
  const [a, b] = reviewers as [(typeof reviewers)[number], (typeof reviewers)[number]];
  const verdicts: [number, 0 | 1][] = [...a.reviewIds.map((id): [number, 0] => [id, 0]), [b.reviewIds[0]!, 0], [b.reviewIds[1]!, 1]];
  for (const [reviewId, classification] of verdicts) {
    const saved = await request.post(`${API}/moderations/`, {
      headers: moderatorAuth,
      data: { new_moderation: { review_id: reviewId, classification, rationale: classification === 1 ? 'Valid.' : 'Not valid.' } },
    });
    expect(saved.status(), await saved.text()).toBe(201);
  }
  await configure({ moderation_submission_enabled: false });
  return {
    event,
    headers,
    proposals,
    excludedAssessor: a.assessor,
    /** B's second proposal: its one review is included. */
    scored: proposals[11]!,
    /** B's first proposal: its one review is excluded by moderation. */
    unscored: proposals[10]!,
  };
}

/**
 * Opens a section of the event's configuration as a person does: by its button in the sections' navigation when the
 * tab shows this event's configuration already, else by its address, signing the admin in first with `signIn` (one
 * load of the app either way).
 */
async function openSection(
  page: Page,
  eventId: number,
  section: 'outcomes' | 'scoring' | 'export',
  heading: string,
  { signIn = false }: { signIn?: boolean } = {},
) {
  const path = `/admin/${eventId}?section=${section}`;
  if (signIn) await login(page, demo.admin, { to: path });
  else if (new URL(page.url()).pathname === `/admin/${eventId}`)
    await page.getByRole('navigation', { name: 'Event configuration sections' }).getByRole('button', { name: heading }).click();
  else await page.goto(path);
  await expect(page).toHaveURL((url) => url.pathname === `/admin/${eventId}` && url.searchParams.get('section') === section);
  await expect(page.getByRole('heading', { name: heading, level: 2 })).toBeVisible();
}

/** The notice of the scoring section that the outcomes come first (the 409's toast says the same). */
const outcomesFirst = (page: Page) => page.getByRole('alert').filter({ hasText: 'Review outcomes needed' });

/** A row of a two-column statistics table: its header and its value. */
const expectCount = (table: Locator, label: string, value: number | string) =>
  expect(table.getByRole('row').filter({ has: table.page().getByRole('rowheader', { name: label, exact: true }) })).toHaveText(
    new RegExp(`^${label}\\s*${value}$`),
  );

const OUTCOME_COUNTS = {
  Reviewers: 2, // nr_of_reviewers
  'Accepted reviewers': 1, // nr_of_accepted_reviewers
  'Excluded reviewers': 1, // nr_of_excluded_reviewers
  Reviews: 12, // nr_of_reviews
  'Accepted reviews': 1, // nr_of_accepted_reviews
  'Excluded reviews': 11, // nr_of_excluded_reviews
  'Reviews excluded by moderation': 1, // nr_of_excluded_reviews_by_moderation
  'Reviews excluded by threshold': 10, // nr_of_excluded_reviews_by_threshold
};

async function expectOutcomeStats(scope: Locator, excludedAssessor: string) {
  const counts = scope.getByRole('table', { name: 'Counts' });
  for (const [label, value] of Object.entries(OUTCOME_COUNTS)) await expectCount(counts, label, value);
  const excluded = scope.getByRole('table', { name: 'Excluded reviewers' });
  for (const column of ['Reviewer (anonymous id)', 'Moderated reviews', 'Approval rate'])
    await expect(excluded.getByRole('columnheader', { name: column })).toBeVisible();
  await expect(excluded.locator('tbody tr')).toHaveCount(1);
  await expect(excluded.locator('tbody tr').getByRole('cell')).toHaveText([excludedAssessor, '10', '0.00%']);
}

/** Saves a download through the browser and answers the saved file's text and the request that fetched it. */
async function download(page: Page, click: () => Promise<void>, url: (url: string) => boolean) {
  const requested = page.waitForRequest((r: Request) => url(r.url()));
  const saved = page.waitForEvent('download');
  await click();
  const request = await requested;
  const file: Download = await saved;
  const path = await file.path();
  return { request, name: file.suggestedFilename(), text: await readFile(path, 'utf8') };
}

/** RFC 4180 lines of a CSV without quoted newlines in the first line: its header. */
const headerOf = (csv: string) => csv.split(/\r?\n/)[0]!.split(',');
const dataLines = (csv: string) => csv.split(/\r?\n/).filter(Boolean).length - 1;
const today = () => new Date().toISOString().slice(0, 10);

test.describe('closing a round: outcomes, scores and exports (issue 15 items 1–3)', () => {
  test.describe.configure({ mode: 'serial' });
  let round: Awaited<ReturnType<typeof roundToClose>>;

  // G-003 G-004 G-005 G-006 G-007 G-008 G-010 G-011 G-012 G-014 G-015 G-016 G-017
  test('G-005 G-006 G-007 G-008 G-014 G-015 G-016 G-017: an admin dry-runs and runs the outcomes, then the scores; each form is disabled after its real run', async ({
    page,
    request,
  }) => {
    test.setTimeout(240_000);
    round = await roundToClose(request);
    const eventId = round.event.row_id;
    // Scores need the outcomes first: the section says so, and the server's 409 shows clearly.
    await openSection(page, eventId, 'scoring', 'Proposal Scoring', { signIn: true });
    const scoring = page.getByRole('form', { name: 'Proposal scoring' });
    await expect(outcomesFirst(page)).toContainText('Generate the review outcomes first');
    await scoring.getByRole('button', { name: 'Generate' }).click();
    await expectToast(page, 'Generate the review outcomes first: proposal scores are computed over the included reviews.');

    // Review Outcomes: defaults (G-003, G-004), a dry run at once with the params of §3 (G-005) and every count (G-006).
    await openSection(page, eventId, 'outcomes', 'Review Outcomes');
    const outcomes = page.getByRole('form', { name: 'Review outcomes' });
    await expect(outcomes.getByRole('textbox', { name: /^Validity threshold/ })).toHaveValue('1');
    await expect(outcomes.getByRole('textbox', { name: /^Acceptance threshold/ })).toHaveValue('1');
    await expect(outcomes.getByRole('textbox', { name: /^Minimum sample/ })).toHaveValue('10');
    const dryRun = outcomes.getByRole('switch', { name: 'Dry run' });
    await expect(dryRun).toBeChecked();
    await expect(dryRun).toBeDisabled();
    await expectAccessible(page);
    const dryCall = page.waitForRequest((r) => r.url().endsWith('/api/reviews/proposal-reviews/generate-results'));
    await outcomes.getByRole('button', { name: 'Generate' }).click();
    const dryRequest = await dryCall;
    expect(dryRequest.method()).toBe('POST');
    expect(dryRequest.postDataJSON()).toEqual({
      results_params: { event_id: eventId, validity_threshold: 1, acceptance_threshold: 1, minimum_sample: 10, dry_run: true },
    });
    const dryResult = page.getByRole('region', { name: 'Dry run: review outcome statistics' });
    await expectOutcomeStats(dryResult, round.excludedAssessor);
    await expectAccessible(page);

    // A real run asks first, then shows the statistics modal; the form is disabled after it (G-007), for good (G-008).
    await dryRun.uncheck();
    await outcomes.getByRole('button', { name: 'Generate' }).click();
    const confirmOutcomes = page.getByRole('dialog', { name: 'Generate the review outcomes?' });
    await expect(confirmOutcomes).toContainText('This is not a dry run');
    await expectAccessible(page);
    const realCall = page.waitForRequest((r) => r.url().endsWith('/api/reviews/proposal-reviews/generate-results'));
    await confirmOutcomes.getByRole('button', { name: 'Generate' }).click();
    expect((await realCall).postDataJSON().results_params.dry_run).toBe(false);
    await expectToast(page, 'Review outcomes generated');
    const outcomeResult = page.getByRole('dialog', { name: 'Review outcome statistics' });
    await expectOutcomeStats(outcomeResult, round.excludedAssessor);
    await expectAccessible(page);
    await outcomeResult.getByRole('button', { name: 'Close' }).last().click();
    await expect(
      page.getByText("This event's review outcomes were generated, which cannot be undone, so the form is disabled."),
    ).toBeVisible();
    await expect(outcomes.getByRole('button', { name: 'Generate' })).toBeDisabled();
    await expect(outcomes.getByRole('textbox', { name: /^Validity threshold/ })).toBeDisabled();
    await page.reload();
    await expect(page.getByRole('form', { name: 'Review outcomes' }).getByRole('button', { name: 'Generate' })).toBeDisabled();
    const again = await request.post(`${API}/proposal-reviews/generate-results`, {
      headers: await adminHeaders(request), // a fresh token: the e2e server's access tokens live 60 s
      data: { results_params: { event_id: eventId, validity_threshold: 0, acceptance_threshold: 0, minimum_sample: 10, dry_run: false } },
    });
    expect(again.status()).toBe(409); // G-008: generated outcomes cannot be undone

    // Proposal Scoring: defaults (G-010..G-012), a dry run with the params of §3 (G-014) and the table of every field (G-015).
    await openSection(page, eventId, 'scoring', 'Proposal Scoring');
    await expect(outcomesFirst(page)).toHaveCount(0);
    await expect(scoring.getByRole('textbox', { name: /^Allocated reviews weight/ })).toHaveValue('0.8');
    await expect(scoring.getByRole('textbox', { name: /^Not allocated reviews weight/ })).toHaveValue('0.2');
    await expect(scoring.getByRole('textbox', { name: /^LV0 reviews weight/ })).toHaveValue('1');
    await expect(scoring.getByRole('textbox', { name: /^LV1 reviews weight/ })).toHaveValue('1');
    await expectAccessible(page);
    const scoreCall = page.waitForRequest((r) => r.url().endsWith('/api/reviews/proposals/generate-results'));
    await scoring.getByRole('button', { name: 'Generate' }).click();
    const scoreRequest = await scoreCall;
    expect(scoreRequest.method()).toBe('POST');
    expect(scoreRequest.postDataJSON()).toEqual({
      results_params: {
        event_id: eventId,
        allocation_weights: { allocated: 0.8, not_allocated: 0.2 },
        level_weights: { level_0: 1, level_1: 1 },
        dry_run: true,
      },
    });
    const scoreDry = page.getByRole('region', { name: 'Dry run: proposal scores' });
    const table = scoreDry.getByRole('table', { name: /^Scores per proposal/ });
    for (const column of [
      'Proposal id',
      'Title',
      'Overall',
      'Impact',
      'Feasibility',
      'Value for money',
      'Reviews',
      'Allocated reviews',
      'Included reviews',
      'Excluded reviews',
      'Excluded by moderation',
      'Excluded by threshold',
    ])
      await expect(table.getByRole('columnheader', { name: column, exact: true })).toBeVisible();
    const rows = table.locator('tbody tr');
    // a table without a page size of its own shows 20 rows a page (issue 26 item 11): 31 proposals, 2 pages.
    expect(round.proposals.length).toBeGreaterThan(20);
    await expect(rows).toHaveCount(20);
    await expect(scoreDry.getByText('Page 1 of 2')).toBeVisible();
    // Sorted by overall, highest first: the one proposal with an included review leads, with its scores to 2 decimals.
    await expect(table.getByRole('columnheader', { name: 'Overall', exact: true })).toHaveAttribute('aria-sort', 'descending');
    await expect(rows.first().getByRole('rowheader')).toHaveText(round.scored.title);
    await expect(rows.first().getByRole('cell')).toHaveText([
      round.scored.pr_id,
      '4.00',
      '4.00',
      '3.00',
      '5.00',
      '1',
      '0',
      '1',
      '0',
      '0',
      '0',
    ]);
    const unscored = rows.filter({ has: page.getByRole('rowheader', { name: round.unscored.title, exact: true }) });
    await expect(unscored.getByRole('cell')).toHaveText([round.unscored.pr_id, '–', '–', '–', '–', '1', '0', '0', '1', '1', '0']);
    const thresholded = rows.filter({ has: page.getByRole('rowheader', { name: round.proposals[0]!.title, exact: true }) });
    await expect(thresholded.getByRole('cell')).toHaveText([round.proposals[0]!.pr_id, '–', '–', '–', '–', '1', '0', '0', '1', '0', '1']);
    await expectAccessible(page);

    // Sortable by any column, both ways.
    const collator = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
    const titles = [...round.proposals.map((proposal) => proposal.title)].sort(collator.compare);
    await table.getByRole('button', { name: 'Title', exact: true }).click();
    await expect(table.getByRole('columnheader', { name: 'Title', exact: true })).toHaveAttribute('aria-sort', 'ascending');
    await expect(rows.getByRole('rowheader')).toHaveText(titles.slice(0, 20));
    await scoreDry.getByRole('button', { name: '2', exact: true }).click(); // the rest on the second page
    await expect(scoreDry.getByText('Page 2 of 2')).toBeVisible();
    await expect(rows.getByRole('rowheader')).toHaveText(titles.slice(20));
    await table.getByRole('button', { name: 'Title', exact: true }).click(); // a new sort starts at the first page
    await expect(table.getByRole('columnheader', { name: 'Title', exact: true })).toHaveAttribute('aria-sort', 'descending');
    await expect(scoreDry.getByText('Page 1 of 2')).toBeVisible();
    await expect(rows.getByRole('rowheader')).toHaveText([...titles].reverse().slice(0, 20));
    await table.getByRole('button', { name: 'Excluded by threshold', exact: true }).click();
    await expect(table.getByRole('columnheader', { name: 'Excluded by threshold', exact: true })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    await expect(rows.nth(9).getByRole('cell').last()).toHaveText('1');
    await expect(rows.nth(10).getByRole('cell').last()).toHaveText('0');
    // Filterable by title.
    await scoreDry.getByRole('textbox', { name: 'Filter by title' }).fill(round.scored.title.toUpperCase());
    await expect(rows).toHaveCount(1);
    await expect(scoreDry.getByText(`Showing 1 of ${round.proposals.length} proposals.`)).toBeVisible();
    await scoreDry.getByRole('textbox', { name: 'Filter by title' }).fill('no proposal has this title');
    await expect(rows).toHaveText(['No items found.']);

    // The real run: confirmation, the results modal, then the form is disabled (G-016), for good (G-017).
    await scoring.getByRole('switch', { name: 'Dry run' }).uncheck();
    await scoring.getByRole('button', { name: 'Generate' }).click();
    const confirmScores = page.getByRole('dialog', { name: 'Generate the proposal scores?' });
    await expect(confirmScores).toContainText('This is not a dry run');
    await confirmScores.getByRole('button', { name: 'Generate' }).click();
    await expectToast(page, 'Proposal scores generated');
    const scoreResult = page.getByRole('dialog', { name: 'Proposal scores' });
    await expect(scoreResult.getByRole('table', { name: /^Scores per proposal/ }).locator('tbody tr')).toHaveCount(20);
    await expect(scoreResult.getByText('Page 1 of 2')).toBeVisible();
    await expectAccessible(page);
    await scoreResult.getByRole('button', { name: 'Close' }).last().click();
    await expect(
      page.getByText("This event's proposal scores were generated, which cannot be undone, so the form is disabled."),
    ).toBeVisible();
    await expect(scoring.getByRole('button', { name: 'Generate' })).toBeDisabled();
    await expect(scoring.getByRole('textbox', { name: /^Allocated reviews weight/ })).toBeDisabled();
    await page.reload();
    await expect(page.getByRole('form', { name: 'Proposal scoring' }).getByRole('button', { name: 'Generate' })).toBeDisabled();
    // The scores publish the round's open data (issue 48): the section links to its public page, now downloadable.
    await page.getByRole('link', { name: 'Open data of this round (public)' }).click();
    await expect(page.getByRole('link', { name: `Download round-${eventId}-open-data.zip` })).toBeVisible();
    const scoresAgain = await request.post(`${API}/proposals/generate-results`, {
      headers: await adminHeaders(request), // a fresh token: the e2e server's access tokens live 60 s
      data: {
        results_params: {
          event_id: eventId,
          allocation_weights: { allocated: 0.5, not_allocated: 0.5 },
          level_weights: { level_0: 1, level_1: 1 },
          dry_run: false,
        },
      },
    });
    expect(scoresAgain.status()).toBe(409); // G-017: generated scores cannot be undone
  });

  // G-019 G-020 G-021 G-022 G-023 G-024 G-025 G-026 G-027 G-028
  test('G-020 G-021 G-022 G-023 G-024 G-025 G-026 G-027 G-028: an admin downloads every export of the closed round, each saved under the server file name', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const eventId = round.event.row_id;
    await openSection(page, eventId, 'export', 'Export Data', { signIn: true });
    await expectAccessible(page);
    const bearer = (request: Request) => expect(request.headers()['authorization']).toMatch(/^Bearer \S+/);

    // G-025: reviews CSV.
    const reviews = await download(
      page,
      () => page.getByRole('button', { name: 'Reviews CSV', exact: true }).click(),
      (url) => url.endsWith(`/api/reviews/proposal-reviews/export/csv/${eventId}/`),
    );
    bearer(reviews.request);
    expect(reviews.name).toBe(`reviews-event-${eventId}-${today()}.csv`);
    expect(headerOf(reviews.text)).toEqual(['valid', 'row_id', 'user_id', 'moderations_tot', 'moderations_as_valid']);
    expect(dataLines(reviews.text)).toBe(12);

    // G-026: full reviews CSV.
    const full = await download(
      page,
      () => page.getByRole('button', { name: 'Full reviews CSV', exact: true }).click(),
      (url) => url.endsWith(`/api/reviews/proposal-reviews/export/full-csv/${eventId}`),
    );
    bearer(full.request);
    expect(full.name).toBe(`reviews-full-event-${eventId}-${today()}.csv`);
    expect(headerOf(full.text).slice(0, 9)).toEqual([
      'valid',
      'row_id',
      'user_id',
      'moderations_tot',
      'moderations_as_valid',
      'proposal_id',
      'pr_id',
      'proposal_title',
      'assessor',
    ]);
    expect(full.text).toContain(round.scored.pr_id);

    // G-027: moderations CSV.
    const moderations = await download(
      page,
      () => page.getByRole('button', { name: 'Moderations CSV', exact: true }).click(),
      (url) => new URL(url).pathname === '/api/reviews/moderations/export/csv',
    );
    bearer(moderations.request);
    expect(moderations.name).toBe(`moderations-event-${eventId}-${today()}.csv`);
    expect(headerOf(moderations.text)).toEqual([
      'row_id',
      'event_id',
      'review_id',
      'user_id',
      'public_contact',
      'classification',
      'predefined_reason',
      'rationale',
    ]);
    expect(dataLines(moderations.text)).toBe(12);

    // G-028: moderator stats.
    const stats = await download(
      page,
      () => page.getByRole('button', { name: 'Moderator stats', exact: true }).click(),
      (url) => new URL(url).pathname === '/api/reviews/moderations/moderator-stats/',
    );
    bearer(stats.request);
    expect(stats.name).toBe(`moderator-stats-event-${eventId}-${today()}.csv`);
    expect(headerOf(stats.text)).toEqual(['user_id', 'reviews_moderated']);
    expect(stats.text.split(/\r?\n/)[1]).toMatch(/^\d+,12$/);

    // The vote export form (G-019..G-023) posts export_config and saves the answer (G-024).
    const form = page.getByRole('form', { name: 'Export for the vote system' });
    await expect(form.getByRole('textbox', { name: /^Voting power threshold/ })).toHaveValue('25'); // G-020
    await expect(form.getByRole('textbox', { name: /^Chain vote options/ })).toHaveValue('blank,yes,no'); // G-021
    await expect(form.getByRole('radio', { name: 'private' })).toBeChecked(); // G-022
    await form.getByRole('textbox', { name: /^Fund id/ }).fill('15');
    await form.getByRole('textbox', { name: /^Fund name/ }).fill('Fund 15');
    await form.getByRole('radio', { name: 'public' }).check();
    const themes = form.getByRole('textbox', { name: /^Themes/ });
    await themes.fill('DeFi');
    await themes.press('Enter');
    await themes.fill('Governance');
    await themes.press('Enter');
    await expectAccessible(page);
    const vote = await download(
      page,
      () => form.getByRole('button', { name: 'Export' }).click(),
      (url) => url.endsWith('/api/reviews/admin/vitss-export'),
    );
    bearer(vote.request);
    expect(vote.request.method()).toBe('POST');
    expect(vote.request.postDataJSON()).toEqual({
      export_config: {
        fund_id: 15,
        fund_name: 'Fund 15',
        events_id: [eventId],
        threshold: 25,
        chain_vote_options: 'blank,yes,no',
        chain_vote_type: 'public',
        themes: ['DeFi', 'Governance'],
      },
    });
    expect(vote.name).toBe(`vitss-export-fund-15-${today()}.json`);
    const document = JSON.parse(vote.text) as {
      fund_id: number;
      chain_vote_options: string[];
      chain_vote_type: string;
      threshold: number;
      themes: string[];
      proposals: { row_id: number; score: { overall: number } | null; reviews: unknown[] }[];
    };
    expect(Object.keys(document)).toEqual(
      expect.arrayContaining([
        'fund_id',
        'fund_name',
        'events_id',
        'threshold',
        'chain_vote_options',
        'chain_vote_type',
        'themes',
        'proposals',
      ]),
    );
    expect(document).toMatchObject({ fund_id: 15, chain_vote_options: ['blank', 'yes', 'no'], chain_vote_type: 'public', threshold: 25 });
    expect(document.proposals).toHaveLength(round.proposals.length);
    const scored = document.proposals.find((proposal) => proposal.row_id === round.scored.row_id)!;
    expect(scored.score?.overall).toBeCloseTo(4, 6);
    expect(scored.reviews).toHaveLength(1);
  });
});

test.describe('the closing forms validate as §5 says', () => {
  // G-003 G-004 G-010 G-011 G-012 G-013 G-019 G-020 G-021 G-022
  test('G-003 G-004 G-010 G-011 G-012 G-013 G-019 G-020 G-021 G-022: defaults, and messages only after a field was edited', async ({
    page,
    request,
  }) => {
    const event = await newEvent(request, await adminHeaders(request), 'closing forms');
    await openSection(page, event.row_id, 'outcomes', 'Review Outcomes', { signIn: true });
    const outcomes = page.getByRole('form', { name: 'Review outcomes' });
    const validity = outcomes.getByRole('textbox', { name: /^Validity threshold/ });
    const acceptance = outcomes.getByRole('textbox', { name: /^Acceptance threshold/ });
    const sample = outcomes.getByRole('textbox', { name: /^Minimum sample/ });
    await expect(validity).toHaveValue('1'); // G-003
    await expect(acceptance).toHaveValue('1'); // G-003
    await expect(sample).toHaveValue('10'); // G-004
    await expect(outcomes.getByText(/must be|is required/)).toHaveCount(0);
    await validity.fill('1.5');
    await expect(outcomes.getByText('Validity threshold must be between 0 and 1.')).toBeVisible();
    await expect(outcomes.getByRole('button', { name: 'Generate' })).toBeDisabled();
    await validity.fill('');
    await expect(outcomes.getByText('Validity threshold is required.')).toBeVisible();
    await validity.fill('0.5');
    await acceptance.fill('');
    await expect(outcomes.getByText('Acceptance threshold is required.')).toBeVisible();
    await acceptance.fill('0.75');
    await sample.fill('9');
    await expect(outcomes.getByText('Minimum sample must be at least 10.')).toBeVisible(); // G-004
    await sample.fill('');
    await expect(outcomes.getByText('Minimum sample is required.')).toBeVisible();
    await sample.fill('12');
    await expect(outcomes.getByText(/must be|is required/)).toHaveCount(0);
    await expect(outcomes.getByRole('button', { name: 'Generate' })).toBeEnabled();
    await expectAccessible(page);

    await openSection(page, event.row_id, 'scoring', 'Proposal Scoring');
    const scoring = page.getByRole('form', { name: 'Proposal scoring' });
    const weights = {
      allocated: scoring.getByRole('textbox', { name: /^Allocated reviews weight/ }),
      notAllocated: scoring.getByRole('textbox', { name: /^Not allocated reviews weight/ }),
      lv0: scoring.getByRole('textbox', { name: /^LV0 reviews weight/ }),
      lv1: scoring.getByRole('textbox', { name: /^LV1 reviews weight/ }),
    };
    await expect(weights.allocated).toHaveValue('0.8'); // G-010
    await expect(weights.notAllocated).toHaveValue('0.2'); // G-011
    await expect(weights.lv0).toHaveValue('1'); // G-012
    await expect(weights.lv1).toHaveValue('1'); // G-012
    // G-013: each weight steps by 0.1 and is required, from 0 to 1.
    await weights.notAllocated.press('ArrowUp');
    await expect(weights.notAllocated).toHaveValue('0.3');
    await weights.notAllocated.press('ArrowDown');
    await expect(weights.notAllocated).toHaveValue('0.2');
    for (const [field, label] of [
      [weights.allocated, 'Allocated reviews weight'],
      [weights.notAllocated, 'Not allocated reviews weight'],
      [weights.lv0, 'LV0 reviews weight'],
      [weights.lv1, 'LV1 reviews weight'],
    ] as const) {
      await field.fill('1.1');
      await expect(scoring.getByText(`${label} must be between 0 and 1.`)).toBeVisible();
      await field.fill('');
      await expect(scoring.getByText(`${label} is required.`)).toBeVisible();
      await expect(scoring.getByRole('button', { name: 'Generate' })).toBeDisabled();
      await field.fill('0.5');
      await expect(scoring.getByText(`${label} is required.`)).toHaveCount(0);
      await expect(scoring.getByText(`${label} must be between 0 and 1.`)).toHaveCount(0);
    }
    await expect(scoring.getByRole('button', { name: 'Generate' })).toBeEnabled();
    await expectAccessible(page);

    await openSection(page, event.row_id, 'export', 'Export Data');
    const vote = page.getByRole('form', { name: 'Export for the vote system' });
    const fundId = vote.getByRole('textbox', { name: /^Fund id/ });
    const threshold = vote.getByRole('textbox', { name: /^Voting power threshold/ });
    await expect(fundId).toHaveValue('');
    await expect(threshold).toHaveValue('25'); // G-020
    await expect(vote.getByRole('textbox', { name: /^Chain vote options/ })).toHaveValue('blank,yes,no'); // G-021
    await expect(vote.getByRole('radiogroup', { name: 'Chain vote type' }).getByRole('radio')).toHaveCount(2); // G-022
    await expect(vote.getByRole('radio', { name: 'private' })).toBeChecked(); // G-022
    await expect(vote.getByRole('radio', { name: 'public' })).not.toBeChecked();
    await expect(vote.getByRole('button', { name: 'Export' })).toBeDisabled(); // fund id and name are required
    await fundId.fill('-1');
    await expect(vote.getByText('Fund id must be at least 0.')).toBeVisible(); // G-019
    await fundId.fill('');
    await fundId.blur(); // back to its empty start: the message shows once the field was left
    await expect(vote.getByText('Fund id is required.')).toBeVisible(); // G-019
    await fundId.fill('0');
    await threshold.fill('-5');
    await expect(vote.getByText('Voting power threshold (ADA) must be at least 0.')).toBeVisible(); // G-020
    await threshold.fill('');
    await expect(vote.getByText('Voting power threshold (ADA) is required.')).toBeVisible(); // G-020
    await threshold.fill('0');
    await vote.getByRole('textbox', { name: /^Fund name/ }).fill('Fund 0');
    await expect(vote.getByRole('button', { name: 'Export' })).toBeEnabled();
    await expect(vote.getByText(/must be|is required/)).toHaveCount(0);
    await expectAccessible(page);
  });
});

test.describe('failed closing runs and exports show their toasts', () => {
  // G-009 G-018 G-029
  test('G-009 G-018 G-029: a failed outcome run, scoring run or export shows its error toast', async ({ page, request }) => {
    const event = await newEvent(request, await adminHeaders(request), 'closing failures');
    const failing = (url: string) =>
      page.route(url, (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }));
    await failing('**/api/reviews/proposal-reviews/generate-results');
    await failing('**/api/reviews/proposals/generate-results');
    await failing('**/api/reviews/proposal-reviews/export/**');
    await failing('**/api/reviews/moderations/export/csv*');
    await failing('**/api/reviews/moderations/moderator-stats/*');
    await failing('**/api/reviews/admin/vitss-export');
    await openSection(page, event.row_id, 'outcomes', 'Review Outcomes', { signIn: true });
    await page.getByRole('form', { name: 'Review outcomes' }).getByRole('button', { name: 'Generate' }).click();
    await expectToast(page, 'An error occurred while generating review outcomes'); // G-009
    await expect(page.getByRole('region', { name: 'Dry run: review outcome statistics' })).toHaveCount(0);

    await openSection(page, event.row_id, 'scoring', 'Proposal Scoring');
    await page.getByRole('form', { name: 'Proposal scoring' }).getByRole('button', { name: 'Generate' }).click();
    await expectToast(page, 'An error occurred while generating proposal scores'); // G-018
    await expect(page.getByRole('region', { name: 'Dry run: proposal scores' })).toHaveCount(0);

    await openSection(page, event.row_id, 'export', 'Export Data');
    // Each failed download shows the toast; it is closed before the next, so each toast is the next call's own.
    const toast = page.locator('.mantine-Notification-root').filter({ hasText: 'Error fetching export' });
    const expectExportToast = async () => {
      await expect(toast).toHaveCount(1); // G-029
      await toast.getByRole('button', { name: 'Close' }).click();
      await expect(toast).toHaveCount(0);
    };
    for (const name of ['Reviews CSV', 'Full reviews CSV', 'Moderations CSV', 'Moderator stats']) {
      await page.getByRole('button', { name, exact: true }).click();
      await expectExportToast();
      await expect(page.getByRole('button', { name, exact: true })).toBeEnabled();
    }
    const vote = page.getByRole('form', { name: 'Export for the vote system' });
    await vote.getByRole('textbox', { name: /^Fund id/ }).fill('1');
    await vote.getByRole('textbox', { name: /^Fund name/ }).fill('Fund 1');
    await vote.getByRole('button', { name: 'Export' }).click();
    await expectExportToast();
    await expectAccessible(page);
  });
});
