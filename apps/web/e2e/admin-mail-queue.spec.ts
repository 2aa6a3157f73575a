import { expect, test } from './fixtures';
import { outboxToken } from '../playwright.config';
import { adminHeaders, demo, expectAccessible, expectToast, login, registerThroughApi, uniqueIdentity } from './support';

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
    await expect.poll(outboxStatus, { timeout: 20_000 }).toBe('failed');

    await login(page, demo.admin, { to: '/admin/events' });
    await page.getByRole('tab', { name: 'Mail queue' }).click();
    await expect(page).toHaveURL(/\/admin\/mail$/);
    await expect(page.getByRole('heading', { name: 'Mail queue' })).toBeVisible();

    const kinds = page.getByRole('table', { name: 'Mails per kind and status' });
    for (const column of ['Kind', 'Queued', 'Sending', 'Sent', 'Failed'])
      await expect(kinds.getByRole('columnheader', { name: column })).toBeVisible();
    const activation = kinds.getByRole('row', { name: /^Account activation/ });
    await expect(activation).toBeVisible();
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
