import { expect, test } from '@playwright/test';
import { expectAccessible, expectToast, login, mailedLink, uniqueIdentity } from './support';

test.describe('subscribing to a funding round (issue 4)', () => {
  // C-001, C-003, C-004, C-005, C-006, C-007, C-009, C-010, C-011, C-014, C-028
  test('a new user subscribes to the demo round and sees their anonymous id and level', async ({ page, request }) => {
    const user = uniqueIdentity();
    const registered = await request.post('/api/reviews/users/', {
      data: { new_user: { catalyst_id: user.catalystId, email: user.email, password: user.password, password_confirmation: user.password, extra: { policy_acknowledgments: { privacy_policy: true, terms_and_conditions: true } } } },
    });
    expect(registered.status()).toBe(201);
    const link = new URL(await mailedLink(request, user.email, 'activation'));
    expect((await request.post('/api/reviews/users/activate', { data: { user_activation: { confirmation_token: link.searchParams.get('token') } } })).ok()).toBeTruthy();

    await login(page, user.catalystId, user.password);
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
    await expect(page.getByRole('button', { name: 'Subscribe' })).toHaveCount(0); // subscribed: nothing left to subscribe to

    await page.goto('/profile');
    const subscriptions = page.getByRole('table', { name: 'Reviewer subscriptions' });
    await expect(subscriptions).toContainText('Fund 15 (demo)');
    await expect(subscriptions).toContainText(anonymousId);
    await expect(subscriptions).toContainText('LV0');
  });
});
