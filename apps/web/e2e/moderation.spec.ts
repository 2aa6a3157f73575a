import { expect, test, type APIRequestContext, type Page } from './fixtures';
import { allocateModeration, closeRound, moderate, newModerator, newReviewer, sampleRound, writeReview } from './rounds';
import { activeUser, adminHeaders, expectAccessible, expectToast, login, logoutThroughMenu } from './support';

// Issue 14 items 3-6 (web): a moderator's lists, the moderation form, flags and keyboard shortcuts (checklist group F).
const API = '/api/reviews';
const WORDS = 'budget plan team delivery milestone community impact risk audit report scope value cost metric outcome'.split(' ');

/** A note of distinct-looking sentences (over 200 characters without spaces), different for each seed. */
function note(seed: number) {
  let state = seed * 7919 + 13;
  const words: string[] = [];
  for (let i = 0; i < 60; i += 1) {
    state = (state * 1103515245 + 12345) % 2147483648;
    words.push(WORDS[state % WORDS.length]!);
  }
  return `${words.join(' ')}.`;
}

async function configure(request: APIRequestContext, headers: Record<string, string>, eventId: number, changes: Record<string, unknown>) {
  const response = await request.put(`${API}/configs/reviews/${eventId}/`, { headers, data: { record_update: changes } });
  expect(response.status(), await response.text()).toBe(200);
}

/**
 * An inactive event in its moderation stage: two reviewers with two reviews each (the first reviews of each a
 * near-duplicate pair), `moderators` LV2 moderators (one unless told), and the moderation allocation run (flags
 * computed on the way) giving each review `perReview` moderators; every review is spot-checked unless told otherwise.
 */
async function moderationRound(request: APIRequestContext, { moderators = 1, perReview = 1, minSpotChecks = 2 } = {}) {
  const headers = await adminHeaders(request);
  const round = await sampleRound(request, headers, 'moderation');
  const eventId = round.row_id;
  await round.configure({ reviewer_subscription_enabled: true, review_submission_enabled: true });
  const shared = note(1);
  const reviewIds: number[] = [];
  const reviewers: Awaited<ReturnType<typeof newReviewer>>[] = [];
  for (let r = 0; r < 2; r += 1) {
    const reviewer = await newReviewer(request, eventId);
    reviewers.push(reviewer);
    for (let i = 0; i < 2; i += 1) {
      const seed = 10 + r * 2 + i;
      const review = {
        proposal_id: round.proposals[r * 2 + i]!.row_id,
        impact_alignment_rating_given: 4,
        impact_alignment_note: r === 0 && i === 0 ? shared : note(seed),
        feasibility_rating_given: 3,
        feasibility_note: r === 1 && i === 0 ? `${shared} Indeed.` : note(seed + 100),
        auditability_rating_given: 5,
        auditability_note: note(seed + 200),
      };
      const saved = await request.post(`${API}/proposal-reviews/`, { headers: reviewer.auth, data: { new_proposal_review: review } });
      expect(saved.status()).toBe(201);
      reviewIds.push(((await saved.json()) as { row_id: number }).row_id);
    }
  }
  const moderatorList: Awaited<ReturnType<typeof newModerator>>[] = [];
  for (let m = 0; m < moderators; m += 1) moderatorList.push(await newModerator(request, headers, eventId, `moderator-${m}`));
  await round.configure({ reviewer_subscription_enabled: false, review_submission_enabled: false, moderation_submission_enabled: true });
  await allocateModeration(request, headers, eventId, { perReview, minSpotChecks });
  return { eventId, moderator: moderatorList[0]!.user, moderators: moderatorList, reviewers, reviewIds, headers };
}

/** The ids of the reviews allocated to a moderator, as their list answers them. */
async function allocatedTo(request: APIRequestContext, auth: Record<string, string>) {
  const list = await request.get(`${API}/proposal-reviews/allocated/?size=25&page=0`, { headers: auth });
  expect(list.ok()).toBeTruthy();
  return ((await list.json()) as { data: { row_id: number }[] }).data.map((review) => review.row_id);
}

const moderationForm = (page: Page) => page.getByRole('region', { name: 'Moderation', exact: true });
const moderationsTable = (page: Page) => page.getByRole('table', { name: 'Moderations of this review' });

test.describe('moderation (issue 14, checklist F)', () => {
  test('A-022 F-004 F-005 F-007 F-008 F-012 F-013 F-030 F-033 F-039 F-043 F-044 F-046: a moderator opens the allocated list, reads a flagged review side by side, includes it by keyboard and goes next', async ({
    page,
    request,
  }) => {
    const round = await moderationRound(request);
    const listCall = page.waitForRequest((r) => /\/proposal-reviews\/allocated\/\?/.test(r.url()));
    await login(page, round.moderator.catalystId, { password: round.moderator.password, to: '/allocated-reviews' });
    expect(new URL((await listCall).url()).searchParams.get('size')).toBe('25'); // F-007, F-008
    const table = page.getByRole('table', { name: 'Allocated reviews' });
    await expect(table.getByTestId('moderation-row')).toHaveCount(4);
    await expectAccessible(page);
    const flagged = table
      .getByTestId('moderation-row')
      .filter({ has: page.getByRole('checkbox', { checked: true }) })
      .first();
    await expect(flagged.getByText('LV0')).toBeVisible(); // F-004: assessor with level
    await flagged.getByRole('link', { name: /^Open review \d+$/ }).click(); // F-005
    await expect(page).toHaveURL(/\/review\/\d+$/);
    const form = page.getByTestId('moderation-form'); // F-012
    await expect(form).toBeVisible();
    // Flags: the similarity group with its score as a percentage and the two notes side by side, shared words marked.
    const similarity = page.getByTestId('flag-group').filter({ has: page.getByText('similarity', { exact: true }) });
    await expect(similarity.getByTestId('flag-score')).toHaveText(/^Score \d{1,3}\.\d{2}%$/);
    await expect(similarity.getByRole('link', { name: /^Related review \d+, (impact alignment|feasibility|auditability)$/ })).toBeVisible();
    await expect(similarity.getByTestId('note-comparison').locator('mark').first()).toBeVisible();
    await expectAccessible(page);

    // Keyboard: '?' opens the help, 'a' approves, 'r' focuses the reason, arrows choose, 's' saves.
    await page.keyboard.press('?');
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeHidden();
    await page.keyboard.press('a');
    await expect(form.getByRole('button', { name: 'approved' })).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.press('r');
    await expect(form.getByRole('radio', { name: 'valid' })).toBeFocused();
    await page.keyboard.press('Space');
    await expect(form.getByRole('radio', { name: 'valid' })).toBeChecked();
    const created = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/moderations/'));
    await page.keyboard.press('s');
    expect((await created).postDataJSON().new_moderation).toMatchObject({
      classification: 1,
      rationale: 'valid',
      predefined_reason: 'valid',
    }); // F-030
    await expectToast(page, 'Moderation saved, deleted or edited'); // F-033
    const here = page.url();
    await page.keyboard.press('n');
    await expect(page).not.toHaveURL(here);
    await expect(page.getByTestId('moderation-form')).toBeVisible();
  });

  test('F-006 F-009 F-013 F-015 F-016 F-017 F-018 F-019 F-020 F-021 F-024 F-025 F-031 F-032 F-033 F-034: the reason lists, other with its messages, edit and delete; moderated of allocated', async ({
    page,
    request,
  }) => {
    const round = await moderationRound(request);
    await login(page, round.moderator.catalystId, { password: round.moderator.password, to: '/allocated-reviews' });
    await page
      .getByRole('table', { name: 'Allocated reviews' })
      .getByRole('link', { name: /^Open review \d+$/ })
      .first()
      .click();
    const form = page.getByTestId('moderation-form');
    // Issue 26 item 11: the form must have loaded (its classification buttons show) before an absent button means anything.
    await expect(form.getByRole('button', { name: 'approved' })).toBeVisible();
    await expect(form.getByRole('button', { name: 'Save moderation' })).toBeHidden(); // F-020
    await form.getByRole('button', { name: 'excluded' }).click();
    const reasons = form.getByRole('radio');
    await expect(reasons).toHaveCount(6);
    await expect(reasons.last()).toHaveAccessibleName('other'); // F-015
    await expect(form.locator('.mantine-Radio-label')).toHaveText([
      "not the person's own opinion",
      'profanity',
      'similarity',
      'rationale does not correspond',
      'false statement',
      'other',
    ]); // F-016
    await form.getByRole('radio', { name: 'profanity' }).check();
    // The choice is a draft kept in the browser: a reload keeps it.
    await page.reload();
    await expect(form.getByRole('radio', { name: 'profanity' })).toBeChecked();
    await form.getByRole('button', { name: 'approved' }).click(); // F-018: the reason is cleared
    await expect(form.locator('.mantine-Radio-label')).toHaveText([
      'valid',
      "person's own opinion",
      'not profanity',
      'not similarity',
      'not similarity (second variant)',
      'other',
    ]); // F-017
    await expect(form.getByRole('radio', { checked: true })).toHaveCount(0);
    await expect(form.getByRole('button', { name: 'Save moderation' })).toBeHidden();
    await form.getByRole('radio', { name: 'other' }).check(); // F-019
    const custom = form.getByRole('textbox', { name: 'Custom reason' });
    await custom.fill('   ');
    await expect(form.getByText('custom reason required')).toBeVisible(); // F-024
    await custom.fill('x'.repeat(500));
    await expect(form.getByText('max length')).toBeVisible(); // F-025
    // Typing in the field never fires a shortcut: 'x' would choose 'excluded'.
    await expect(form.getByRole('button', { name: 'approved' })).toHaveAttribute('aria-pressed', 'true');
    await form.getByRole('button', { name: 'Clear' }).click(); // F-021
    await expect(form.getByRole('radio')).toHaveCount(0);
    await form.getByRole('button', { name: 'excluded' }).click();
    await form.getByRole('radio', { name: 'other' }).check();
    await custom.fill('Copied from another review');
    // F-034: a failed save shows the §8 error toast, and the form keeps what was chosen.
    await page.route(
      /\/moderations\/$/,
      (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"detail":"down"}' }),
      {
        times: 1,
      },
    );
    await form.getByRole('button', { name: 'Save moderation' }).click();
    await expectToast(page, 'Error in submitting, deleting or editing moderation');
    await expect(custom).toHaveValue('Copied from another review');
    await form.getByRole('button', { name: 'Save moderation' }).click();
    await expectToast(page, 'Moderation saved, deleted or edited');
    await expect(form.getByRole('button', { name: 'Update moderation' })).toBeVisible();
    const updated = page.waitForRequest((r) => r.method() === 'PUT' && /\/moderations\/\d+\/$/.test(r.url()));
    await form.getByRole('button', { name: 'approved' }).click();
    await form.getByRole('radio', { name: 'valid' }).check();
    await form.getByRole('button', { name: 'Update moderation' }).click();
    expect((await updated).postDataJSON().record_update).toMatchObject({ classification: 1, rationale: 'valid' }); // F-031
    await expect(form.getByTestId('own-moderation')).toHaveText('Your moderation: included');

    await page.goto('/moderated-reviews/0'); // the path with a (0-based) page segment opens the moderated list too
    await expect(page.getByRole('table', { name: 'Moderated reviews' }).getByTestId('moderation-row')).toHaveCount(1);
    await page.goto('/moderated-reviews');
    await expect(page.getByTestId('moderation-totals')).toHaveText(/^1 moderated of \d+ allocated$/); // F-006, F-009
    await expect(page.getByRole('table', { name: 'Moderated reviews' }).getByTestId('moderation-row')).toHaveCount(1);
    await expectAccessible(page);
    await page
      .getByRole('table', { name: 'Moderated reviews' })
      .getByRole('link', { name: /^Open review \d+$/ })
      .click();
    const deleted = page.waitForResponse((r) => r.request().method() === 'DELETE' && /\/moderations\/\d+\/$/.test(r.url()));
    await page.getByTestId('moderation-form').getByRole('button', { name: 'Delete moderation' }).click();
    expect((await deleted).status()).toBe(200); // F-032
    await expect(page.getByTestId('moderation-form').getByRole('button', { name: 'Delete moderation' })).toBeHidden();
  });

  test('A-021 F-022 F-023: a save asked for by keyboard before the choices shows what is missing, and nothing is sent', async ({
    page,
    request,
  }) => {
    const round = await moderationRound(request);
    await login(page, round.moderator.catalystId, { password: round.moderator.password, to: '/allocated-reviews/0' }); // the path with a (0-based) page segment opens the allocated list too
    const allocated = page.getByRole('table', { name: 'Allocated reviews' });
    await expect(allocated.getByTestId('moderation-row')).toHaveCount(4);
    await allocated
      .getByRole('link', { name: /^Open review \d+$/ })
      .first()
      .click();
    const form = page.getByTestId('moderation-form');
    await expect(form.getByRole('button', { name: 'approved' })).toBeVisible();
    let posts = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && /\/moderations\/$/.test(r.url())) posts += 1;
    });
    await page.keyboard.press('s');
    await expect(form.getByRole('alert')).toHaveText('classification required'); // F-022
    await expect(form.getByRole('group', { name: 'Classification' })).toHaveAccessibleDescription('classification required');
    await form.getByRole('button', { name: 'excluded' }).click();
    await expect(form.getByText('classification required')).toBeHidden();
    await page.keyboard.press('s');
    await expect(form.getByText('A reason from the list is required')).toBeVisible(); // F-023
    await form.getByRole('radio', { name: 'profanity' }).check();
    await expect(form.getByText('A reason from the list is required')).toBeHidden();
    expect(posts).toBe(0);
    // With both chosen the same key saves.
    const saved = page.waitForResponse((r) => r.request().method() === 'POST' && /\/moderations\/$/.test(r.url()));
    await page.keyboard.press('s'); // a focused radio is not typing: the shortcut fires
    expect((await saved).status()).toBe(201);
    await expect(form.getByTestId('own-moderation')).toBeVisible();
  });

  // Issue 26 items 11 and 12: the ranking comes from the real outcome run (no rewritten answer), two moderators
  // disagree so that both classifications are mapped (F-035), and the fetch failure toasts (F-036).
  test('F-012 F-035 F-036 F-038: while moderation is on the table is hidden; once it is off and outcomes are out the form hides and the moderations table shows both verdicts', async ({
    page,
    request,
  }) => {
    const round = await moderationRound(request, { moderators: 2, perReview: 2 });
    const [first, second] = round.moderators as [(typeof round.moderators)[number], (typeof round.moderators)[number]];
    const reviewId = round.reviewIds[1]!;
    for (const moderator of [first, second]) expect(await allocatedTo(request, moderator.auth)).toContain(reviewId);
    await moderate(request, first.auth, reviewId, 1);
    await moderate(request, second.auth, reviewId, 0);

    // Moderation on: the moderator's own verdict shows in the form, so the page knows the configuration; no table.
    await login(page, first.user.catalystId, { password: first.user.password, to: `/review/${reviewId}` });
    await expect(moderationForm(page).getByText('Your moderation: included')).toBeVisible();
    await expect(moderationsTable(page)).toHaveCount(0); // F-038

    // Moderation off, then the outcome run: one inclusion of two meets the 0.5 validity threshold: included.
    await configure(request, round.headers, round.eventId, { moderation_submission_enabled: false });
    await closeRound(request, round.headers, round.eventId);
    const byReview = page.waitForRequest((r) => new URL(r.url()).pathname === `${API}/moderations/by-review/${reviewId}/`);
    await page.reload();
    await byReview; // F-035
    await expect(page.getByTestId('ranking-badge')).toHaveText('included');
    const rows = moderationsTable(page).locator('tbody tr');
    await expect(rows).toHaveCount(2);
    // Each classification as a word, with the rationale and the moderator's public contact (public once outcomes exist).
    await expect(rows.filter({ hasText: 'x.com/moderator-0' }).getByRole('cell')).toHaveText(['included', 'valid', 'x.com/moderator-0']);
    await expect(rows.filter({ hasText: 'x.com/moderator-1' }).getByRole('cell')).toHaveText([
      'excluded',
      'profanity',
      'x.com/moderator-1',
    ]);
    await expect(moderationForm(page)).toHaveCount(0); // F-012: moderation is off (the table proves the page knows it)
    await expectAccessible(page);

    // F-036: a failed fetch of the moderations toasts: the server's message when it sent one, else the fixed text.
    const byReviewUrl = `**${API}/moderations/by-review/${reviewId}/`;
    await page.route(byReviewUrl, (route) => route.fulfill({ status: 500, json: { message: 'The moderations are resting.' } }));
    await page.reload();
    await expectToast(page, 'The moderations are resting.');
    await expect(moderationsTable(page)).toContainText('No items found.');
    await page.unroute(byReviewUrl);
    await page.route(byReviewUrl, (route) => route.fulfill({ status: 500, contentType: 'text/html', body: '<h1>Bad gateway</h1>' }));
    await page.reload();
    await expectToast(page, 'Error fetching moderations');
  });

  // Issue 26 item 11: F-012's two other conditions in the browser: the review allocated to this moderator, and logged in.
  test('F-012 E-050: only the moderator the review is allocated to gets the form; another moderator and a visitor see the ranking badge', async ({
    page,
    request,
  }) => {
    // No spot checks: only the near-duplicate pair is selected, one review to each moderator (the least loaded one).
    const round = await moderationRound(request, { moderators: 2, perReview: 1, minSpotChecks: 0 });
    const first = round.moderators[0]!;
    const pair = [round.reviewIds[0]!, round.reviewIds[2]!];
    const mine = await allocatedTo(request, first.auth);
    expect(mine).toHaveLength(1);
    expect(pair).toContain(mine[0]);
    const own = mine[0]!;
    const other = pair.find((id) => id !== own)!;

    await login(page, first.user.catalystId, { password: first.user.password, to: `/review/${own}` });
    await expect(moderationForm(page)).toBeVisible();
    await expect(page.getByTestId('ranking-badge')).toHaveCount(0); // E-050: hidden while this viewer moderates it
    // Through the similarity flag's link, without a reload: the event's configuration (moderation on) is already known
    // when the other moderator's review first renders, so an absent form means something.
    await page.getByRole('link', { name: new RegExp(`^Related review ${other}, `) }).click();
    await expect(page.getByText(`Review ${other}`, { exact: true })).toBeVisible();
    await expect(page.getByTestId('ranking-badge')).toBeVisible(); // E-050
    await expect(moderationForm(page)).toHaveCount(0);

    // A visitor: not logged in, so never the form, even on a review allocated for moderation while moderation is on.
    await logoutThroughMenu(page);
    const config = page.waitForResponse((r) => new URL(r.url()).pathname === `${API}/configs/reviews/${round.eventId}/`);
    await page.goto(`/review/${own}`);
    await config;
    await expect(page.getByText(`Review ${own}`, { exact: true })).toBeVisible();
    await expect(page.getByTestId('ranking-badge')).toBeVisible();
    await expect(moderationForm(page)).toHaveCount(0);
  });

  // Issue 26 item 11: F-038's other condition: with moderation off, a pending review still shows no moderations table.
  test('F-038: while reviews are open a pending review shows no moderations table', async ({ page, request }) => {
    const headers = await adminHeaders(request);
    const round = await sampleRound(request, headers, 'pending review');
    await round.configure({ reviewer_subscription_enabled: true, review_submission_enabled: true });
    const author = await newReviewer(request, round.row_id);
    const reviewId = await writeReview(request, author.auth, round.proposals[0]!.row_id, 'pending');
    await login(page, author.user.catalystId, { password: author.user.password, to: `/review/${reviewId}` });
    // The author's Delete shows only once the page knows that review submission is on: the configuration is loaded.
    await expect(page.getByRole('button', { name: 'Delete review' })).toBeVisible();
    await expect(page.getByTestId('ranking-badge')).toHaveText('pending moderation');
    await expect(moderationsTable(page)).toHaveCount(0);
  });

  // Issue 26 item 11: more related reviews than one request holds, so the limit of 20 ids is really exercised.
  test('F-045 F-046: a similarity flag with 25 related reviews fetches them 20 ids a request, the ids key repeated, and names each one’s criterion', async ({
    page,
    request,
  }) => {
    const headers = await adminHeaders(request);
    const round = await sampleRound(request, headers, 'related reviews');
    await round.configure({ reviewer_subscription_enabled: true, review_submission_enabled: true, review_visibility_enabled: true });
    const { auth } = await newReviewer(request, round.row_id);
    const ids: number[] = [];
    for (const [index, proposal] of round.proposals.slice(0, 26).entries())
      ids.push(await writeReview(request, auth, proposal.row_id, `r${index}`));
    const [flagged, ...related] = ids as [number, ...number[]];
    const criteria = related.map((_, index) => (['impact_note', 'feasibility_note', 'auditability_note'] as const)[index % 3]);
    // As an outside tool's flags file would say it (the admin's "load flags").
    const loaded = await request.post(`${API}/flags/import`, {
      headers,
      data: {
        event_id: round.row_id,
        flags: [{ review_id: flagged, flag_type: 1, score: 0.9, related_reviews: related, related_criteria: criteria }],
      },
    });
    expect(loaded.status(), await loaded.text()).toBe(200);

    const batches: string[][] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname === `${API}/proposal-reviews/by-ids/`) batches.push(url.searchParams.getAll('ids'));
    });
    await page.goto(`/review/${flagged}`);
    const flags = page.getByRole('region', { name: 'Flags' });
    const label = { impact_note: 'impact alignment', feasibility_note: 'feasibility', auditability_note: 'auditability' };
    for (const [index, id] of related.entries()) {
      await expect(flags.getByRole('link', { name: `Related review ${id}, ${label[criteria[index]!]}`, exact: true })).toBeVisible(); // F-046
      // The related review's own note is shown beside this one's: it was fetched.
      await expect(flags.getByText(`Review ${id}: ${label[criteria[index]!]}`, { exact: true })).toBeVisible();
    }
    // F-045: two requests, 20 ids and then 5, each id once, the ids key repeated.
    expect(batches.slice(0, 2).map((batch) => batch.length)).toEqual([20, 5]);
    expect(
      batches
        .slice(0, 2)
        .flat()
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual([...related].sort((a, b) => a - b));
    expect(batches.every((batch) => batch.length <= 20)).toBe(true);
  });

  test('F-011: a failed list shows the server message in a toast and an empty list', async ({ page, request }) => {
    const moderator = await activeUser(request);
    await page.route(/\/proposal-reviews\/allocated\/\?/, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ detail: 'Allocated list unavailable' }) }),
    );
    await login(page, moderator.catalystId, { password: moderator.password, to: '/allocated-reviews' });
    await expectToast(page, 'Allocated list unavailable');
    await expect(page.getByRole('table', { name: 'Allocated reviews' }).getByText('No items found.')).toBeVisible();
  });
});
