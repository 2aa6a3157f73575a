import { expect, test, type APIRequestContext, type Page } from './fixtures';
import { acceptModeration, newEvent, newReviewer, sampleRound, tokenOf, writeReview } from './rounds';
import { activeUser, adminHeaders, demo, expectToast, login } from './support';

/**
 * Issue 26 items 10 and 16: an admin's write (a run, an import, a configuration, an invitation) shows at once on the
 * round's Overview and on a user's profile, without a reload. Each test opens the screen first (so the app and the
 * server's dashboard snapshot hold its figures), makes the write through its form, then goes back inside the app (the
 * section menu, the admin tabs) and reads the new figure. The rounds are the tests' own, kept inactive, so the stage
 * other tests see doesn't change; the runs share two rounds, one run after another, so that the events list keeps
 * the demo rounds on its first page for the tests that look for them there.
 */

const API = '/api/reviews';
const DAY = 86_400_000;

const sections = (page: Page) => page.getByRole('navigation', { name: 'Event configuration sections' });
const toSection = (page: Page, name: string) => sections(page).getByRole('button', { name, exact: true }).click();

async function openOverview(page: Page, eventId: number) {
  await login(page, demo.admin, { to: `/admin/${eventId}` });
  await expect(page.getByRole('heading', { level: 2, name: 'Overview' })).toBeVisible();
}

async function backToOverview(page: Page) {
  await toSection(page, 'Overview');
  await expect(page.getByRole('heading', { level: 2, name: 'Overview' })).toBeVisible();
}

interface RunForm {
  section: string;
  /** What the form needs chosen besides its defaults. */
  source?: string;
  form: string;
  button: string;
  dryResult: string;
  confirm: string;
  result: string;
}

const RUNS = {
  import: {
    section: 'Import Proposals',
    source: 'Demo sample',
    form: 'Import proposals',
    button: 'Import',
    dryResult: 'Dry run: import result',
    confirm: 'Import the proposals?',
    result: 'Import result',
  },
  proposalAllocation: {
    section: 'Proposal Allocation',
    form: 'Proposal allocation',
    button: 'Generate',
    dryResult: 'Dry run: proposal allocation statistics',
    confirm: 'Generate the proposal allocation?',
    result: 'Proposal allocation statistics',
  },
  moderationAllocation: {
    section: 'Moderation Allocation',
    form: 'Moderation allocation',
    button: 'Generate',
    dryResult: 'Dry run: moderation allocation statistics',
    confirm: 'Generate the moderation allocation?',
    result: 'Moderation allocation statistics',
  },
  outcomes: {
    section: 'Review Outcomes',
    form: 'Review outcomes',
    button: 'Generate',
    dryResult: 'Dry run: review outcome statistics',
    confirm: 'Generate the review outcomes?',
    result: 'Review outcome statistics',
  },
  scores: {
    section: 'Proposal Scoring',
    form: 'Proposal scoring',
    button: 'Generate',
    dryResult: 'Dry run: proposal scores',
    confirm: 'Generate the proposal scores?',
    result: 'Proposal scores',
  },
} satisfies Record<string, RunForm>;

/** A real run as an admin makes it: the first attempt is a dry run; then Dry run off, confirmed, statistics closed. */
async function runForReal(page: Page, run: RunForm) {
  await toSection(page, run.section);
  const form = page.getByRole('form', { name: run.form });
  if (run.source) await form.getByRole('radio', { name: run.source }).check();
  await form.getByRole('button', { name: run.button, exact: true }).click();
  await expect(page.getByRole('region', { name: run.dryResult })).toBeVisible();
  await form.getByRole('switch', { name: 'Dry run' }).uncheck();
  await form.getByRole('button', { name: run.button, exact: true }).click();
  await page.getByRole('dialog', { name: run.confirm }).getByRole('button', { name: run.button, exact: true }).click();
  const result = page.getByRole('dialog', { name: run.result });
  await expect(result).toBeVisible();
  await result.getByRole('button', { name: 'Close' }).last().click();
  await expect(result).toBeHidden();
}

/**
 * An inactive round with the sample proposals and one LV0 reviewer who wrote two reviews (4/3/5 stars): what the
 * tests sharing it read (a later test makes its own requests: a test's request context ends with it).
 */
async function reviewedRound(request: APIRequestContext, what: string) {
  const round = await sampleRound(request, await adminHeaders(request), what);
  await round.configure({ reviewer_subscription_enabled: true, review_submission_enabled: true });
  const reviewer = await newReviewer(request, round.row_id);
  for (const index of [0, 1]) await writeReview(request, reviewer.auth, round.proposals[index]!.row_id, `${index}`);
  await round.configure({ reviewer_subscription_enabled: false, review_submission_enabled: false });
  return { row_id: round.row_id, name: round.name, proposals: round.proposals, reviewer: reviewer.user };
}

/** Updates a round's reviews configuration through the API, with a fresh admin token (they live 60 s here). */
async function configure(request: APIRequestContext, eventId: number, update: Record<string, unknown>) {
  const response = await request.put(`${API}/configs/reviews/${eventId}/`, {
    headers: await adminHeaders(request),
    data: { record_update: update },
  });
  expect(response.status(), await response.text()).toBe(200);
}
type ReviewedRound = Awaited<ReturnType<typeof reviewedRound>>;

const summary = (page: Page, text: string | RegExp) => page.getByText(text, { exact: typeof text === 'string' });

test.describe('an admin’s writes show at once on the Overview and the profiles (issue 26 items 10, 16)', () => {
  test('imported proposals count on the Overview', async ({ page, request }) => {
    const event = await newEvent(request, await adminHeaders(request), 'after-import');
    await openOverview(page, event.row_id);
    await expect(summary(page, '0 proposals')).toBeVisible();

    await runForReal(page, RUNS.import);
    await expectToast(page, 'Proposals imported successfully');
    const imported = (await (await request.get(`${API}/proposals/?size=1&page=0&event_id=${event.row_id}`)).json()).page.total;
    await backToOverview(page);
    await expect(summary(page, `${imported} proposals`)).toBeVisible();
  });

  // C-053, C-055, C-056: the demo round is the one current round whose subscription is open (invitations need one).
  test('an invitation counts among the round’s LV2 subscribers on the Overview', async ({ page, request }) => {
    const current = (await (await request.get(`${API}/events/current/`)).json()) as { row_id: number; name: string }[];
    const demoRound = current.find((event) => event.name === 'Fund 15 (demo)')!;
    const user = await activeUser(request);
    await openOverview(page, demoRound.row_id);
    // The LV2 row's total only grows (an answer changes a status, not the count), whatever other tests do meanwhile.
    const lv2Total = page
      .getByRole('table', { name: 'Subscribers per level' })
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: 'LV2', exact: true }) })
      .getByRole('cell')
      .first();
    const before = Number(await lv2Total.textContent());

    await page.getByRole('link', { name: 'All events' }).click();
    await page.getByRole('tab', { name: 'Users' }).click();
    await page.getByRole('textbox', { name: 'Search users' }).fill(user.catalystId);
    await page.getByRole('link', { name: `View the profile of ${user.catalystId}` }).click();
    await page
      .getByRole('region', { name: 'Invite to level 2' })
      .getByRole('button', { name: `Invite to level 2 of ${demoRound.name}` })
      .click();
    await expectToast(page, 'Invitation sent successfully');
    await page.getByRole('link', { name: 'All users' }).click();
    await page.getByRole('tab', { name: 'Events' }).click();
    await page.getByRole('link', { name: `Configure ${demoRound.name}` }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Overview' })).toBeVisible();
    await expect.poll(async () => Number(await lv2Total.textContent())).toBeGreaterThan(before);
  });

  // D-035, D-036, G-005, G-007, G-014, G-016, B-051, B-052: one round, one tab, run after run; each run's figure shows
  // on the Overview it returns to, without a reload.
  test('one round, run after run: allocation, outcomes and scores count on the Overview, then a cleared review window', async ({
    page,
    request,
  }) => {
    test.setTimeout(180_000);
    const { row_id, proposals } = await reviewedRound(request, 'after-runs');
    await openOverview(page, row_id);

    await test.step('a proposal allocation counts on the Overview', async () => {
      await expect(summary(page, '0 of 0 allocated reviews done (0%)')).toBeVisible();
      await runForReal(page, RUNS.proposalAllocation);
      await backToOverview(page);
      await expect(summary(page, /^\d+ of [1-9]\d* allocated reviews done \(\d+%\)$/)).toBeVisible();
    });

    await test.step('review outcomes count on the Overview', async () => {
      await expect(summary(page, '0 included, 0 excluded by moderation, 0 excluded by threshold, 2 pending')).toBeVisible();
      await runForReal(page, RUNS.outcomes);
      await backToOverview(page);
      await expect(summary(page, '2 included, 0 excluded by moderation, 0 excluded by threshold, 0 pending')).toBeVisible();
    });

    await test.step('proposal scores count on the Overview', async () => {
      await expect(summary(page, /^(No proposal scores yet\.|0 proposals scored, \d+ without a score)$/)).toBeVisible();
      await runForReal(page, RUNS.scores);
      await backToOverview(page);
      await expect(summary(page, `2 proposals scored, ${proposals.length - 2} without a score`)).toBeVisible();
    });

    // B-051, B-052: the review window is part of the round's configuration. Set through the API, it shows on a load.
    await test.step('a cleared review window shows on the Overview', async () => {
      const window = { starts_at: new Date(Date.now() - DAY).toISOString(), ends_at: new Date(Date.now() + 7 * DAY).toISOString() };
      await configure(request, row_id, { review_submission_starts_at: window.starts_at, review_submission_ends_at: window.ends_at });
      await page.reload();
      await expect(summary(page, `Review window: ${window.starts_at.slice(0, 10)} to ${window.ends_at.slice(0, 10)}`)).toBeVisible();

      await toSection(page, 'General Configuration');
      for (const name of ['Review submission starts at', 'Review submission ends at']) {
        const field = page.getByRole('textbox', { name, exact: true });
        await expect(field).not.toHaveValue('');
        await field.fill('');
      }
      await page.getByRole('button', { name: 'Save general settings' }).click(); // issue 45 item 12
      await expectToast(page, 'Config saved');
      await backToOverview(page);
      await expect(summary(page, 'No review window is set.')).toBeVisible();
    });
  });

  test.describe('one round with a moderator: its moderation allocation, then its outcomes on the reviewer’s profile', () => {
    test.describe.configure({ mode: 'serial' });
    let shared: ReviewedRound | undefined;
    const round = async (request: APIRequestContext) => (shared ??= await reviewedRound(request, 'after-moderation-runs'));

    // F-054, F-056, F-057
    test('a moderation allocation counts on the Overview', async ({ page, request }) => {
      const { row_id } = await round(request);
      const moderator = await activeUser(request);
      await configure(request, row_id, { reviewer_subscription_enabled: true }); // an invitation needs subscription open
      const invited = await request.post(`${API}/subscriptions/invite`, {
        headers: await adminHeaders(request),
        data: { invitation: { event_id: row_id, catalyst_id: moderator.catalystId } },
      });
      expect(invited.status()).toBe(201);
      await acceptModeration(request, await tokenOf(request, moderator), row_id, 'after-allocation-moderator');
      await configure(request, row_id, { reviewer_subscription_enabled: false });
      await openOverview(page, row_id);
      await expect(summary(page, '0 of 0 moderation allocations done (0%)')).toBeVisible();

      await runForReal(page, RUNS.moderationAllocation);
      await backToOverview(page);
      await expect(summary(page, /^0 of [1-9]\d* moderation allocations done \(0%\)$/)).toBeVisible();
    });

    // C-044, C-049: the reviewer's historic stats count the rounds whose outcomes were generated.
    test('review outcomes count in the reviewer’s historic stats on the admin’s view of their profile', async ({ page, request }) => {
      const { name, reviewer } = await round(request);
      const { catalystId } = reviewer;
      await login(page, demo.admin, { to: `/admin/users/${encodeURIComponent(catalystId)}` });
      const historic = page.getByRole('region', { name: 'Historic stats' });
      await expect(historic.getByTestId('stat-submitted')).toHaveText('0');

      await page.getByRole('link', { name: 'All users' }).click();
      await page.getByRole('tab', { name: 'Events' }).click();
      await page.getByRole('link', { name: `Configure ${name}` }).click();
      await runForReal(page, RUNS.outcomes);
      await page.getByRole('link', { name: 'All events' }).click();
      await page.getByRole('tab', { name: 'Users' }).click();
      await page.getByRole('textbox', { name: 'Search users' }).fill(catalystId);
      await page.getByRole('link', { name: `View the profile of ${catalystId}` }).click();
      await expect(historic.getByTestId('stat-submitted')).toHaveText('2');
    });
  });
});
