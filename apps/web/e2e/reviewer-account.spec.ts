import { expect, test, type Page } from './fixtures';
import { activeUser, demo, expectAccessible, expectToast, login, rewriteJson } from './support';

/*
 * The reviewer's account as the server reports it in other states than the demo's defaults: due diligence under
 * way, a registration not yet on chain, a history of reviews. The demo server runs without a verification provider
 * and with the local registry, so these tests rewrite the users/me answer the way such a server would send it.
 */

const ME = '**/api/reviews/users/me/';

/** Serves users/me with `change` applied, and counts how often the page asked. */
async function meAs(page: Page, change: (json: any) => void) {
  const calls = { count: 0 };
  await rewriteJson(page, ME, (json) => {
    calls.count += 1;
    change(json);
  });
  return calls;
}

test.describe('account bars, due diligence and the profile (issue 4)', () => {
  // C-031, C-032, C-033
  test('the due-diligence bar opens the modal, whose refresh reloads the user info and closes it', async ({ page, request }) => {
    const user = await activeUser(request);
    let status = 1;
    const calls = await meAs(page, (json) => {
      json.extra.due_diligence = { status, url: 'https://verify.example/start?level=due_diligence&ref=abc' };
    });
    await login(page, user.catalystId, user.password);
    const bar = page.getByTestId('due-diligence-bar');
    await expect(bar).toContainText('Your due diligence is not complete.'); // C-031: initialized
    await bar.getByRole('button', { name: 'Complete due diligence' }).click();
    const modal = page.getByRole('dialog', { name: 'Due diligence' });
    await expect(modal).toContainText('Level-2 reviewers receive larger rewards'); // C-032
    await expect(modal.getByRole('link', { name: 'Complete due diligence' })).toHaveAttribute('href', /verify\.example/);
    await expectAccessible(page);

    status = 2; // pending: the bar stays
    const before = calls.count;
    await modal.getByRole('button', { name: 'I have finished: refresh my status' }).click();
    await expect(modal).toBeHidden(); // C-033: closes
    expect(calls.count).toBeGreaterThan(before); // C-033: GET users/me/ again
    await expect(bar).toBeVisible();

    status = 3; // approved: the next refresh takes the bar away
    await bar.getByRole('button', { name: 'Complete due diligence' }).click();
    await page
      .getByRole('dialog', { name: 'Due diligence' })
      .getByRole('button', { name: /refresh my status/ })
      .click();
    await expect(bar).toHaveCount(0);
  });

  // C-031, C-040
  test('no due-diligence bar for unknown, approved or rejected status; the profile section only above 0', async ({ page, request }) => {
    const user = await activeUser(request);
    let status = 0;
    await meAs(page, (json) => {
      json.extra.due_diligence = { status, url: null };
    });
    await login(page, user.catalystId, { password: user.password, to: '/profile' });
    await expect(page.getByRole('region', { name: 'Personal info' })).toBeVisible();
    await expect(page.getByTestId('due-diligence-bar')).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Due diligence' })).toHaveCount(0); // status 0: hidden
    for (const [value, label] of [
      [3, 'approved'],
      [4, 'rejected'],
    ] as const) {
      status = value;
      await page.reload();
      await expect(page.getByRole('region', { name: 'Due diligence' })).toContainText(label);
      await expect(page.getByTestId('due-diligence-bar')).toHaveCount(0);
    }
  });

  // C-035, C-036
  test('the yellow registration-pending bar shows while the on-chain registration is not persistent', async ({ page, request }) => {
    const user = await activeUser(request);
    let rbac = 2;
    await meAs(page, (json) => {
      json.catalyst_id.rbac_reg_status = rbac;
    });
    await login(page, user.catalystId, user.password);
    const bar = page.getByTestId('registration-bar');
    await expect(bar).toContainText('registration pending'); // volatile
    await expectAccessible(page);
    for (const value of [0, 1]) {
      rbac = value;
      await page.reload();
      await expect(bar).toContainText('registration pending');
    }
    rbac = 3;
    await page.reload();
    await expect(page.getByRole('banner')).toBeVisible();
    await expect(bar).toHaveCount(0);
  });

  // C-038, C-039, C-041, C-044, C-045, C-046, C-048
  test('the profile shows its sections and the stats with their formulas', async ({ page, request }) => {
    const user = await activeUser(request);
    await meAs(page, (json) => {
      json.extra.historic_stats.reviews = { active_funds: 3, submitted: 12, blank: 2, valid: 7, approval_rate: 0.7 };
      json.extra.stats.reviews = { allocations: 40, submitted: 9, allocated_submitted: 6 };
      json.extra.subscriptions = [
        {
          row_id: 1,
          event_id: 1,
          event: { name: 'Older round' },
          role: 0,
          status: 1,
          extra: { anonymous_id: 'olderid234', sumsub_link: null, preferred_categories: [], subscribed_at: '2025-01-01T00:00:00.000Z' },
        },
        {
          row_id: 2,
          event_id: 2,
          event: { name: 'Newer round' },
          role: 1,
          status: 0,
          extra: {
            anonymous_id: 'newerid234',
            sumsub_link: 'https://verify.example/start?level=identity&ref=x',
            preferred_categories: [{ id: 1, title: 'Developers' }],
            subscribed_at: '2026-06-01T00:00:00.000Z',
          },
        },
      ].reverse(); // the server sends newest first
    });
    await login(page, user.catalystId, { password: user.password, to: '/profile' });
    for (const name of ['Personal info', 'Reviewer subscriptions', 'Historic stats', 'Current event stats', 'Change password']) {
      await expect(page.getByRole('region', { name })).toBeVisible(); // C-038, C-041
    }
    const rows = page.getByRole('table', { name: 'Reviewer subscriptions' }).getByRole('row');
    await expect(rows.nth(1)).toContainText('Newer round'); // C-039: newest subscribed_at first
    await expect(rows.nth(1)).toContainText('LV1');
    await expect(rows.nth(1).getByRole('link', { name: 'Verify your identity' })).toHaveAttribute('href', /level=identity/);
    await expect(rows.nth(2)).toContainText('Older round');

    // C-044: submitted, blank, valid, funds participating, accepted and approval rate.
    await expect(page.getByTestId('stat-funds')).toHaveText('3');
    await expect(page.getByTestId('stat-submitted')).toHaveText('12');
    await expect(page.getByTestId('stat-blank')).toHaveText('2');
    await expect(page.getByTestId('stat-valid')).toHaveText('7');
    await expect(page.getByTestId('stat-approval')).toHaveText('70%'); // C-046: the server's 7 / (12 − 2) as a rounded percent
    await expect(page.getByTestId('stat-excluded')).toHaveText('3'); // C-048: 12 − 2 − 7
    // C-045
    await expect(page.getByTestId('stat-allocations')).toHaveText('40');
    await expect(page.getByTestId('stat-current-submitted')).toHaveText('9');
    await expect(page.getByTestId('stat-allocated-submitted')).toHaveText('6');
    await expectAccessible(page);
  });

  // C-047
  test('the approval rate is 0 when nothing was submitted or everything was blank', async ({ page, request }) => {
    const user = await activeUser(request);
    let history = { active_funds: 0, submitted: 0, blank: 0, valid: 0, approval_rate: 0 };
    await meAs(page, (json) => {
      json.extra.historic_stats.reviews = history;
    });
    await login(page, user.catalystId, { password: user.password, to: '/profile' });
    await expect(page.getByTestId('stat-approval')).toHaveText('0%');
    history = { active_funds: 1, submitted: 4, blank: 4, valid: 0, approval_rate: 0 };
    await page.reload();
    await expect(page.getByTestId('stat-submitted')).toHaveText('4');
    await expect(page.getByTestId('stat-approval')).toHaveText('0%');
    await expect(page.getByTestId('stat-excluded')).toHaveText('0');
  });

  // C-013
  test('a subscription answered with an identity-verification link shows that link', async ({ page, request }) => {
    const user = await activeUser(request);
    await rewriteJson(page, '**/api/reviews/subscriptions/', (json) => {
      for (const item of json)
        Object.assign(item, { status: 0, extra: { ...item.extra, sumsub_link: 'https://verify.example/start?level=identity&ref=abc' } });
    });
    await login(page, user.catalystId, user.password);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    const modal = page.getByRole('dialog', { name: /^Subscribe to / });
    await modal.getByRole('checkbox', { name: 'I want to be a reviewer' }).check();
    await modal.getByRole('checkbox', { name: 'accept fund rules' }).check();
    await modal.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByRole('dialog').getByRole('link', { name: /verif/i })).toHaveAttribute(
      'href',
      'https://verify.example/start?level=identity&ref=abc',
    );
    await expect(page.getByTestId('subscription-confirmation')).toHaveCount(0);
  });

  // C-008, C-012
  test('a failed categories fetch toasts and leaves the list empty; a failed subscription toasts and keeps the form', async ({
    page,
    request,
  }) => {
    const user = await activeUser(request);
    await page.route('**/api/reviews/categories/**', (route) => route.fulfill({ status: 500, body: 'upstream failure' }));
    await page.route('**/api/reviews/subscriptions/', (route) => route.fulfill({ status: 500, body: 'upstream failure' }));
    await login(page, user.catalystId, user.password);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    await expectToast(page, 'Error fetching categories'); // C-008
    const modal = page.getByRole('dialog', { name: /^Subscribe to / });
    await modal.getByRole('textbox', { name: 'Preferred categories' }).click();
    await expect(page.getByRole('listbox').getByRole('option')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await modal.getByRole('checkbox', { name: 'I want to be a reviewer' }).check();
    await modal.getByRole('checkbox', { name: 'accept fund rules' }).check();
    await modal.getByRole('button', { name: 'Subscribe' }).click();
    await expectToast(page, /Subscription submission failed.*Please try again/); // C-012
    await expect(modal.getByRole('checkbox', { name: 'accept fund rules' })).toBeChecked();
  });

  // C-026
  test('a failed invitation answer toasts and keeps the second form', async ({ page, request }) => {
    const user = await activeUser(request);
    await page.route('**/api/reviews/subscriptions/', (route) =>
      route.fulfill({
        status: 201,
        json: [
          {
            row_id: 9,
            event_id: 1,
            event: { name: 'Fund 15 (demo)' },
            role: 2,
            status: 3,
            extra: { anonymous_id: 'invited234', sumsub_link: null, preferred_categories: [], subscribed_at: new Date().toISOString() },
          },
        ],
      }),
    );
    await page.route('**/api/reviews/subscriptions/invitation', (route) => route.fulfill({ status: 500, body: 'upstream failure' }));
    await login(page, user.catalystId, user.password);
    await page.getByRole('button', { name: 'Subscribe' }).click();
    const modal = page.getByRole('dialog', { name: /^Subscribe to / });
    await modal.getByRole('checkbox', { name: 'I want to be a reviewer' }).check();
    await modal.getByRole('checkbox', { name: 'accept fund rules' }).check();
    await modal.getByRole('button', { name: 'Subscribe' }).click();
    const form = page.getByRole('dialog', { name: /^Level-2 invitation for / });
    await form.getByRole('button', { name: /decline/i }).click();
    await expectToast(page, /Failed to submit invitation response.*Please try again/); // C-026
    await expect(form).toBeVisible();
  });

  // C-037
  test('/profile shows the logged-in user their own profile, whoever else they ask for', async ({ page, request }) => {
    const user = await activeUser(request);
    await login(page, user.catalystId, { password: user.password, to: `/profile?catalyst_id=${encodeURIComponent(demo.admin)}` });
    await expect(page.getByRole('region', { name: 'Personal info' })).toContainText(user.catalystId);
    await expect(page.getByRole('region', { name: 'Personal info' })).not.toContainText(demo.admin);
    // Another user's profile is an admin page: a reviewer does not get it, and the API refuses it too.
    await page.goto(`/admin/users/${encodeURIComponent(demo.admin)}`);
    await expect(page.getByText('This section is only accessible to admins.')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Personal info' })).toHaveCount(0);
  });
});
