import { expect, test, type Locator, type Page } from './fixtures';
import { demo, expectAccessible, expectListsShown, expectToast, login, presentReviewOpenStage, registerThroughApi } from './support';

const stageBadge = (page: Page) => page.getByTestId('stage-badge');

test.describe('the admin area (issue 3)', () => {
  // B-020, B-021, B-022, B-026, B-028, B-029, B-030, B-031, B-047, B-048, B-049, B-050, B-051, B-052, B-010, B-014
  test('an admin creates an event, edits it, switches moderation on and sees the stage badge change', async ({ page, request }) => {
    const name = `E2E fund ${Date.now().toString(36)}`;
    // This page sees the demo's moderation round closed, so that the badge reads the demo's review stage before.
    await presentReviewOpenStage(page, request);
    await login(page, demo.admin, { to: '/admin/events' });
    await expect(page.getByRole('columnheader', { name: 'description' })).toBeVisible();
    for (const column of ['id', 'name', 'start', 'end', 'active'])
      await expect(page.getByRole('columnheader', { name: column, exact: true })).toBeVisible();

    await page.getByRole('button', { name: 'New fund' }).click();
    const modal = page.getByRole('dialog', { name: 'New event' });
    await expect(modal).toBeVisible();
    await expect(modal.getByRole('switch', { name: 'Active' })).not.toBeChecked(); // B-028
    const nameField = modal.getByRole('textbox', { name: /^Name/ });
    // B-048: no message before the field was edited.
    await expect(modal.getByText('Name is required.')).toHaveCount(0);
    await nameField.fill('x');
    await nameField.fill('');
    await nameField.press('Tab'); // edited and left empty
    await expect(modal.getByText('Name is required.')).toBeVisible();
    await expect(modal.getByRole('button', { name: 'Save' })).toBeDisabled();
    await nameField.fill(name);
    await modal.getByRole('textbox', { name: /^Description/ }).fill('Created by a browser test.');
    const create = page.waitForRequest((r) => r.url().endsWith('/api/reviews/events/') && r.method() === 'POST');
    await modal.getByRole('button', { name: 'Save' }).click();
    expect((await create).postDataJSON()).toMatchObject({ new_event: { name, description: 'Created by a browser test.', active: false } }); // B-029
    await expectToast(page, 'Event created or updated'); // B-031

    const row = page.getByRole('row').filter({ hasText: name });
    await expect(row).toBeVisible();
    await row.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit event' });
    await edit.getByRole('switch', { name: 'Active' }).check();
    const update = page.waitForRequest((r) => /\/api\/reviews\/events\/\d+\/$/.test(r.url()) && r.method() === 'PUT');
    await edit.getByRole('button', { name: 'Save' }).click();
    expect((await update).postDataJSON()).toMatchObject({ event_update: { name, active: true } }); // B-030
    await expectToast(page, 'Event created or updated');
    await expect(row.getByText('Yes')).toBeVisible();

    // B-021: the row links to the event's configuration screen.
    await row.getByRole('link', { name: `Configure ${name}` }).click();
    await expect(page).toHaveURL(/\/admin\/\d+/);
    const menu = page.getByRole('navigation', { name: 'Event configuration sections' });
    for (const section of [
      'Overview',
      'General Configuration',
      'Review Levels',
      'Proposal Allocation',
      'Moderation Allocation',
      'Review Outcomes',
      'Proposal Scoring',
      'Export Data',
      'Import Proposals',
    ]) {
      await expect(menu.getByRole('button', { name: section })).toBeVisible(); // B-047
    }
    // The Overview comes first (issue 15 item 5); the general configuration is one click away.
    await expect(menu.getByRole('button', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
    await menu.getByRole('button', { name: 'General Configuration' }).click();
    // B-049, B-050: switches for *_enabled, date-time inputs for *_at.
    for (const setting of [
      'User registration',
      'Reviewer subscription',
      'Review visibility',
      'Review submission',
      'Moderation submission',
    ]) {
      await expect(page.getByRole('switch', { name: setting, exact: true })).toBeVisible();
    }
    await expect(page.locator('[data-setting$="_at"]')).toHaveCount(6);
    // Issue 45 item 12: the screen's two forms each name what their button saves; neither is a bare "Save".
    await expect(page.getByRole('button', { name: 'Save general settings', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save reminder settings', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save', exact: true })).toHaveCount(0);
    // Issue 17: a new event's windows are not set, so the server leaves them out; the form shows each one, empty.
    await expect(page.locator('[data-setting="review_submission_starts_at"]')).toHaveValue('');
    await expect(page.locator('[data-setting="review_submission_starts_at"]')).toHaveAttribute('placeholder', 'YYYY-MM-DD HH:mm');

    await expect(stageBadge(page)).toHaveText(/review open/i); // the demo round is open for review
    await page.getByRole('switch', { name: 'Moderation submission', exact: true }).check();
    const put = page.waitForRequest((r) => /\/api\/reviews\/configs\/reviews\/\d+\/$/.test(r.url()) && r.method() === 'PUT');
    await page.getByRole('button', { name: 'Save general settings' }).click();
    const saved = await put;
    // B-051; an empty window is saved as null, and the answer leaves it out (issue 17).
    expect(saved.postDataJSON().record_update).toMatchObject({ moderation_submission_enabled: true, review_submission_starts_at: null });
    const answer = (await (await saved.response())!.json()) as { value: Record<string, unknown> };
    expect(Object.keys(answer.value).filter((setting) => setting.endsWith('_at'))).toEqual([]);
    await expectToast(page, 'Config saved'); // B-052
    await expect(stageBadge(page)).toHaveText(/moderation open/i); // B-010, B-014

    // Put the round back as it was, so other tests see the demo stage.
    await page.getByRole('switch', { name: 'Moderation submission', exact: true }).uncheck();
    await page.getByRole('button', { name: 'Save general settings' }).click();
    await expect(stageBadge(page)).toHaveText(/review open/i);
    await page.goto('/admin/events');
    await page
      .getByRole('row')
      .filter({ hasText: name })
      .getByRole('button', { name: `Edit ${name}` })
      .click();
    await page.getByRole('dialog', { name: 'Edit event' }).getByRole('switch', { name: 'Active' }).uncheck();
    await page.getByRole('dialog', { name: 'Edit event' }).getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Event created or updated');
  });

  // B-027
  test('a second event with a used name is refused with the server message', async ({ page }) => {
    await login(page, demo.admin, { to: '/admin/events' });
    await page.getByRole('button', { name: 'New fund' }).click();
    const modal = page.getByRole('dialog', { name: 'New event' });
    await modal.getByRole('textbox', { name: /^Name/ }).fill('fund 15 (DEMO)');
    await modal.getByRole('textbox', { name: /^Description/ }).fill('Same name, other case.');
    await modal.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'An event with this name already exists.');
    await expect(modal).toBeVisible(); // nothing typed is lost
    // Closed, the modal gives focus back to the button that opened it (on its first open too, when its code loaded).
    await page.keyboard.press('Escape');
    await expect(modal).toBeHidden();
    await expect(page.getByRole('button', { name: 'New fund' })).toBeFocused();
  });

  // B-053, B-054, B-055, B-056
  test('review levels show both qualifiers and refuse values out of range', async ({ page }) => {
    await login(page, demo.admin, { to: '/admin/events' });
    await page.getByRole('link', { name: 'Configure Fund 15 (demo)' }).click();
    await page.getByRole('navigation', { name: 'Event configuration sections' }).getByRole('button', { name: 'Review Levels' }).click();
    const lv1 = page.getByRole('group', { name: 'Level 1 (LV1)' });
    await expect(page.getByRole('group', { name: 'Level 2 (LV2)' })).toBeVisible();
    const share = lv1.getByRole('textbox', { name: /^Minimum share of valid reviews/ });
    await share.fill('1.5');
    await expect(lv1.getByText('Minimum share of valid reviews must be between 0 and 1.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
    await share.fill('0.5');
    const count = lv1.getByRole('textbox', { name: /^Minimum valid reviews/ });
    await count.fill('3');
    const put = page.waitForRequest((r) => r.url().includes('/configs/reviews-level-qualifiers/') && r.method() === 'PUT');
    await page.getByRole('button', { name: 'Save' }).click();
    expect((await put).postDataJSON().record_update.lv1).toMatchObject({ min_valid_reviews: 3, min_perc_valid_reviews: 0.5 });
    await expectToast(page, 'Config saved');
  });

  // Found when the suite ran faster: a message added before the saved list had loaded was wiped out by it.
  test('a status message can be added only once the saved messages have loaded, and is kept', async ({ page }) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/reviews/configs/status/', async (route) => {
      if (route.request().method() === 'GET') await held;
      await route.continue();
    });
    await login(page, demo.admin, { to: '/admin/status' });
    const add = page.getByRole('button', { name: 'Add a message' });
    await expect(page.getByRole('heading', { name: 'Status messages' })).toBeVisible();
    await expect(add).toBeDisabled();
    release();
    await expect(add).toBeEnabled();
    const before = await page.getByTestId('status-message-form').count();
    await add.click();
    await page
      .getByTestId('status-message-form')
      .last()
      .getByRole('textbox', { name: /^Message/ })
      .fill('Kept while typing');
    await expect(page.getByTestId('status-message-form')).toHaveCount(before + 1);
    await expect(
      page
        .getByTestId('status-message-form')
        .last()
        .getByRole('textbox', { name: /^Message/ }),
    ).toHaveValue('Kept while typing');
  });

  // B-033, B-034, B-035, C-049, C-050, C-051, C-052
  test('the users tab pages by 25, copies a Catalyst ID and opens a profile', async ({ page, context, request }) => {
    // Enough accounts for a second page.
    for (let i = 0; i < 26; i += 1) await registerThroughApi(request);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const first = page.waitForRequest((r) => r.url().includes('/api/reviews/admin/users?'));
    await login(page, demo.admin, { to: '/admin/users' });
    const url = new URL((await first).url());
    expect(url.searchParams.get('size')).toBe('25');
    expect(url.searchParams.get('page')).toBe('0');
    // The username column shows only when someone on the page has one (issue 12 item 12, tested in walk.spec.ts).
    for (const column of ['catalyst_id', 'email', 'registered', 'account status'])
      await expect(page.getByRole('columnheader', { name: column, exact: true })).toBeVisible();
    const body = page.getByRole('table', { name: 'Users' }).locator('tbody tr');
    await expect(body).toHaveCount(25);
    await page.getByRole('button', { name: '2', exact: true }).click();
    await expect(page).toHaveURL(/[?&]page=1/);
    await expect(body.first()).toBeVisible();

    await page.getByRole('textbox', { name: 'Search users' }).fill('demo-reviewer');
    await expect(body).toHaveCount(1);
    await body
      .first()
      .getByRole('button', { name: /^Copy: id\.catalyst:\/\/cardano\/demo-reviewer/ })
      .click();
    // The copy is asynchronous (the Clipboard API answers a promise): wait for the clipboard to hold it.
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe('id.catalyst://cardano/demo-reviewer');
    const fetched = page.waitForRequest((r) => r.url().includes('/api/reviews/admin/users/id.catalyst')); // C-049
    await body
      .first()
      .getByRole('link', { name: /View the profile of/ })
      .click();
    expect(decodeURIComponent((await fetched).url())).toContain('/api/reviews/admin/users/id.catalyst://cardano/demo-reviewer');
    await expect(page).toHaveURL(/\/admin\/users\/id\.catalyst%3A%2F%2Fcardano%2Fdemo-reviewer$/);
    await expect(page.getByRole('heading', { name: 'id.catalyst://cardano/demo-reviewer' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Personal info' })).toContainText('reviewer@demo.local');
    // C-052: read-only: no forms, no change-password block, no actions on the subscriptions.
    await expect(page.getByRole('region', { name: 'Change password' })).toHaveCount(0);
    await expect(page.getByRole('main').getByRole('textbox')).toHaveCount(0);

    await page.goto(`/admin/users/${encodeURIComponent('id.catalyst://cardano/nobody-here')}`);
    await expectToast(page, 'The user you are looking for does not exist or an error occurred.'); // C-050
    await expect(page.getByRole('heading', { name: 'User not found' })).toBeVisible(); // C-051
    await expect(page.getByRole('main').getByText('The user you are looking for does not exist or an error occurred.')).toBeVisible();
  });

  test('axe-core finds no serious or critical violation on the admin tabs and the event configuration', async ({ page }) => {
    // From tab to tab as a person goes (one load of the app). The Events tab's own check is accessibility.spec.ts's.
    // Each tab is checked once its data shows (a tab opened inside the app has no load of its own to wait for).
    const tabs: [string, Locator][] = [
      [
        'Users',
        page
          .getByRole('table', { name: 'Users' })
          .getByRole('link', { name: /^View the profile of / })
          .first(),
      ],
      ['Status', page.getByRole('button', { name: 'Add a message' })],
      ['Mail queue', page.getByRole('table', { name: 'Failed mails' })],
    ];
    await login(page, demo.admin, { to: '/admin/users' });
    for (const [tab, shown] of tabs) {
      if (tab !== 'Users') await page.getByRole('tab', { name: tab }).click();
      await expect(page.getByRole('tab', { name: tab, selected: true })).toBeVisible();
      await expect(shown).toBeEnabled();
      await expectListsShown(page);
      await expectAccessible(page);
    }
    await page.getByRole('tab', { name: 'Events' }).click();
    await page.getByRole('link', { name: 'Configure Fund 15 (demo)' }).click();
    await expect(page.getByRole('table', { name: 'Review outcomes' })).toBeAttached(); // the Overview, with its charts
    await expectAccessible(page);
    await page
      .getByRole('navigation', { name: 'Event configuration sections' })
      .getByRole('button', { name: 'General Configuration' })
      .click();
    await expect(page.getByRole('switch', { name: 'Review submission', exact: true })).toBeVisible();
    await expectAccessible(page);
  });

  // B-019 (a non-admin in the admin area sees the admin-only message): guards.spec.ts opens /admin as a reviewer, and
  // reviewer-account.spec.ts an admin page of a user's profile.
});
