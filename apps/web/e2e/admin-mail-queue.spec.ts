import { expect, test, type APIRequestContext } from './fixtures';
import { outboxToken } from '../playwright.config';
import { newEvent } from './rounds';
import { activeUser, adminHeaders, demo, expectAccessible, expectToast, login, registerThroughApi, uniqueIdentity } from './support';

/** Queues a notification (an LV2 invitation, through the API) for a new account: the queue then holds one. */
async function queueInvitation(request: APIRequestContext) {
  const headers = await adminHeaders(request);
  const [event, user] = await Promise.all([newEvent(request, headers, 'mail queue'), activeUser(request)]);
  const opened = await request.put(`/api/reviews/configs/reviews/${event.row_id}/`, {
    headers,
    data: { record_update: { reviewer_subscription_enabled: true } },
  });
  expect(opened.status()).toBe(200);
  const invited = await request.post('/api/reviews/subscriptions/invite', {
    headers,
    data: { invitation: { event_id: event.row_id, catalyst_id: user.catalystId } },
  });
  expect(invited.status(), await invited.text()).toBe(201);
}

// Issue 27 items 2 and 3: the admin's Mail queue tab. The test server sends its mail over SMTP to the browser tests'
// sink (e2e/smtp-sink.ts), which refuses an address starting `bounce-once-` for good the first time: a real
// permanent failure, with the SMTP server's answer as its reason.
test.describe('the admin mail queue (issue 27)', () => {
  test('an admin sees a failed mail with its reason, retries it, and it is sent', async ({ page, request }) => {
    const identity = uniqueIdentity();
    const user = await registerThroughApi(request, { ...identity, email: `bounce-once-${identity.email}` });
    const outboxStatus = async () => {
      const response = await request.get(`/api/reviews/dev/outbox?to=${encodeURIComponent(user.email)}`, {
        headers: { 'x-outbox-token': outboxToken },
      });
      return ((await response.json()) as { kind: string; status: string }[]).find((mail) => mail.kind === 'activation')?.status;
    };
    // The server's worker sends the activation mail at once; the sink refuses it for good.
    await Promise.all([expect.poll(outboxStatus, { timeout: 20_000 }).toBe('failed'), queueInvitation(request)]);

    await login(page, demo.admin, { to: '/admin/events' });
    await page.getByRole('tab', { name: 'Mail queue' }).click();
    await expect(page).toHaveURL(/\/admin\/mail$/);
    await expect(page.getByRole('heading', { name: 'Mail queue' })).toBeVisible();

    const kinds = page.getByRole('table', { name: 'Mails per kind and status' });
    for (const column of ['Kind', 'Queued', 'Sending', 'Sent', 'Failed'])
      await expect(kinds.getByRole('columnheader', { name: column })).toBeVisible();
    const activation = kinds.getByRole('row', { name: /^Account activation/ });
    await expect(activation).toBeVisible();
    // Issue 45 item 4: a notification kind is named for people too, as the account kinds are (not `lv2_invitation`).
    await expect(kinds.getByRole('row', { name: /^LV2 invitation/ })).toBeVisible();
    await expect(kinds.getByRole('rowheader', { name: /_/ })).toHaveCount(0);
    // The figures the tab shows are the server's (the API test checks them against the database).
    const overview = await (await request.get('/api/reviews/admin/mail-queue/', { headers: await adminHeaders(request) })).json();
    expect(overview.totals.failed).toBeGreaterThanOrEqual(1);

    const failures = page.getByRole('table', { name: 'Failed mails' });
    const failure = failures.getByRole('row').filter({ hasText: user.email });
    await expect(failure).toBeVisible();
    await expect(failure).toContainText('Account activation');
    await expect(failure).toContainText('550 5.1.1 Mailbox unavailable (bounce-once)');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Retry failed' }).click();
    const dialog = page.getByRole('dialog', { name: 'Retry the failed mails?' });
    await expect(dialog).toContainText(/goes back to the queue|go back to the queue/);
    await dialog.getByRole('button', { name: 'Retry failed' }).click();
    await expectToast(page, /failed mails? (is|are) queued again\./);

    // The sink accepts it this time: the worker sends it, and the tab drops it from the failures.
    await expect.poll(outboxStatus, { timeout: 20_000 }).toBe('sent');
    await expect(failure).toHaveCount(0, { timeout: 20_000 });
  });
});
