import { expect, test, type APIRequestContext } from '@playwright/test';
import { activeUser, adminHeaders, expectAccessible, expectToast, login, rewriteJson } from './support';

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

async function tokenOf(request: APIRequestContext, user: { catalystId: string; password: string }) {
  const response = await request.post(`${API}/users/token/login`, { form: { username: user.catalystId, password: user.password } });
  return { authorization: `Bearer ${(await response.json()).access_token}` };
}

async function configure(request: APIRequestContext, headers: Record<string, string>, eventId: number, changes: Record<string, unknown>) {
  const current = (await (await request.get(`${API}/configs/reviews/${eventId}/`)).json()).value;
  const response = await request.put(`${API}/configs/reviews/${eventId}/`, {
    headers,
    data: { record_update: { ...current, ...changes } },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/**
 * An inactive event in its moderation stage: two reviewers with two reviews each (the first reviews of each a
 * near-duplicate pair), one LV2 moderator, and the moderation allocation run (flags computed on the way).
 */
async function moderationRound(request: APIRequestContext) {
  const headers = await adminHeaders(request);
  const created = await request.post(`${API}/events/`, {
    headers,
    data: {
      new_event: { name: `E2E moderation ${Date.now().toString(36)}-${process.pid}`, description: 'Moderation test.', active: false },
    },
  });
  expect(created.status()).toBe(201);
  const eventId = ((await created.json()) as { row_id: number }).row_id;
  expect(
    (
      await request.post(`${API}/proposals/import/${eventId}`, { headers, data: { import_options: { source: 'sample', dry_run: false } } })
    ).status(),
  ).toBe(200);
  await configure(request, headers, eventId, { reviewer_subscription_enabled: true, review_submission_enabled: true });
  const proposals = (
    (await (await request.get(`${API}/proposals/?size=100&page=0&event_id=${eventId}`, { headers })).json()).data as {
      row_id: number;
      event_id: number;
    }[]
  ).filter((proposal) => proposal.event_id === eventId);
  const shared = note(1);
  const reviewIds: number[] = [];
  for (let r = 0; r < 2; r += 1) {
    const reviewer = await activeUser(request);
    const auth = await tokenOf(request, reviewer);
    const subscribed = await request.post(`${API}/subscriptions/`, {
      headers: auth,
      data: { new_subscription: { want_to_be_reviewer: true, fund_rules_acceptance: true, preferred_categories: [], event_id: eventId } },
    });
    expect(subscribed.status()).toBe(201);
    for (let i = 0; i < 2; i += 1) {
      const seed = 10 + r * 2 + i;
      const review = {
        proposal_id: proposals[r * 2 + i]!.row_id,
        impact_alignment_rating_given: 4,
        impact_alignment_note: r === 0 && i === 0 ? shared : note(seed),
        feasibility_rating_given: 3,
        feasibility_note: r === 1 && i === 0 ? `${shared} Indeed.` : note(seed + 100),
        auditability_rating_given: 5,
        auditability_note: note(seed + 200),
      };
      const saved = await request.post(`${API}/proposal-reviews/`, { headers: auth, data: { new_proposal_review: review } });
      expect(saved.status()).toBe(201);
      reviewIds.push(((await saved.json()) as { row_id: number }).row_id);
    }
  }
  const moderator = await activeUser(request);
  expect(
    (
      await request.post(`${API}/subscriptions/invite`, {
        headers,
        data: { invitation: { event_id: eventId, catalyst_id: moderator.catalystId } },
      })
    ).status(),
  ).toBe(201);
  const accepted = await request.post(`${API}/subscriptions/invitation`, {
    headers: await tokenOf(request, moderator),
    data: {
      invitation_answer: {
        event_id: eventId,
        role: 2,
        status: 1,
        public_contact: 'x.com/moderator',
        telegram_handle_private: '@moderator',
        reward_address: 'addr1qxyz',
        acknowledge_public_contact: true,
      },
    },
  });
  expect(accepted.status()).toBe(200);
  await configure(request, headers, eventId, {
    reviewer_subscription_enabled: false,
    review_submission_enabled: false,
    moderation_submission_enabled: true,
  });
  const allocated = await request.post(`${API}/moderations/generate-allocations`, {
    headers,
    data: {
      allocation_params: {
        event_id: eventId,
        moderation_seed: 1,
        nr_of_moderations_per_review: 1,
        min_spot_check_per_reviewer: 2,
        dry_run: false,
      },
    },
  });
  expect(allocated.status()).toBe(200);
  return { eventId, moderator, reviewIds, headers };
}

test.describe('moderation (issue 14, checklist F)', () => {
  test('A-022 F-004 F-005 F-007 F-008 F-012 F-013 F-030 F-033 F-039 F-043 F-044 F-045 F-046: a moderator opens the allocated list, reads a flagged review side by side, includes it by keyboard and goes next', async ({
    page,
    request,
  }) => {
    const round = await moderationRound(request);
    await login(page, round.moderator.catalystId, round.moderator.password);
    const listCall = page.waitForRequest((r) => /\/proposal-reviews\/allocated\/\?/.test(r.url()));
    await page.goto('/allocated-reviews');
    expect(new URL((await listCall).url()).searchParams.get('size')).toBe('25'); // F-007, F-008
    const table = page.getByRole('table', { name: 'Allocated reviews' });
    await expect(table.getByTestId('moderation-row')).toHaveCount(4);
    await expectAccessible(page);
    const flagged = table
      .getByTestId('moderation-row')
      .filter({ has: page.getByRole('checkbox', { checked: true }) })
      .first();
    await expect(flagged.getByText('LV0')).toBeVisible(); // F-004: assessor with level
    const byIds = page.waitForRequest((r) => r.url().includes('/proposal-reviews/by-ids/'));
    await flagged.getByRole('link', { name: /^Open review \d+$/ }).click(); // F-005
    const related = new URL((await byIds).url()).searchParams.getAll('ids'); // F-045: the ids key repeated
    expect(related.length).toBeGreaterThan(0);
    expect(related.length).toBeLessThanOrEqual(20);
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
    await login(page, round.moderator.catalystId, round.moderator.password);
    await page.goto('/allocated-reviews');
    await page
      .getByRole('table', { name: 'Allocated reviews' })
      .getByRole('link', { name: /^Open review \d+$/ })
      .first()
      .click();
    const form = page.getByTestId('moderation-form');
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
    await login(page, round.moderator.catalystId, round.moderator.password);
    await page.goto('/allocated-reviews/0'); // the path with a (0-based) page segment opens the allocated list too
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

  test('F-012 F-035 F-038: once moderation is off the form hides, and a decided review shows its moderations table', async ({
    page,
    request,
  }) => {
    const round = await moderationRound(request);
    const auth = await tokenOf(request, round.moderator);
    const first = (await (await request.get(`${API}/proposal-reviews/allocated/?size=1&page=0`, { headers: auth })).json()).data[0] as {
      row_id: number;
    };
    const saved = await request.post(`${API}/moderations/`, {
      headers: auth,
      data: { new_moderation: { review_id: first.row_id, classification: 0, rationale: 'profanity', predefined_reason: 'profanity' } },
    });
    expect(saved.status()).toBe(201);
    await configure(request, round.headers, round.eventId, { moderation_submission_enabled: false });
    // The ranking as the outcome run would leave it (not pending).
    await rewriteJson(page, new RegExp(`/proposal-reviews/${first.row_id}/$`), (json) => {
      json.ranking = 2;
    });
    await login(page, round.moderator.catalystId, round.moderator.password);
    const byReview = page.waitForRequest((r) => r.url().endsWith(`/moderations/by-review/${first.row_id}/`));
    await page.goto(`/review/${first.row_id}`);
    await byReview;
    const table = page.getByRole('table', { name: 'Moderations of this review' });
    await expect(table.getByRole('row').nth(1)).toContainText('excluded');
    await expect(table.getByRole('row').nth(1)).toContainText('profanity');
    await expect(page.getByTestId('moderation-form')).toHaveCount(0);
    await expectAccessible(page);
  });

  test('F-011: a failed list shows the server message in a toast and an empty list', async ({ page, request }) => {
    const moderator = await activeUser(request);
    await login(page, moderator.catalystId, moderator.password);
    await page.route(/\/proposal-reviews\/allocated\/\?/, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ detail: 'Allocated list unavailable' }) }),
    );
    await page.goto('/allocated-reviews');
    await expectToast(page, 'Allocated list unavailable');
    await expect(page.getByRole('table', { name: 'Allocated reviews' }).getByText('No items found.')).toBeVisible();
  });
});
