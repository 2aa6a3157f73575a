import { expect, test, type Page } from './fixtures';
import { newEvent } from './rounds';
import { adminHeaders, demo, expectAccessible, expectToast, login } from './support';

/**
 * The date-time fields (issue 26 item 13; B-049, B-050, B-051, A-133): an admin types or pastes `YYYY-MM-DD HH:mm`, or
 * picks it in the calendar behind the field's button, whose month arrows have names. On an inactive event of the
 * test's own, so the stage other tests see doesn't change.
 */

/** Signs the admin in straight onto the event's General Configuration (one load of the app). */
async function openGeneralConfiguration(page: Page, eventId: number) {
  await login(page, demo.admin, { to: `/admin/${eventId}?section=general` });
  await expect(page.getByRole('switch', { name: 'Review submission', exact: true })).toBeVisible();
}

test.describe('date-time fields (issue 26 item 13)', () => {
  test('a window typed and pasted as YYYY-MM-DD HH:mm is saved and kept after a reload; a wrong one is refused', async ({
    page,
    request,
  }) => {
    const event = await newEvent(request, await adminHeaders(request), 'date-time typing');
    await openGeneralConfiguration(page, event.row_id);
    const starts = page.getByRole('textbox', { name: 'Review submission starts at' });
    const ends = page.getByRole('textbox', { name: 'Review submission ends at' });
    await expect(starts).toHaveAttribute('placeholder', 'YYYY-MM-DD HH:mm');
    await expect(starts).toHaveValue('');

    // a time that does not exist is refused under the field, and the form cannot be saved.
    await starts.pressSequentially('2026-12-01 25:00');
    await expect(page.getByText('The selected date is invalid.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save general settings' })).toBeDisabled();
    // Typed key by key, and pasted whole (fill puts the text in at once, as a paste does).
    await starts.clear();
    await starts.pressSequentially('2026-12-01 09:00');
    await ends.fill('2026-12-08 18:30');
    await expect(page.getByText('The selected date is invalid.')).toHaveCount(0);
    const put = page.waitForRequest((r) => r.url().endsWith(`/configs/reviews/${event.row_id}/`) && r.method() === 'PUT');
    await page.getByRole('button', { name: 'Save general settings' }).click();
    const sent = (await put).postDataJSON().record_update as Record<string, string>;
    // The browser's local time, as the field shows it, sent as an instant.
    expect(new Date(sent.review_submission_starts_at!).getTime()).toBe(new Date(2026, 11, 1, 9, 0).getTime());
    expect(new Date(sent.review_submission_ends_at!).getTime()).toBe(new Date(2026, 11, 8, 18, 30).getTime());
    await expectToast(page, 'Config saved');

    await page.reload();
    await expect(page.getByRole('textbox', { name: 'Review submission starts at' })).toHaveValue('2026-12-01 09:00');
    await expect(page.getByRole('textbox', { name: 'Review submission ends at' })).toHaveValue('2026-12-08 18:30');
  });

  test('the calendar behind the field: named month arrows, a picked day keeps the typed time, no axe violation', async ({
    page,
    request,
  }) => {
    const event = await newEvent(request, await adminHeaders(request), 'date-time picker');
    await openGeneralConfiguration(page, event.row_id);
    const starts = page.getByRole('textbox', { name: 'Moderation submission starts at' });
    await starts.fill('2026-12-01 09:00');
    await page.getByRole('button', { name: 'Pick Moderation submission starts at in a calendar' }).click();
    const picker = page.getByRole('dialog', { name: 'Pick Moderation submission starts at in a calendar' });
    await expect(picker.getByRole('button', { name: 'December 2026', exact: true })).toBeVisible();
    await expectAccessible(page); // with the picker open

    await picker.getByRole('button', { name: 'Next month' }).click();
    await expect(picker.getByRole('button', { name: 'January 2027', exact: true })).toBeVisible();
    await picker.getByRole('button', { name: 'Previous month' }).click();
    await picker.getByRole('button', { name: 'Previous month' }).click();
    await expect(picker.getByRole('button', { name: 'November 2026', exact: true })).toBeVisible();
    await picker.getByRole('button', { name: '20 November 2026', exact: true }).click();
    await expect(starts).toHaveValue('2026-11-20 09:00');
    // The clock sets the time of the picked day: two digits of hours move on to the minutes.
    await picker.getByRole('spinbutton', { name: 'Hours' }).click();
    await page.keyboard.type('1445');
    await expect(starts).toHaveValue('2026-11-20 14:45');
    await picker.getByRole('button', { name: 'Done' }).click();
    await expect(picker).toBeHidden();
    await expect(page.getByRole('button', { name: 'Pick Moderation submission starts at in a calendar' })).toBeFocused();
  });
});
