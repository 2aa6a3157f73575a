import { expect, test } from './fixtures';
import { activeUser, adminHeaders, demo, expectAccessible, expectToast, login, rewriteJson } from './support';

const DAY = 86_400_000;

test.describe('subscribing to a funding round (issue 4)', () => {
  // A-040, C-001, C-003, C-004, C-005, C-006, C-007, C-009, C-010, C-011, C-014, C-028
  test('a new user subscribes to the demo round and sees their anonymous id and level', async ({ page, request }) => {
    const user = await activeUser(request);
    await login(page, user.catalystId, user.password);
    const allocatedLink = page.getByRole('banner').getByRole('link', { name: 'My proposals' });
    await expect(allocatedLink).toHaveCount(0); // not a reviewer of any round yet
    const categories = page.waitForRequest((r) => r.url().includes('/api/reviews/categories/?event_id='));
    await page.getByRole('button', { name: 'Subscribe' }).click(); // C-001
    const modal = page.getByRole('dialog', { name: 'Subscribe to Fund 15 (demo)' }); // C-003
    await expect(modal).toBeVisible();
    await categories; // C-007
    const submit = modal.getByRole('button', { name: 'Subscribe' });
    await expect(submit).toBeDisabled(); // C-009
    await modal.getByRole('checkbox', { name: 'I want to be a reviewer' }).check(); // C-004
    await expect(submit).toBeDisabled();
    await modal.getByRole('checkbox', { name: 'accept fund rules' }).check(); // C-005
    await modal.getByRole('textbox', { name: 'Preferred categories' }).click(); // C-006
    await page.getByRole('option', { name: 'Cardano Open: Developers' }).click();
    await page.keyboard.press('Escape');
    await expectAccessible(page);

    const sent = page.waitForRequest((r) => r.url().endsWith('/api/reviews/subscriptions/') && r.method() === 'POST');
    await submit.click();
    const body = (await sent).postDataJSON();
    expect(body.new_subscription).toMatchObject({ want_to_be_reviewer: true, fund_rules_acceptance: true, event_id: expect.any(Number) }); // C-010
    expect(body.new_subscription.preferred_categories).toHaveLength(1);
    await expectToast(page, 'Subscription successful'); // C-011
    const confirmation = modal.getByTestId('subscription-confirmation'); // C-014
    await expect(confirmation).toContainText('You review this round as LV0.'); // C-028
    const anonymousId = (await modal.getByTestId('anonymous-id').textContent()) ?? '';
    expect(anonymousId).toMatch(/^[a-z2-7]{10}$/);
    await modal.getByRole('button', { name: 'Continue' }).click();
    // Other rounds may be open too (other tests make some): the modal moves on to them; this test is done.
    if (await page.getByRole('dialog').isVisible()) await page.keyboard.press('Escape');
    // an active reviewer of a round whose review submission is open gets the allocated-proposals link.
    await expect(allocatedLink).toBeVisible();

    await page.goto('/profile');
    const subscriptions = page.getByRole('table', { name: 'Reviewer subscriptions' });
    await expect(subscriptions).toContainText('Fund 15 (demo)');
    await expect(subscriptions).toContainText(anonymousId);
    await expect(subscriptions).toContainText('LV0');
  });

  // A-041, C-015, C-016, C-018, C-019, C-021, C-023, C-024, C-025
  test('an LV2-qualified user gets the second form, cannot cancel it, and accepts the invitation', async ({ page, request }) => {
    const headers = await adminHeaders(request);
    const name = `LV2 round ${Date.now().toString(36)}`;
    const created = await request.post('/api/reviews/events/', {
      headers,
      data: { new_event: { name, description: 'Every history qualifies for level 2 here.', active: true } },
    });
    expect(created.status()).toBe(201);
    const event = await created.json();
    const always = {
      min_valid_reviews: 0,
      max_valid_reviews: 10,
      min_perc_valid_reviews: 0,
      max_perc_valid_reviews: 1,
      min_active_funds: 0,
      max_active_funds: 10,
    };
    await request.put(`/api/reviews/configs/reviews/${event.row_id}/`, {
      headers,
      data: { record_update: { reviewer_subscription_enabled: true } },
    });
    await request.put(`/api/reviews/configs/reviews-level-qualifiers/${event.row_id}/`, {
      headers,
      data: { record_update: { lv1: always, lv2: always } },
    });
    try {
      const user = await activeUser(request);
      await login(page, user.catalystId, user.password);
      const moderatorLinks = page.getByRole('banner').getByRole('link', { name: /^(Allocated|Moderated) reviews$/ });
      await page.getByRole('button', { name: 'Subscribe' }).click();
      await expect(moderatorLinks).toHaveCount(0); // not a moderator of any round yet
      // Skip every other open round until this one.
      const mine = page.getByRole('dialog', { name: `Subscribe to ${name}` });
      while (!(await mine.isVisible())) await page.getByRole('dialog').getByRole('button', { name: 'Not this round' }).click();
      await mine.getByRole('checkbox', { name: 'I want to be a reviewer' }).check();
      await mine.getByRole('checkbox', { name: 'accept fund rules' }).check();
      await mine.getByRole('button', { name: 'Subscribe' }).click();

      const form = page.getByRole('dialog', { name: `Level-2 invitation for ${name}` }); // C-015
      await expect(form).toBeVisible();
      await expect(form.getByRole('button', { name: 'Close' })).toHaveCount(0); // C-016
      await page.keyboard.press('Escape');
      await expect(form).toBeVisible();
      await expectAccessible(page);

      const contact = form.getByRole('textbox', { name: /^Public contact/ });
      await contact.fill('x');
      await contact.fill('');
      await contact.press('Tab');
      await expect(form.getByText('public contact required')).toBeVisible(); // C-019
      await form.getByRole('textbox', { name: /^Reward address/ }).fill('stake1u9');
      await expect(form.getByText('The reward address must begin with addr1.')).toBeVisible(); // C-021
      const accept = form.getByRole('button', { name: 'Accept the invitation' });
      await expect(accept).toBeDisabled();
      await form.getByRole('checkbox', { name: /^I want to be a level-2 reviewer/ }).check(); // C-018
      await contact.fill('@lv2-public');
      await form.getByRole('textbox', { name: /^Telegram handle/ }).fill('@lv2_private');
      await form.getByRole('textbox', { name: /^Reward address/ }).fill('addr1qlv2wallet');
      await form.getByRole('checkbox', { name: /^I acknowledge/ }).check(); // C-023
      const sent = page.waitForRequest((r) => r.url().endsWith('/api/reviews/subscriptions/invitation'));
      await accept.click();
      expect((await sent).postDataJSON().invitation_answer).toEqual({
        event_id: event.row_id,
        status: 1,
        role: 2,
        public_contact: '@lv2-public',
        telegram_handle_private: '@lv2_private',
        reward_address: 'addr1qlv2wallet',
        acknowledge_public_contact: true,
      }); // C-024
      await expectToast(page, 'Invitation response updated'); // C-025
      await expect(page.getByTestId('subscription-confirmation')).toContainText('LV2');
      // the links need the round's moderation open. This one switch is rewritten, in this page only (issue 26
      // item 12 keeps it): turned on for real in a current round, it would make the stage every parallel test sees
      // moderation_open. Everything above is the server's real state.
      await rewriteJson(page, `**/api/reviews/configs/reviews/${event.row_id}/`, (json) => {
        json.value.moderation_submission_enabled = true;
      });
      await page.reload();
      await expect(moderatorLinks).toHaveCount(2); // a moderator of a round whose moderation is open
    } finally {
      await request.put(`/api/reviews/events/${event.row_id}/`, {
        headers,
        data: { event_update: { name, description: 'Done.', active: false } },
      });
    }
  });

  // C-053, C-054, C-055, C-056
  test("an admin opens a user's profile and invites them to level 2 of the demo round", async ({ page, request }) => {
    const user = await activeUser(request);
    await login(page, demo.admin, { to: `/admin/users/${encodeURIComponent(user.catalystId)}` });
    const invites = page.getByRole('region', { name: 'Invite to level 2' });
    const button = invites.getByRole('button', { name: 'Invite to level 2 of Fund 15 (demo)' });
    await expect(button).toBeVisible(); // C-053, C-054
    await expectAccessible(page);
    const sent = page.waitForRequest((r) => r.url().endsWith('/api/reviews/subscriptions/invite'));
    await button.click();
    expect((await sent).postDataJSON()).toEqual({ invitation: { event_id: expect.any(Number), catalyst_id: user.catalystId } }); // C-055
    await expectToast(page, 'Invitation sent successfully'); // C-056
    await expect(button).toHaveCount(0); // the user now has a level-2 subscription there (C-054)
    const subscriptions = page.getByRole('table', { name: 'Reviewer subscriptions' });
    await expect(subscriptions).toContainText('invited');
    await expect(subscriptions.getByRole('button')).toHaveCount(0); // C-043, C-052: read-only, no Subscribe
  });

  // C-042. Issue 26 item 12: the round's subscription switch is real: a current round of the test's own whose
  // subscription window opens tomorrow, then opened for real.
  test("an invited user subscribes from their profile while the round's subscription is open", async ({ page, request }) => {
    const user = await activeUser(request);
    const headers = await adminHeaders(request);
    const name = `Invitation round ${Date.now().toString(36)}-${process.pid}`;
    const created = await request.post('/api/reviews/events/', {
      headers,
      data: { new_event: { name, description: 'Invites a user to level 2.', active: true } },
    });
    expect(created.status()).toBe(201);
    const event = (await created.json()) as { row_id: number };
    const configure = async (update: Record<string, unknown>) => {
      const response = await request.put(`/api/reviews/configs/reviews/${event.row_id}/`, { headers, data: { record_update: update } });
      expect(response.status(), await response.text()).toBe(200);
    };
    try {
      // Invitations go out while the round's subscription is open; then it closes until a window opening tomorrow.
      await configure({ reviewer_subscription_enabled: true });
      const invited = await request.post('/api/reviews/subscriptions/invite', {
        headers,
        data: { invitation: { event_id: event.row_id, catalyst_id: user.catalystId } },
      });
      expect(invited.status(), await invited.text()).toBe(201);
      await configure({ reviewer_subscription_enabled: false, reviewer_subscription_starts_at: new Date(Date.now() + DAY).toISOString() });

      // While the round's subscription is closed, the invitation has no Subscribe button. The home page shows the
      // round's window (so the page knows its configuration) before the profile is opened from the navigation bar.
      await login(page, user.catalystId, { password: user.password, to: '/' });
      await expect(page.getByRole('article', { name }).getByText(/ – …$/)).toBeVisible();
      await page.getByRole('banner').getByRole('link', { name: 'Profile' }).click();
      const subscriptions = page.getByRole('table', { name: 'Reviewer subscriptions' });
      const row = subscriptions.getByRole('row').filter({ hasText: name });
      await expect(row).toContainText('invited');
      await expect(row.getByRole('button', { name: `Subscribe to ${name}` })).toHaveCount(0);

      await configure({ reviewer_subscription_enabled: true, reviewer_subscription_starts_at: new Date(Date.now() - DAY).toISOString() });
      await page.reload();
      await row.getByRole('button', { name: `Subscribe to ${name}` }).click();
      const form = page.getByRole('dialog', { name: `Level-2 invitation for ${name}` });
      await expect(form).toBeVisible();
      await expect(form.getByRole('button', { name: 'Close' })).toHaveCount(0);
      await form.getByRole('checkbox', { name: /^I want to be a level-2 reviewer/ }).check();
      await form.getByRole('textbox', { name: /^Public contact/ }).fill('@invited-public');
      await form.getByRole('textbox', { name: /^Telegram handle/ }).fill('@invited_private');
      await form.getByRole('textbox', { name: /^Reward address/ }).fill('addr1qinvited');
      await form.getByRole('checkbox', { name: /^I acknowledge/ }).check();
      await form.getByRole('button', { name: 'Accept the invitation' }).click();
      await expectToast(page, 'Invitation response updated');
      await page.getByRole('dialog').getByRole('button', { name: 'Continue' }).click();
      await expect(row).toContainText('LV2');
      await expect(row).toContainText('active');
      await expect(subscriptions.getByRole('button', { name: `Subscribe to ${name}` })).toHaveCount(0);
    } finally {
      await request.put(`/api/reviews/events/${event.row_id}/`, {
        headers,
        data: { event_update: { name, description: 'Done.', active: false } },
      });
    }
  });
});
