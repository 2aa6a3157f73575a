import { expect, test, type APIRequestContext, type Page, type Request } from './fixtures';
import { typeDebounced } from './debounce';
import { tokenOf } from './rounds';
import { adminHeaders, demo, DEMO_PASSWORD, expectAccessible, expectToast, login, presentReviewOpenStage, rewriteJson } from './support';

/** The proposals list call (`GET proposals/?…`), not the single proposal nor the allocated list. */
const isListCall = (url: URL) => url.pathname === '/api/reviews/proposals/';
const listTable = (page: Page) => page.getByRole('table', { name: 'Proposals', exact: true });
const allocatedTable = (page: Page) => page.getByRole('table', { name: 'Allocated proposals', exact: true });
const bodyRows = (page: Page, name = 'Proposals') => page.getByRole('table', { name, exact: true }).locator('tbody tr');
const titleFilter = (page: Page) => page.getByRole('textbox', { name: 'Filter by title' });
/** A field's answer, found by its question (each answer is a group named by its question). */
const answer = (page: Page, question: string) => page.getByRole('group', { name: question, exact: true });

/** The demo round's proposal total, as the server answers it to a visitor. */
async function listedTotal(request: APIRequestContext): Promise<number> {
  const response = await request.get('/api/reviews/proposals/?size=1&page=0');
  return ((await response.json()) as { page: { total: number } }).page.total;
}

test.describe('proposals list (issue 5, spec §2.11)', () => {
  // D-001, D-002, D-003, D-004, D-012
  test('a visitor filters by title: debounced 300 ms, trimmed, kept in ?title=, empty dropped, and cleared', async ({ page }) => {
    const calls: URL[] = [];
    page.on('request', (request: Request) => {
      const url = new URL(request.url());
      if (isListCall(url)) calls.push(url);
    });
    await page.clock.install();
    await page.goto('/proposals?page=1');
    await expect(bodyRows(page).first()).toBeVisible();
    // D-012: the list call carries size and page, and no title while the filter is empty.
    expect(calls[0]?.searchParams.get('size')).toBe('25');
    expect(calls[0]?.searchParams.get('page')).toBe('1');
    expect(calls[0]?.searchParams.has('title')).toBe(false);

    // Typing faster than the debounce sends one request, with the trimmed value; a new filter starts at page 1.
    // Typed on a standing page clock (see typeDebounced), so a busy machine cannot stretch a pause past 300 ms.
    const before = calls.length;
    await typeDebounced(page, titleFilter(page), ['  wal', 'let  '], () => expect(page).toHaveURL(/\/proposals\?title=wallet$/));
    await expect(bodyRows(page)).toHaveCount(3);
    const filtered = calls.slice(before).filter((url) => url.searchParams.has('title'));
    expect(filtered.map((url) => url.searchParams.get('title'))).toEqual(['wallet']);
    expect(filtered[0]?.searchParams.get('page')).toBe('0');
    for (const title of [
      'Accessible Wallet Guides for Screen Readers',
      'Selective Disclosure KYC Wallet',
      'Mithril Client for Mobile Wallets',
    ]) {
      await expect(listTable(page).getByRole('link', { name: title })).toBeVisible();
    }

    // The filter lives in the query: a reload keeps it, in the field and in the request.
    const reloaded = page.waitForRequest((request) => isListCall(new URL(request.url())));
    await page.reload();
    expect(new URL((await reloaded).url()).searchParams.get('title')).toBe('wallet');
    await expect(titleFilter(page)).toHaveValue('wallet');
    await expect(bodyRows(page)).toHaveCount(3);

    // D-004: only spaces is an empty filter: dropped from the query and the request.
    const unfiltered = page.waitForRequest(
      (request) => isListCall(new URL(request.url())) && !new URL(request.url()).searchParams.has('title'),
    );
    await titleFilter(page).fill('   ');
    await unfiltered;
    await expect(page).toHaveURL(/\/proposals$/);
    await expect(bodyRows(page)).toHaveCount(25);

    // D-003: the clear-filter button empties the field and the query at once.
    await titleFilter(page).fill('Cardano');
    await expect(page).toHaveURL(/\?title=Cardano$/);
    await expect(bodyRows(page)).not.toHaveCount(25);
    await page.getByRole('button', { name: 'Clear filter' }).click();
    await expect(titleFilter(page)).toHaveValue('');
    await expect(page).toHaveURL(/\/proposals$/);
    await expect(bodyRows(page)).toHaveCount(25);
    await expect(page.getByRole('button', { name: 'Clear filter' })).toBeDisabled();
  });

  // D-005, D-007, D-008, D-011, D-012, D-020, D-023
  test('the list shows 25 a page with short id, title, objective and funds; page 2 (?page=1) shows the rest; a proposal opens from it', async ({
    page,
    request,
  }) => {
    const total = await listedTotal(request);
    expect(total).toBeGreaterThan(25);
    await page.goto('/proposals');
    for (const column of ['ID', 'Title', 'Objective', 'Funds'])
      await expect(listTable(page).getByRole('columnheader', { name: column, exact: true })).toBeVisible();
    await expect(listTable(page).getByRole('columnheader', { name: 'Reviewed' })).toHaveCount(0); // D-009: only on the allocated view
    await expect(bodyRows(page)).toHaveCount(25);
    await expect(page.getByText('Page 1 of 2')).toBeVisible();
    await expectAccessible(page);

    const first = bodyRows(page).filter({ hasText: 'Stake Pool Operator Academy in Swahili' });
    await expect(first.getByRole('cell').nth(0)).toHaveText('019a5e00'); // the part of pr_id before the first hyphen
    await expect(first.getByRole('cell').nth(2)).toHaveText('Cardano Open: Ecosystem');
    await expect(first.getByRole('cell').nth(3)).toHaveText('15,000 ADA');
    await expect(bodyRows(page).filter({ hasText: 'Micro-Insurance for Motorcycle Taxis' }).getByRole('cell').nth(3)).toHaveText(
      '152,000 ADA',
    ); // D-008
    await expect(bodyRows(page).filter({ hasText: 'Private Payroll DApp in Compact' }).getByRole('cell').nth(3)).toHaveText('2,500 USDM');

    const second = page.waitForRequest((r) => isListCall(new URL(r.url())) && new URL(r.url()).searchParams.get('page') === '1');
    await page.getByRole('button', { name: '2', exact: true }).click();
    expect(new URL((await second).url()).searchParams.get('size')).toBe('25');
    await expect(page).toHaveURL(/\/proposals\?page=1$/);
    await expect(page.getByText('Page 2 of 2')).toBeVisible();
    await expect(bodyRows(page)).toHaveCount(total - 25);
    // D-020 in the list: a proposal without a category reads 'No category'.
    await expect(bodyRows(page).filter({ hasText: 'Example Catalyst Proposal' }).getByRole('cell').nth(2)).toHaveText('No category');

    // The page lives in the query: opening ?page=1 directly shows the same rows.
    await page.goto('/proposals?page=1');
    await expect(bodyRows(page)).toHaveCount(total - 25);
    await expect(page.getByRole('button', { name: '2', exact: true })).toHaveAttribute('aria-current', 'page');

    // D-007: the title links to /proposal/{row_id}.
    const link = listTable(page).getByRole('link', { name: 'Example Catalyst Proposal' });
    const href = await link.getAttribute('href');
    expect(href).toMatch(/^\/proposal\/\d+$/);
    await link.click();
    await expect(page).toHaveURL(new RegExp(`${href}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Example Catalyst Proposal' })).toBeVisible();

    // D-020, D-023: that proposal has no category, and nested border groups.
    await expect(page.getByTestId('proposal-objective')).toHaveText('No category');
    const enterprise = page.getByRole('group', { name: 'Enterprise partnership', exact: true });
    await expect(
      enterprise.getByRole('group', {
        name: 'Is your proposal led by or in partnership with an established enterprise or team with a proven business track record?',
      }),
    ).toHaveText('Yes');
    await expect(
      enterprise.getByRole('group', { name: 'If Yes', exact: true }).getByRole('group', { name: 'Question', exact: true }),
    ).toHaveText('Example Enterprise with proven track record');
  });

  // D-006
  test('a visitor copies a short id', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/proposals');
    const row = bodyRows(page).filter({ hasText: 'Cardano Governance Explained for Voters' });
    await row.getByRole('button', { name: 'Copy the id of Cardano Governance Explained for Voters: 019a5ff3' }).click();
    // The copy is asynchronous (the Clipboard API answers a promise): wait for the clipboard to hold it.
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('019a5ff3');
  });

  // D-013, A-127
  test('D-013, A-127: a failing list call toasts and leaves an empty table with total 0', async ({ page }) => {
    await page.route(isListCall, (route) => route.fulfill({ status: 500, contentType: 'text/plain', body: 'upstream exploded' }));
    await page.goto('/proposals');
    await expectToast(page, 'Error fetching proposals');
    await expect(bodyRows(page)).toHaveCount(1);
    await expect(listTable(page)).toContainText('No items found.');
    await expect(page.getByText('Page 1 of 1')).toBeVisible();

    // With a message of its own, the server's message is the toast.
    await page.unroute(isListCall);
    await page.route(isListCall, (route) => route.fulfill({ status: 503, json: { message: 'The proposals are being imported.' } }));
    await titleFilter(page).fill('anything');
    await expectToast(page, 'The proposals are being imported.');
    await expect(listTable(page)).toContainText('No items found.');
  });
});

test.describe('allocated proposals (issue 5)', () => {
  // D-009, D-010, D-015, D-016
  test('the demo reviewer sees their 20 allocated proposals with a reviewed mark while review is open', async ({ page, request }) => {
    await presentReviewOpenStage(page, request); // the demo's stage is moderation open (issue 26 item 14)
    const call = page.waitForRequest((r) => new URL(r.url()).pathname === '/api/reviews/proposals/allocated');
    await login(page, demo.reviewer, { to: '/allocated-proposals' });
    const url = new URL((await call).url());
    expect(url.searchParams.get('size')).toBe('25');
    expect(url.searchParams.get('page')).toBe('0');
    await expect(page.getByRole('heading', { level: 1, name: 'Allocated proposals' })).toBeVisible();
    await expect(bodyRows(page, 'Allocated proposals')).toHaveCount(20);
    for (const column of ['ID', 'Title', 'Objective', 'Funds', 'Reviewed'])
      await expect(allocatedTable(page).getByRole('columnheader', { name: column, exact: true })).toBeVisible();
    // The demo reviewer has reviewed none of them (their reviews are in the past round).
    await expect(allocatedTable(page).getByText('Not reviewed')).toHaveCount(20);
    await expect(page.getByText('Page 1 of 1')).toBeVisible();
  });

  // D-009. Issue 26 item 12: the mark is the server's has_reviewed. A demo community reviewer of the demo round
  // (seeded: 20 allocated proposals, some of them reviewed; only read here) sees it on exactly the proposals whose
  // own review the API answers (GET proposals/{id}/submitted-review/), and 'Not reviewed' on the others.
  test('a reviewer sees Reviewed on exactly the allocated proposals they reviewed', async ({ page, request }) => {
    const reviewer = { catalystId: 'id.catalyst://cardano/demo-community-2', password: DEMO_PASSWORD };
    const auth = await tokenOf(request, reviewer);
    const allocated = (await (await request.get('/api/reviews/proposals/allocated?size=25&page=0', { headers: auth })).json()) as {
      data: { row_id: number; title: string }[];
    };
    const reviewed: string[] = [];
    for (const proposal of allocated.data) {
      const own = await request.get(`/api/reviews/proposals/${proposal.row_id}/submitted-review/`, { headers: auth });
      expect([200, 404]).toContain(own.status());
      if (own.status() === 200) reviewed.push(proposal.title);
    }
    expect(reviewed.length).toBeGreaterThan(0);
    expect(reviewed.length).toBeLessThan(allocated.data.length);

    // The reviewed column is a review-open stage's (D-010); the demo's moderation round makes the stage moderation.
    await presentReviewOpenStage(page, request);
    await login(page, reviewer.catalystId, { password: reviewer.password, to: '/allocated-proposals' });
    const rows = bodyRows(page, 'Allocated proposals');
    await expect(rows).toHaveCount(allocated.data.length);
    for (const proposal of allocated.data) {
      const row = rows.filter({ has: page.getByRole('link', { name: proposal.title, exact: true }) });
      await expect(row.getByText(reviewed.includes(proposal.title) ? 'Reviewed' : 'Not reviewed', { exact: true })).toBeVisible();
    }
    await expect(rows.getByText('Reviewed', { exact: true })).toHaveCount(reviewed.length);
  });

  // D-010
  test('the reviewed column hides outside review_open and for a user who cannot review', async ({ page }) => {
    await rewriteJson(page, '**/api/reviews/configs/reviews/*/', (json) => {
      if (json?.value) json.value.review_submission_enabled = false;
    });
    await login(page, demo.reviewer, { to: '/allocated-proposals' });
    await expect(bodyRows(page, 'Allocated proposals')).toHaveCount(20);
    await expect(allocatedTable(page).getByRole('columnheader', { name: 'Reviewed' })).toHaveCount(0);
  });

  test('a user without a reviewer subscription gets no reviewed column and an empty list', async ({ page }) => {
    await login(page, demo.admin, { to: '/allocated-proposals' });
    await expect(allocatedTable(page)).toContainText('No items found.');
    await expect(allocatedTable(page).getByRole('columnheader', { name: 'Reviewed' })).toHaveCount(0);
  });

  test('a visitor is asked to log in', async ({ page }) => {
    await page.goto('/allocated-proposals');
    await expect(page.getByRole('heading', { level: 1, name: 'Allocated proposals' })).toBeVisible();
    await expect(page.getByText('Please log in to see the proposals allocated to you.')).toBeVisible();
    await expect(allocatedTable(page)).toHaveCount(0);
    await expectAccessible(page);
    await page.getByRole('main').getByRole('link', { name: 'log in' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  // D-017, D-018: the allocated list is the viewer's 'My proposals' (the navigation's name); its count comes with the page.
  test('a failing allocated call toasts and leaves an empty list with total 0', async ({ page }) => {
    await page.route(
      (u) => u.pathname === '/api/reviews/proposals/allocated',
      (route) => route.fulfill({ status: 500, contentType: 'text/html', body: '<h1>Bad gateway</h1>' }),
    );
    await login(page, demo.reviewer, { to: '/allocated-proposals' });
    await expectToast(page, 'Error fetching allocated proposals');
    await expect(allocatedTable(page)).toContainText('No items found.');
    await expect(page.getByText('Page 1 of 1')).toBeVisible();
  });
});

test.describe('single proposal (issue 5, spec §2.12)', () => {
  // D-001, D-019, D-020, D-021, D-022, D-023, D-024, D-027, D-028, D-029, D-030
  test('a visitor opens a proposal: header, full-proposal link and fields of every type', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/proposals');
    const call = page.waitForRequest((r) => /\/api\/reviews\/proposals\/\d+\/$/.test(r.url()));
    await listTable(page).getByRole('link', { name: 'Stake Pool Operator Academy in Swahili' }).click();
    const id = /\/proposals\/(\d+)\/$/.exec((await call).url())![1];
    await expect(page).toHaveURL(new RegExp(`/proposal/${id}$`)); // D-022: GET proposals/{id}/ with the row id of the link

    await expect(page.getByRole('heading', { level: 1, name: 'Stake Pool Operator Academy in Swahili' })).toBeVisible(); // D-019
    await expect(page.getByTestId('proposal-objective')).toHaveText('Cardano Open: Ecosystem'); // D-020
    const information = page.getByRole('table', { name: 'Proposal information' });
    await expect(information.getByRole('row', { name: /Proposal id/ })).toContainText('019a5e00-1000-7000-8000-c0ffee000000'); // D-021
    await expect(information.getByRole('row', { name: /Proposer/ })).toContainText('Amara Okafor');
    await expect(information.getByRole('row', { name: /Requested funds/ })).toContainText('15,000 ADA');
    await information.getByRole('button', { name: /^Copy the proposal id/ }).click();
    // The copy is asynchronous (the Clipboard API answers a promise): wait for the clipboard to hold it.
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('019a5e00-1000-7000-8000-c0ffee000000');
    await expect(page.getByRole('region', { name: 'Summary', exact: true })).toContainText('Free video courses and live workshops');

    // D-024: the proposal has a url, so the button shows and opens it in a new tab.
    const full = page.getByRole('link', { name: /Open full proposal/ });
    await expect(full).toHaveAttribute('href', 'https://app.projectcatalyst.io/proposal/019a5e00-1000-7000-8000-c0ffee000000');
    await expect(full).toHaveAttribute('target', '_blank');
    await expect(full).toHaveAttribute('rel', /noopener/);

    // D-023: segments (h2) holding sections (h3) holding fields with title and answer.
    for (const segment of [
      'Proposal setup',
      'Proposal Summary',
      'Theme Selection',
      'Campaign Category',
      'Milestones',
      'Self-Assessment',
      'Required Acknowledgements',
    ]) {
      await expect(page.getByRole('heading', { level: 2, name: segment, exact: true })).toBeVisible();
    }
    const setup = page.getByRole('region', { name: 'Proposal setup', exact: true });
    await expect(setup.getByRole('heading', { level: 3, name: 'Applicant' })).toBeVisible();
    // D-028: single-line and multi-line text, yes/no, agreement confirmation, tag input.
    await expect(answer(page, 'Applicant name and surname')).toHaveText('Amara Okafor');
    await expect(answer(page, 'What is the problem you want to solve?')).toHaveText('Current challenge in the Cardano ecosystem...');
    await expect(answer(page, "Will your project's outputs be fully open source?")).toHaveText('Yes');
    await expect(answer(page, 'Have you previously submitted a project in Catalyst that was funded and is not yet completed?')).toHaveText(
      'No',
    );
    await expect(answer(page, 'I Agree')).toHaveText('Confirmed');
    await expect(answer(page, "Project ID's")).toHaveText('No answer');
    // D-027: markdown renders as HTML (a list here).
    const costs = answer(page, 'Please provide a cost breakdown of the proposed work and resources');
    await expect(costs.getByRole('listitem').first()).toHaveText('Development (70%): 105,000 ADA');
    await expect(costs.getByRole('list')).toHaveCount(1);
    // D-029: a list of https URLs is a list of links, opened in a new tab without access to this window.
    const links = answer(page, 'Supporting links').getByRole('link');
    await expect(links).toHaveCount(4);
    await expect(links.first()).toHaveAttribute('href', 'https://github.com/example/project');
    await expect(links.first()).toHaveAttribute('target', '_blank');
    await expect(links.first()).toHaveAttribute('rel', 'noopener noreferrer');
    // D-030: the grouped tag selector shows group and tag.
    await expect(answer(page, 'Please choose the most relevant theme and tag related to the outcomes of your proposal')).toHaveText(
      'DeFi › Staking',
    );
    // Other types read as text; lists of milestones are nested groups.
    await expect(answer(page, 'Original Language')).toHaveText('de');
    const milestones = page.getByRole('group', {
      name: 'What are the key milestones you need to achieve in order to complete your project successfully?',
      exact: true,
    });
    const firstMilestone = milestones.getByRole('group', {
      name: 'What are the key milestones you need to achieve in order to complete your project successfully? 1',
      exact: true,
    });
    await expect(firstMilestone.getByRole('group', { name: 'Milestone Title', exact: true })).toHaveText('Initial Setup and Planning');
    await expect(firstMilestone.getByRole('group', { name: 'Cost', exact: true })).toHaveText('30,000 ADA');
    await expect(firstMilestone.getByRole('group', { name: 'Acceptance Criteria', exact: true }).getByRole('listitem')).toHaveCount(2);
  });

  // D-026
  test('scroll-to-top and scroll-to-reviews switch at 10 px from the top and the bottom', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/proposal/1');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Milestones' })).toBeVisible();
    await expectAccessible(page); // the proposal's page, every section shown
    const toTop = page.getByRole('button', { name: 'Scroll to top' });
    const toReviews = page.getByRole('button', { name: 'Scroll to reviews' });
    const scrollTo = (y: number) => page.evaluate((top) => window.scrollTo(0, top), y);
    const bottom = () => page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);

    await expect(toReviews).toBeVisible();
    await expect(toTop).toHaveCount(0);
    await scrollTo(10);
    await expect(toTop).toHaveCount(0);
    await scrollTo(11);
    await expect(toTop).toBeVisible();
    await expect(toReviews).toBeVisible();

    // The proposal's reviews arrive after the heading and lengthen the page (once seen under load, after the bottom had
    // held still): each step measures the bottom as it scrolls, and measures again should the page have grown since.
    const fromBottom = (gap: number, check: () => Promise<void>) =>
      expect(async () => {
        await scrollTo((await bottom()) - gap);
        await check();
      }).toPass();
    await fromBottom(11, () => expect(toReviews).toBeVisible({ timeout: 2_000 }));
    await fromBottom(10, () => expect(toReviews).toHaveCount(0, { timeout: 2_000 }));
    await expect(toTop).toBeVisible();

    await scrollTo(200);
    await toReviews.click();
    await expect
      .poll(() => page.evaluate(() => Math.round(document.getElementById('reviews')!.getBoundingClientRect().top) <= window.innerHeight))
      .toBe(true);
    // The button hides once within 10 px of the bottom: a short reviews box reaches it, a long one (other tests may
    // have reviewed this proposal) does not.
    const atBottom = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight - window.scrollY <= 10);
    await expect(toReviews).toHaveCount(atBottom ? 0 : 1);
    await toTop.click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect(toTop).toHaveCount(0);
    await expect(toReviews).toBeVisible();
  });

  test('a proposal that does not exist says so', async ({ page }) => {
    await page.goto('/proposal/999999');
    await expect(page.getByRole('heading', { level: 1, name: 'Proposal not found' })).toBeVisible();
    await expect(page.getByText('The proposal you are looking for does not exist.')).toBeVisible();
    await expectAccessible(page);
    await page.goto('/proposal/not-a-number');
    await expect(page.getByRole('heading', { level: 1, name: 'Proposal not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Back to the proposals' }).click();
    await expect(page).toHaveURL(/\/proposals$/);
  });
});

// ---------- a crafted proposal, imported into an event of its own ----------

const ref = (name: string) => `#/definitions/${name}`;
const field = (name: string, title: string, extra: Record<string, unknown> = {}) => ({ $ref: ref(name), title, ...extra });

/** A small template in the Catalyst Voices shape: segments → sections → fields, one field of each type. */
const craftedSchema = {
  properties: {
    setup: {
      $ref: ref('segment'),
      title: 'Proposal setup',
      properties: {
        title: { $ref: ref('section'), title: 'Proposal title', properties: { title: field('singleLineTextEntry', 'Title') } },
      },
    },
    summary: {
      $ref: ref('segment'),
      title: 'Proposal summary',
      properties: {
        budget: {
          $ref: ref('section'),
          title: 'Budget',
          properties: { requestedFunds: field('tokenValueCardanoADA', 'Requested funds in ADA') },
        },
      },
    },
    details: {
      $ref: ref('segment'),
      title: 'Every field type',
      properties: {
        answers: {
          $ref: ref('section'),
          title: 'Answers',
          properties: {
            markdown: field('multiLineTextEntryMarkdown', 'Markdown answer'),
            single: field('singleLineTextEntry', 'Single-line answer'),
            multi: field('multiLineTextEntry', 'Multi-line answer'),
            yesno: field('yesNoChoice', 'Yes or no'),
            agreement: field('agreementConfirmation', 'Agreement'),
            links: field('singleLineHttpsURLEntryList', 'Links', { items: { type: 'string' } }),
            tags: field('tagInput', 'Plain tags', { items: { type: 'string' } }),
            projects: field('tagInput', 'Project IDs', {
              items: { type: 'object', properties: { project_id: { type: 'string', title: 'Project ID' } } },
            }),
            theme: field('singleGroupedTagSelector', 'Theme'),
            language: field('languageCode', 'Language'),
            group: field('borderGroup', 'A border group', { properties: { inner: field('singleLineTextEntry', 'Inner answer') } }),
          },
        },
      },
    },
  },
};

const craftedPayload = {
  setup: { title: { title: 'Crafted <b>proposal</b>' } },
  summary: { budget: { requestedFunds: 1234 } },
  details: {
    answers: {
      markdown: [
        '## Heading in markdown',
        '**bold** text',
        '<script>window.__xss = 1; alert("script")</script>',
        '<img src="x" onerror="window.__xss = 2; alert(\'onerror\')" id="injected-img">',
        '<a href="javascript:window.__xss = 3" id="injected-link">a link</a>',
        '<iframe src="javascript:alert(1)" id="injected-frame"></iframe>',
      ].join('\n\n'),
      single: '<img src=x onerror="window.__xss = 4">',
      multi: 'line one\nline two <script>window.__xss = 5</script>',
      yesno: true,
      agreement: false,
      links: ['https://example.com/a', 'http://insecure.example/b', 'javascript:alert(1)'],
      tags: ['alpha', 'beta'],
      projects: [{ project_id: '1234567' }, { project_id: '7654321' }],
      theme: { group: 'Governance', tag: 'DAO tooling' },
      language: 'en',
      group: { inner: 'nested value' },
    },
  },
};

/**
 * Imports the crafted proposal into a new event and answers its row id. The event stays inactive (the import and
 * GET proposals/{id}/ don't need it active), so the shared demo state (current events, the list's contents) that
 * parallel tests see never changes.
 */
async function importCrafted(request: APIRequestContext) {
  const headers = await adminHeaders(request);
  const name = `E2E crafted proposals ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const created = await request.post('/api/reviews/events/', {
    headers,
    data: { new_event: { name, description: 'Holds a crafted proposal of a browser test.', active: false } },
  });
  expect(created.status()).toBe(201);
  const event = (await created.json()) as { row_id: number };
  const restore = async () => {
    const put = await request.put(`/api/reviews/events/${event.row_id}/`, {
      headers,
      data: { event_update: { name, description: 'Holds a crafted proposal of a browser test.', active: false } },
    });
    expect(put.ok()).toBeTruthy();
  };
  try {
    const imported = await request.post(`/api/reviews/proposals/import/${event.row_id}`, {
      headers,
      data: {
        import_options: {
          source: 'file',
          dry_run: false,
          file: {
            format: 'catalyst-voices-proposals/1',
            categories: {},
            templates: { t1: { category: null, schema: craftedSchema } },
            documents: [
              { id: `crafted-${event.row_id}`, ver: '1', template: 't1', authors: ['id.catalyst://cardano/x'], payload: craftedPayload },
            ],
          },
        },
      },
    });
    expect(imported.status()).toBe(200);
    expect(await imported.json()).toMatchObject({ created: 1, skipped: 0 });
    const list = await request.get(`/api/reviews/proposals/?event_id=${event.row_id}&size=5&page=0`);
    const rows = ((await list.json()) as { data: { row_id: number }[] }).data;
    expect(rows).toHaveLength(1);
    return { rowId: rows[0]!.row_id, restore };
  } catch (error) {
    await restore();
    throw error;
  }
}

test.describe('a crafted proposal (issue 5)', () => {
  // D-020, D-024, D-027, D-028, D-029, D-030, D-031
  test('fields of every type render, and markup holding <script> or onerror stays inert', async ({ page, request }) => {
    const { rowId, restore } = await importCrafted(request);
    try {
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goto(`/proposal/${rowId}`);
      // The title is text, never HTML.
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Crafted <b>proposal</b>');
      await expect(page.locator('h1 b')).toHaveCount(0);
      await expect(page.getByTestId('proposal-objective')).toHaveText('No category'); // D-020
      const information = page.getByRole('table', { name: 'Proposal information' });
      await expect(information.getByRole('row', { name: /Proposer/ })).toContainText('Anonymous');
      await expect(information.getByRole('row', { name: /Requested funds/ })).toContainText('1,234 ADA');
      await expect(page.getByRole('link', { name: /Open full proposal/ })).toHaveCount(0); // D-024: no url, no button

      // D-027: markdown renders; D-031: what it held of scripts and handlers is gone.
      const markdown = answer(page, 'Markdown answer');
      await expect(markdown.getByRole('heading', { name: 'Heading in markdown' })).toBeVisible();
      await expect(markdown.locator('strong')).toHaveText('bold');
      await page.waitForLoadState('networkidle');
      await expect(page.locator('main script, main iframe, main [onerror], main [onload], main a[href^="javascript:"]')).toHaveCount(0);
      await expect(page.locator('#injected-frame')).toHaveCount(0);
      await expect(markdown.getByText('a link')).not.toHaveAttribute('href', /.*/);
      // Plain-text fields show markup as text, creating no element.
      await expect(answer(page, 'Single-line answer')).toHaveText('<img src=x onerror="window.__xss = 4">');
      await expect(answer(page, 'Single-line answer').locator('img')).toHaveCount(0);
      await expect(answer(page, 'Multi-line answer')).toHaveText('line one\nline two <script>window.__xss = 5</script>');
      expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
      expect(dialogs).toEqual([]);

      // D-028..D-030: the other types.
      await expect(answer(page, 'Yes or no')).toHaveText('Yes');
      await expect(answer(page, 'Agreement')).toHaveText('Not confirmed');
      const links = answer(page, 'Links');
      await expect(links.getByRole('link')).toHaveCount(1); // only the https address is a link
      await expect(links.getByRole('link')).toHaveAttribute('href', 'https://example.com/a');
      await expect(links.getByRole('listitem')).toHaveText(['https://example.com/a', 'http://insecure.example/b', 'javascript:alert(1)']);
      await expect(answer(page, 'Plain tags').getByRole('listitem')).toHaveText(['alpha', 'beta']);
      await expect(answer(page, 'Project IDs').getByRole('listitem')).toHaveText(['1234567', '7654321']);
      await expect(answer(page, 'Theme')).toHaveText('Governance › DAO tooling');
      await expect(answer(page, 'Language')).toHaveText('en');
      await expect(
        page.getByRole('group', { name: 'A border group', exact: true }).getByRole('group', { name: 'Inner answer' }),
      ).toHaveText('nested value');
      await expectAccessible(page);
      expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
      expect(dialogs).toEqual([]);
    } finally {
      await restore();
    }
  });
});

// axe on the proposal screens: each screen is checked in the test that opens it (the list, a proposal, the not-found
// page and the visitor's allocated list above; the reviewer's allocated list in offline.spec.ts), the campaign
// category's page here. axe on six pages in one test outran the test timeout on a busy CI machine.
test.describe('accessibility of the proposal screens (axe-core)', () => {
  test('a proposal with a campaign category', async ({ page }) => {
    await page.goto('/proposal/31');
    await expect(page.getByRole('heading', { level: 2, name: 'Campaign Category' })).toBeVisible();
    await expectAccessible(page);
  });
});
