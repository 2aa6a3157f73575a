import { expect, test, type APIRequestContext } from './fixtures';
import { outboxToken } from '../playwright.config';
import { newEvent, tokenOf } from './rounds';
import { activeUser, adminHeaders, demo, expectAccessible, expectToast, login } from './support';

const API = '/api/reviews';

/** The person's notification preferences as the server keeps them. */
async function preferencesOf(request: APIRequestContext, user: { catalystId: string; password: string }) {
  const response = await request.get(`${API}/users/me/notifications/`, { headers: await tokenOf(request, user) });
  expect(response.status()).toBe(200);
  return (await response.json()) as Record<string, boolean>;
}

// Issue 27 item 4: the profile's Notifications section.
test.describe('notification preferences (issue 27)', () => {
  test('a person turns review reminders off on the profile; after a reload it is still off, and the server agrees', async ({
    page,
    request,
  }) => {
    const user = await activeUser(request);
    await login(page, user.catalystId, user.password);
    const section = page.getByRole('region', { name: 'Notifications' });
    await expect(
      section.getByText('Mails about your account (activation, e-mail verification, password reset) always come.'),
    ).toBeVisible();
    for (const label of [
      'Proposal allocations',
      'Review deadline reminders',
      'Moderation allocations',
      'Moderation deadline reminders',
      'Review outcomes',
      'LV2 invitations',
    ])
      await expect(section.getByRole('switch', { name: label })).toBeChecked();
    // Account mails are not listed: they cannot be turned off.
    await expect(section.getByRole('switch', { name: /activation|password/i })).toHaveCount(0);
    const save = section.getByRole('button', { name: 'Save notification preferences' });
    await expect(save).toBeDisabled();

    await section.getByRole('switch', { name: 'Review deadline reminders' }).uncheck();
    await save.click();
    await expectToast(page, 'Notification preferences saved');
    await expect(save).toBeDisabled();
    await expectAccessible(page);

    await page.reload();
    const reloaded = page.getByRole('region', { name: 'Notifications' });
    await expect(reloaded.getByRole('switch', { name: 'Review deadline reminders' })).not.toBeChecked();
    await expect(reloaded.getByRole('switch', { name: 'Proposal allocations' })).toBeChecked();
    expect(await preferencesOf(request, user)).toMatchObject({ review_reminder: false, review_allocation: true });
  });
});

// Issue 27 item 3: General Configuration's deadline reminders.
test.describe('reminder settings in General Configuration (issue 27)', () => {
  test('off for a new event; an admin turns review reminders on at 48 and 12 hours, with the form refusing bad hours', async ({
    page,
    request,
  }) => {
    const headers = await adminHeaders(request);
    const event = await newEvent(request, headers, 'reminders');
    await login(page, demo.admin, { to: `/admin/${event.row_id}?section=general` });
    const form = page.getByRole('form', { name: 'Deadline reminders' });
    const reviews = form.getByRole('switch', { name: 'Remind reviewers before the review window closes' });
    const moderation = form.getByRole('switch', { name: 'Remind moderators before the moderation window closes' });
    const hours = form.getByRole('textbox', { name: 'Hours before the window closes' });
    await expect(reviews).not.toBeChecked();
    await expect(moderation).not.toBeChecked();
    await expect(hours).toHaveValue('72, 24');

    const save = form.getByRole('button', { name: 'Save reminder settings' });
    for (const [typed, message] of <[string, string][]>[
      ['0', 'Hours before the window closes must be at least 1.'],
      ['800', 'Hours before the window closes must be at most 720 hours (30 days).'],
      ['24, 24', 'Hours before the window closes: each number of hours only once.'],
      ['24, soon', 'Hours before the window closes must be a whole number.'],
      ['', 'Hours before the window closes is required.'],
    ]) {
      await hours.fill(typed);
      await expect(form.getByText(message)).toBeVisible();
      await expect(save).toBeDisabled();
    }
    await hours.fill('48, 12');
    await reviews.check();
    await save.click();
    await expectToast(page, 'Reminder settings saved');
    await expectAccessible(page);

    await page.reload();
    await expect(page.getByRole('form', { name: 'Deadline reminders' }).getByRole('switch', { name: /Remind reviewers/ })).toBeChecked();
    await expect(
      page.getByRole('form', { name: 'Deadline reminders' }).getByRole('textbox', { name: 'Hours before the window closes' }),
    ).toHaveValue('48, 12');
    const stored = await request.get(`${API}/configs/notifications/${event.row_id}/`, { headers });
    expect((await stored.json()).value).toEqual({
      review_reminders_enabled: true,
      moderation_reminders_enabled: false,
      hours_before: [48, 12],
    });
  });

  test('the demo round has both reminders on, 72 and 24 hours before', async ({ page, request }) => {
    const events = (await (await request.get(`${API}/events/?size=100`)).json()) as { data: { row_id: number; name: string }[] };
    const fund = events.data.find((event) => event.name === 'Fund 15 (demo)')!;
    await login(page, demo.admin, { to: `/admin/${fund.row_id}?section=general` });
    const form = page.getByRole('form', { name: 'Deadline reminders' });
    await expect(form.getByRole('switch', { name: /Remind reviewers/ })).toBeChecked();
    await expect(form.getByRole('switch', { name: /Remind moderators/ })).toBeChecked();
    await expect(form.getByRole('textbox', { name: 'Hours before the window closes' })).toHaveValue('72, 24');
  });
});

// Issue 27 item 4: where a notification's unsubscribe link leads, no login needed.
test.describe('the unsubscribe screen (issue 27)', () => {
  /** An account invited to LV2 by the demo admin, and the unsubscribe link of the invitation's e-mail. */
  async function invitedWithLink(request: APIRequestContext) {
    const headers = await adminHeaders(request);
    const event = await newEvent(request, headers, 'unsubscribe');
    const opened = await request.put(`${API}/configs/reviews/${event.row_id}/`, {
      headers,
      data: { record_update: { reviewer_subscription_enabled: true } },
    });
    expect(opened.status()).toBe(200);
    const user = await activeUser(request);
    const invited = await request.post(`${API}/subscriptions/invite`, {
      headers,
      data: { invitation: { event_id: event.row_id, catalyst_id: user.catalystId } },
    });
    expect(invited.status(), await invited.text()).toBe(201);
    let link: string | undefined;
    await expect
      .poll(async () => {
        const response = await request.get(`${API}/dev/outbox?to=${encodeURIComponent(user.email)}`, {
          headers: { 'x-outbox-token': outboxToken },
        });
        const mail = ((await response.json()) as { kind: string; text: string }[]).find((item) => item.kind === 'lv2_invitation');
        link = mail && /(http\S+\/unsubscribe\?token=\S+)/.exec(mail.text)?.[1];
        return link;
      })
      .toBeTruthy();
    return { user, path: new URL(link!).pathname + new URL(link!).search };
  }

  test('asks first, unsubscribes, offers to undo, and undoes', async ({ page, request }) => {
    const { user, path } = await invitedWithLink(request);
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Unsubscribe' })).toBeVisible();
    await expect(page.getByText('Stop e-mails about LV2 invitations?')).toBeVisible();
    // Opening the link changed nothing.
    expect((await preferencesOf(request, user)).lv2_invitation).toBe(true);
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await expectToast(page, 'Unsubscribed');
    await expect(page.getByText('You will no longer receive e-mails about LV2 invitations.')).toBeVisible();
    expect((await preferencesOf(request, user)).lv2_invitation).toBe(false);

    // Opened again (the link reused): it says so, and offers the undo.
    await page.reload();
    await expect(page.getByText('You will no longer receive e-mails about LV2 invitations.')).toBeVisible();
    await page.getByRole('button', { name: 'Undo' }).click();
    await expectToast(page, 'Subscribed again');
    await expect(page.getByText('You will receive e-mails about LV2 invitations again.')).toBeVisible();
    expect((await preferencesOf(request, user)).lv2_invitation).toBe(true);
    await expect(page.getByRole('link', { name: 'Choose all your notifications on your profile' })).toHaveAttribute('href', '/profile');
  });

  test('says clearly when the link was changed', async ({ page, request }) => {
    const { path } = await invitedWithLink(request);
    // The signature's first character changed, whichever of base64url's 64 it is ('-' too: `\w` missed it one time in 64).
    const tampered = path.replace(
      /token=([^.]+)\.([\w-])/,
      (_match, payload: string, first: string) => `token=${payload}.${first === 'A' ? 'B' : 'A'}`,
    );
    expect(tampered).not.toBe(path);
    await page.goto(tampered);
    await expect(page.getByText(/This unsubscribe link is not valid: it may have been cut or changed\./)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Unsubscribe' })).toHaveCount(0);
  });
});
