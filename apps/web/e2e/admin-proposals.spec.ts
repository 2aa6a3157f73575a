import { expect, test, type APIRequestContext, type Locator, type Page, type Request } from './fixtures';
import { activeUser, adminHeaders, demo, expectAccessible, expectToast, login } from './support';

/**
 * The admin's proposal runs (spec §2.17, §3, §5, §8): Import Proposals and Proposal Allocation. Every test works on
 * an event of its own, kept inactive, so that the stage and the lists other tests see don't change.
 */

const API = '/api/reviews';
const SAMPLE_CATEGORIES = [
  'Cardano Open: Developers',
  'Cardano Open: Ecosystem',
  'Cardano Partners: Tier-1 Enterprise Integrations',
  'Cardano Use Cases: Prototype & Launch',
  'Midnight: Compact DApps',
];

let serial = 0;
async function newEvent(request: APIRequestContext, label: string) {
  serial += 1;
  const headers = await adminHeaders(request);
  const name = `${label} ${Date.now().toString(36)}-${process.pid}-${serial}`;
  const created = await request.post(`${API}/events/`, {
    headers,
    data: { new_event: { name, description: 'Made by the admin-proposals browser test.', active: false } },
  });
  expect(created.status()).toBe(201);
  const event = (await created.json()) as { row_id: number; name: string };
  return { ...event, headers };
}

/** An event holding the sample proposals and `reviewers` active LV0 subscribers (subscription opens on the inactive event for a moment). */
async function roundWithReviewers(request: APIRequestContext, reviewers: number) {
  const event = await newEvent(request, 'E2E allocation');
  const imported = await request.post(`${API}/proposals/import/${event.row_id}`, {
    headers: event.headers,
    data: { import_options: { source: 'sample', dry_run: false } },
  });
  expect(imported.status()).toBe(200);
  await request.put(`${API}/configs/reviews/${event.row_id}/`, {
    headers: event.headers,
    data: { record_update: { reviewer_subscription_enabled: true } },
  });
  for (let i = 0; i < reviewers; i += 1) {
    const user = await activeUser(request);
    const token = (
      await (await request.post(`${API}/users/token/login`, { form: { username: user.catalystId, password: user.password } })).json()
    ).access_token;
    const subscribed = await request.post(`${API}/subscriptions/`, {
      headers: { authorization: `Bearer ${token}` },
      data: {
        new_subscription: { want_to_be_reviewer: true, fund_rules_acceptance: true, preferred_categories: [], event_id: event.row_id },
      },
    });
    expect(subscribed.status()).toBe(201);
  }
  // The allocation needs the subscriptions, not an open subscription.
  await request.put(`${API}/configs/reviews/${event.row_id}/`, {
    headers: event.headers,
    data: { record_update: { reviewer_subscription_enabled: false } },
  });
  const categories = (await (await request.get(`${API}/categories/?event_id=${event.row_id}`)).json()) as { id: number; title: string }[];
  return { event, categories };
}

const isImport = (eventId: number) => (r: Request) => r.url().endsWith(`${API}/proposals/import/${eventId}`) && r.method() === 'POST';
const isAllocation = (r: Request) => r.url().endsWith(`${API}/proposal-reviews/generate-allocations`) && r.method() === 'POST';

/** Counts the requests that match, so a test can show that nothing was sent. */
function countRequests(page: Page, matches: (r: Request) => boolean) {
  const seen: Request[] = [];
  page.on('request', (r) => {
    if (matches(r)) seen.push(r);
  });
  return seen;
}

/** A row of a two-column table: its header cell and its value. */
const rowOf = (scope: Locator, label: string) => scope.getByRole('row', { name: new RegExp(`^${label.replace(/[()]/g, '\\$&')} `) });

/** Signs the admin in straight onto a section of the event's configuration (one load of the app). */
async function openSection(page: Page, eventId: number, section: 'import' | 'proposalAllocation') {
  await login(page, demo.admin, { to: `/admin/${eventId}?section=${section}` });
  await expect(
    page.getByRole('heading', { level: 2, name: section === 'import' ? 'Import Proposals' : 'Proposal Allocation' }),
  ).toBeVisible();
}

test.describe('Import Proposals (issue 5)', () => {
  // D-032, D-033, D-034, D-035, D-036, D-046, D-047, D-048
  test('an admin imports the demo sample: a dry run at once, then a confirmed real run and its statistics', async ({ page, request }) => {
    const event = await newEvent(request, 'E2E import');
    await openSection(page, event.row_id, 'import');
    const form = page.getByRole('form', { name: 'Import proposals' });

    // D-046: the options.
    await expect(form.getByRole('textbox', { name: 'Categories' })).toBeVisible();
    await expect(form.getByRole('switch', { name: 'Accept non-existent users' })).toBeChecked();
    await expect(form.getByRole('switch', { name: 'Accept non-persistent users' })).toBeChecked();
    const dryRun = form.getByRole('switch', { name: 'Dry run' });
    await expect(dryRun).toBeChecked(); // D-032
    await expect(dryRun).toBeDisabled(); // D-033
    await expectAccessible(page);

    await form.getByRole('radio', { name: 'Demo sample' }).check();
    const sent = countRequests(page, isImport(event.row_id));
    const dry = page.waitForRequest(isImport(event.row_id));
    await form.getByRole('button', { name: 'Import' }).click();
    // D-047: the form's values, wrapped in import_options.
    expect((await dry).postDataJSON()).toEqual({
      import_options: {
        source: 'sample',
        categories: [],
        accept_non_existent_users: true,
        accept_non_persistent_users: true,
        dry_run: true,
      },
    });
    // D-034: no confirmation; the result shows below the form, labelled as a dry run.
    const dryResult = page.getByRole('region', { name: 'Dry run: import result' });
    await expect(dryResult).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(rowOf(dryResult, 'Created')).toHaveText(/31$/);
    await expect(dryResult.getByRole('listitem')).toHaveText(SAMPLE_CATEGORIES);
    await expect(page.locator('.mantine-Notification-root').filter({ hasText: 'Proposals imported successfully' })).toHaveCount(0);
    // Nothing was saved.
    expect(await (await request.get(`${API}/categories/?event_id=${event.row_id}`)).json()).toEqual([]);

    // D-033: enabled after the first attempt. D-035: a real run asks first; Cancel does nothing.
    await expect(dryRun).toBeEnabled();
    await dryRun.uncheck();
    await form.getByRole('button', { name: 'Import' }).click();
    const confirm = page.getByRole('dialog', { name: 'Import the proposals?' });
    await expect(confirm).toBeVisible();
    await expect(confirm).toContainText('This is not a dry run');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    expect(sent).toHaveLength(1);

    await form.getByRole('button', { name: 'Import' }).click();
    await expect(confirm).toBeVisible();
    const real = page.waitForRequest(isImport(event.row_id));
    await confirm.getByRole('button', { name: 'Import' }).click();
    expect((await real).postDataJSON().import_options).toMatchObject({ source: 'sample', dry_run: false });
    // D-036: the statistics modal.
    const stats = page.getByRole('dialog', { name: 'Import result' });
    await expect(stats).toBeVisible();
    await expect(rowOf(stats, 'Created')).toHaveText(/31$/);
    await expect(rowOf(stats, 'Updated')).toHaveText(/0$/);
    await expect(rowOf(stats, 'Skipped')).toHaveText(/0$/);
    await expect(stats.getByRole('listitem')).toHaveText(SAMPLE_CATEGORIES);
    await expectToast(page, 'Proposals imported successfully'); // D-048
    await expectAccessible(page);
    await stats.getByRole('button', { name: 'Close' }).last().click();
    await expect(stats).toBeHidden();

    // The event's new categories are the options now.
    await form.getByRole('textbox', { name: 'Categories' }).click();
    for (const title of SAMPLE_CATEGORIES) await expect(page.getByRole('option', { name: title })).toBeVisible();
  });

  // D-046, D-047
  test('an uploaded file: not JSON is refused in the browser; a proposals file offers its own categories', async ({ page, request }) => {
    const event = await newEvent(request, 'E2E upload');
    await openSection(page, event.row_id, 'import');
    const form = page.getByRole('form', { name: 'Import proposals' });
    await expect(form.getByRole('radio', { name: 'Upload a JSON file' })).toBeChecked();
    const input = form.locator('input[type="file"]');

    await input.setInputFiles({ name: 'proposals.csv', mimeType: 'text/csv', buffer: Buffer.from('id,title\n1,Something') });
    await expect(form.getByText('This file is not valid JSON.')).toBeVisible();
    await input.setInputFiles({ name: 'other.json', mimeType: 'application/json', buffer: Buffer.from('{"hello":"world"}') });
    await expect(form.getByText(/^This file is not a proposals file/)).toBeVisible();

    const file = {
      format: 'catalyst-voices-proposals/1',
      categories: { 'cat-1': 'E2E Tools', 'cat-2': 'E2E Education' },
      templates: {
        'tpl-1': { category: 'cat-1', schema: { title: 'F15 E2E Tools Form' } },
        'tpl-2': { category: 'cat-2', schema: { title: 'F15 E2E Education Form' } },
      },
      documents: [
        {
          id: 'e2e-doc-1',
          template: 'tpl-1',
          authors: ['id.catalyst://cardano/e2e-author'],
          payload: { setup: { title: { title: 'A browser-tested tool' } } },
        },
        { id: 'e2e-doc-2', template: 'tpl-2', authors: [], payload: { setup: { title: { title: 'A browser-tested course' } } } },
      ],
    };
    await input.setInputFiles({ name: 'proposals.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });
    await expect(form.getByText(/^This file is not/)).toHaveCount(0);
    await form.getByRole('textbox', { name: 'Categories' }).click();
    await expect(page.getByRole('listbox').getByRole('option')).toHaveText(['E2E Education', 'E2E Tools']);
    await page.getByRole('option', { name: 'E2E Tools' }).click();
    await page.keyboard.press('Escape');
    await form.getByRole('switch', { name: 'Accept non-persistent users' }).uncheck();

    const dry = page.waitForRequest(isImport(event.row_id));
    await form.getByRole('button', { name: 'Import' }).click();
    expect((await dry).postDataJSON()).toEqual({
      import_options: {
        source: 'file',
        file,
        categories: ['E2E Tools'],
        accept_non_existent_users: true,
        accept_non_persistent_users: false,
        dry_run: true,
      },
    });
    const result = page.getByRole('region', { name: 'Dry run: import result' });
    await expect(rowOf(result, 'Created')).toHaveText(/1$/);
    await expect(rowOf(result, 'Skipped')).toHaveText(/1$/);
    await expect(result.getByTestId('skipped-proposals')).toContainText('A browser-tested course (e2e-doc-2)');
    await expectAccessible(page);
  });

  // D-049, §8
  test('a failed import toasts "Error importing proposals", or the server\'s own message when it sends one', async ({ page, request }) => {
    const event = await newEvent(request, 'E2E import failure');
    await openSection(page, event.row_id, 'import');
    const form = page.getByRole('form', { name: 'Import proposals' });

    // No gateway is configured on the test server: its message is shown.
    await form.getByRole('radio', { name: 'Catalyst Gateway' }).check();
    await form.getByRole('button', { name: 'Import' }).click();
    await expectToast(page, /No Catalyst Gateway is configured/);

    await page.route(`**${API}/proposals/import/${event.row_id}`, (route) =>
      route.fulfill({ status: 500, contentType: 'text/plain', body: 'upstream failure' }),
    );
    await form.getByRole('radio', { name: 'Demo sample' }).check();
    await form.getByRole('button', { name: 'Import' }).click();
    await expectToast(page, 'Error importing proposals');
    await expect(page.getByRole('region', { name: 'Dry run: import result' })).toHaveCount(0);
  });
});

test.describe('Proposal Allocation (issue 5)', () => {
  // D-032, D-033, D-034, D-035, D-036, D-037, D-038, D-039, D-040, D-041 (disabled after the real run), D-042, D-043
  test('an admin allocates: defaults, validation after editing, a dry run, then a confirmed real run with statistics and histograms', async ({
    page,
    request,
  }) => {
    const { event, categories } = await roundWithReviewers(request, 3);
    await openSection(page, event.row_id, 'proposalAllocation');
    const form = page.getByRole('form', { name: 'Proposal allocation' });
    const seed = form.getByRole('textbox', { name: /^Allocation seed/ });
    const lv0 = form.getByRole('textbox', { name: /^Number of proposals per LV0 reviewer/ });
    const lv1 = form.getByRole('textbox', { name: /^Number of proposals per LV1 reviewer/ });
    const generate = form.getByRole('button', { name: 'Generate' });
    const dryRun = form.getByRole('switch', { name: 'Dry run' });

    // D-037, D-038, D-039: defaults; D-032, D-033: dry run on and locked.
    await expect(seed).toHaveValue('1');
    await expect(lv0).toHaveValue('20');
    await expect(lv1).toHaveValue('60');
    await expect(dryRun).toBeChecked();
    await expect(dryRun).toBeDisabled();
    await expect(form.getByText(/must be at least/)).toHaveCount(0);
    await expectAccessible(page);

    // Messages show once a field was edited.
    await seed.fill('0');
    await expect(form.getByText('Allocation seed must be at least 1.')).toBeVisible();
    await expect(generate).toBeDisabled();
    await lv1.fill('0');
    await expect(form.getByText('Number of proposals per LV1 reviewer must be at least 1.')).toBeVisible();
    await lv0.fill('');
    await lv0.blur();
    await expect(form.getByText('Number of proposals per LV0 reviewer is required.')).toBeVisible();
    await seed.fill('1');
    await lv0.fill('20');
    await lv1.fill('60');
    await expect(form.getByText(/must be at least|is required/)).toHaveCount(0);
    await expect(generate).toBeEnabled();

    // D-040: the event's categories; one chosen for the dry run.
    await form.getByRole('textbox', { name: 'Categories' }).click();
    await expect(page.getByRole('listbox').getByRole('option')).toHaveText(categories.map((category) => category.title));
    const midnight = categories.find((category) => category.title === 'Midnight: Compact DApps')!;
    await page.getByRole('option', { name: midnight.title }).click();
    await page.keyboard.press('Escape');

    // D-034, D-042: the dry run executes at once with the contract's body.
    const dry = page.waitForRequest(isAllocation);
    await generate.click();
    expect((await dry).postDataJSON()).toEqual({
      allocation_params: {
        event_id: event.row_id,
        allocation_seed: 1,
        nr_of_proposals_lv0: 20,
        nr_of_proposals_lv1: 60,
        categories: [midnight.id],
        dry_run: true,
      },
    });
    const dryResult = page.getByRole('region', { name: 'Dry run: proposal allocation statistics' });
    await expect(dryResult).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // Six Midnight proposals: each of the three reviewers gets all six.
    await expect(rowOf(dryResult, 'Allocations in total')).toHaveText(/18$/);
    await expect(rowOf(dryResult, 'Reviewers')).toHaveText(/3$/);
    await expect(rowOf(dryResult, 'Allocations per reviewer')).toHaveText(/6\s*6\s*6$/);

    // D-035: the real run asks first; D-036, D-043: then the statistics modal with both histograms.
    await form.getByRole('textbox', { name: 'Categories' }).click();
    await page.getByRole('option', { name: midnight.title }).click(); // chosen again: deselected
    await page.keyboard.press('Escape');
    await dryRun.uncheck();
    await generate.click();
    const confirm = page.getByRole('dialog', { name: 'Generate the proposal allocation?' });
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await generate.click();
    const real = page.waitForRequest(isAllocation);
    await confirm.getByRole('button', { name: 'Generate' }).click();
    expect((await real).postDataJSON()).toEqual({
      allocation_params: {
        event_id: event.row_id,
        allocation_seed: 1,
        nr_of_proposals_lv0: 20,
        nr_of_proposals_lv1: 60,
        categories: [],
        dry_run: false,
      },
    });
    const stats = page.getByRole('dialog', { name: 'Proposal allocation statistics' });
    await expect(stats).toBeVisible();
    await expect(rowOf(stats, 'Allocations in total')).toHaveText(/60$/);
    await expect(rowOf(stats, 'Reviewers')).toHaveText(/3$/);
    await expect(rowOf(stats, 'LV0 reviewers')).toHaveText(/3$/);
    await expect(rowOf(stats, 'LV1 reviewers')).toHaveText(/0$/);
    await expect(rowOf(stats, 'Allocations per reviewer')).toHaveText(/20\s*20\s*20$/);
    await expect(stats.getByRole('columnheader', { name: 'avg' })).toBeVisible();
    // 60 allocations over 31 proposals: 29 proposals twice and 2 once (the spread stays within one).
    const perProposal = stats.getByRole('table', { name: 'Proposals by number of allocations' });
    await expect(perProposal.getByRole('row')).toHaveText(['AllocationsProposals', '12', '229']);
    const perReviewer = stats.getByRole('table', { name: 'Reviewers by number of allocations' });
    await expect(perReviewer.getByRole('row')).toHaveText(['AllocationsReviewers', '203']);
    await expect(stats.getByTestId('histogram')).toHaveCount(2);
    await expectToast(page, 'Proposals allocation generated');
    await expectAccessible(page);
    await stats.getByRole('button', { name: 'Close' }).last().click();

    // D-041: an allocation exists now, so the form is disabled.
    await expect(form.getByText('This event already has a proposal allocation, so the form is disabled.')).toBeVisible();
    await expect(seed).toBeDisabled();
    await expect(generate).toBeDisabled();
    await expect(dryRun).toBeDisabled();
  });

  // D-041
  test('the demo round already has an allocation, so its form is disabled', async ({ page, request }) => {
    const events = (await (await request.get(`${API}/events/?size=100&page=0`)).json()) as { data: { row_id: number; name: string }[] };
    const demoRound = events.data.find((event) => event.name === 'Fund 15 (demo)')!;
    await openSection(page, demoRound.row_id, 'proposalAllocation');
    const form = page.getByRole('form', { name: 'Proposal allocation' });
    await expect(form.getByTestId('allocation-generated')).toBeVisible();
    await expect(form.getByRole('textbox', { name: /^Allocation seed/ })).toBeDisabled();
    await expect(form.getByRole('button', { name: 'Generate' })).toBeDisabled();
  });

  // D-045, §8
  test('a failed allocation toasts "Error generating proposals allocation"; a 409 shows the server\'s message; failed flags toast', async ({
    page,
    request,
  }) => {
    const event = await newEvent(request, 'E2E allocation failure');
    await openSection(page, event.row_id, 'proposalAllocation');
    const form = page.getByRole('form', { name: 'Proposal allocation' });
    await page.route(`**${API}/proposal-reviews/generate-allocations`, (route) =>
      route.fulfill({ status: 500, contentType: 'text/plain', body: 'upstream failure' }),
    );
    await form.getByRole('button', { name: 'Generate' }).click();
    await expectToast(page, 'Error generating proposals allocation');
    await expect(page.getByRole('region', { name: /^Dry run/ })).toHaveCount(0);

    const busy = 'Another run is in progress for this event. Try again when it has finished.';
    await page.unroute(`**${API}/proposal-reviews/generate-allocations`);
    await page.route(`**${API}/proposal-reviews/generate-allocations`, (route) => route.fulfill({ status: 409, json: { message: busy } }));
    await form.getByRole('switch', { name: 'Dry run' }).uncheck();
    await form.getByRole('button', { name: 'Generate' }).click();
    await page.getByRole('dialog', { name: 'Generate the proposal allocation?' }).getByRole('button', { name: 'Generate' }).click();
    await expectToast(page, busy);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // Nothing changed: the form stays enabled.
    await expect(form.getByRole('button', { name: 'Generate' })).toBeEnabled();

    // §8: the allocation flags fail to load.
    await page.route(`**${API}/configs/allocations/${event.row_id}/`, (route) => route.fulfill({ status: 500, body: '' }));
    await page.reload();
    await expectToast(page, 'Error fetching allocation configuration');
    await expect(form).toHaveCount(0);
  });
});
