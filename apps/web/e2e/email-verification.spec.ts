import { expect, test, type APIRequestContext, type Page } from './fixtures';
import { expectNavEmail, expectToast, login, mailedLink, uniqueIdentity } from './support';

/** A fresh account (registered, not yet activated, so its e-mail is not verified) that is logged in on the page. */
async function loggedInNewUser(page: Page, request: APIRequestContext) {
  const user = uniqueIdentity();
  const response = await request.post('/api/reviews/users/', {
    data: {
      new_user: {
        catalyst_id: user.catalystId,
        email: user.email,
        password: user.password,
        password_confirmation: user.password,
        extra: { policy_acknowledgments: { privacy_policy: true, terms_and_conditions: true } },
      },
    },
  });
  expect(response.status()).toBe(201);
  await login(page, user.catalystId, user.password);
  return user;
}

/** Asks for a new address on the profile (opened unless the tab shows it), as a person would, and returns the e-mailed
 * verification link. */
async function requestEmailChange(page: Page, request: APIRequestContext, newEmail: string): Promise<URL> {
  if (new URL(page.url()).pathname !== '/profile') await page.goto('/profile');
  await page.getByRole('textbox', { name: /^E-mail address/ }).fill(newEmail);
  await page.getByRole('button', { name: 'Send verification link' }).click();
  await expectToast(page, 'Verification link sent');
  return new URL(await mailedLink(request, newEmail, 'email_verification'));
}

/** The e-mail line of the profile's personal info. */
const emailRow = (page: Page) => page.locator('tr').filter({ has: page.locator('th', { hasText: /^E-mail address$/ }) });

test.describe('email verification', () => {
  //
  test('the e-mailed link verifies the new address, then follows the redirect of its query', async ({ page, request }) => {
    const user = await loggedInNewUser(page, request);
    const newEmail = uniqueIdentity().email;
    const link = await requestEmailChange(page, request, newEmail);
    expect(link.pathname).toBe('/account/email-verification');
    const token = link.searchParams.get('token')!;
    expect(token).toBeTruthy();

    // Our own redirect in the query, to show the screen takes it from there (the default would be /profile).
    await page.goto(`/account/email-verification?token=${encodeURIComponent(token)}&redirect=${encodeURIComponent('/proposals')}`);
    await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
    // a token is present and the address is not verified yet.
    await expect(page.getByText('Confirm your e-mail address with the button below.')).toBeVisible();
    await expect(page.getByText('Your e-mail address is already verified.')).toHaveCount(0);

    // POST catalyst-ids/verify-email with the token of the query.
    const verification = page.waitForRequest((r) => r.url().endsWith('/api/reviews/catalyst-ids/verify-email') && r.method() === 'POST');
    await page.getByRole('button', { name: 'Verify e-mail address' }).click();
    expect((await verification).postDataJSON()).toEqual({ email_verification: { confirmation_token: token } });

    // the verified message.
    await expectToast(page, 'Email verified');
    await expect(page.getByText('Your e-mail address is verified. Thank you!')).toBeVisible();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/proposals(\?.*)?$/); // the redirect of the query

    await page.goto('/profile');
    await expect(emailRow(page)).toContainText(newEmail);
    await expect(emailRow(page)).toContainText('verified');
    await expect(emailRow(page)).not.toContainText('not verified');
    await expectNavEmail(page, newEmail);
    expect(newEmail).not.toBe(user.email);

    // the same link again, with the address now verified.
    await page.goto(link.pathname + link.search);
    await expect(page.getByText('Your e-mail address is already verified. You can use this link only once.')).toBeVisible();
    await expect(page.getByText('Confirm your e-mail address with the button below.')).toHaveCount(0);
  });

  //
  test('without a token the screen tells the user to check their email', async ({ page }) => {
    await page.goto('/account/email-verification');
    await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
    await expect(page.getByText('Please check your email: we sent you a link to verify your address.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Verify e-mail address' })).toHaveCount(0);

    // A token in the query changes the screen.
    await page.goto('/account/email-verification?token=abc&redirect=%2Fprofile');
    await expect(page.getByText('Confirm your e-mail address with the button below.')).toBeVisible();
    await expect(page.getByText('Please check your email')).toHaveCount(0);
  });

  //
  test('a failed verification with no server message shows the fixed toast and is not done', async ({ page, request }) => {
    await loggedInNewUser(page, request);
    const newEmail = uniqueIdentity().email;
    const link = await requestEmailChange(page, request, newEmail);

    await page.route('**/api/reviews/catalyst-ids/verify-email', (route) => route.fulfill({ status: 500, body: '' }));
    await page.goto(link.pathname + link.search);
    await page.getByRole('button', { name: 'Verify e-mail address' }).click();
    await expectToast(page, 'Email verification failed. Please try again');
    // Not done: no success, the screen still asks to verify, and the address is unchanged.
    await expect(page.locator('.mantine-Notification-root').filter({ hasText: 'Email verified' })).toHaveCount(0);
    await expect(page.getByText('Your e-mail address is verified. Thank you!')).toHaveCount(0);
    await expect(page.getByText('Confirm your e-mail address with the button below.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Verify e-mail address' })).toBeVisible();
    await expectNavEmail(page, newEmail, { not: true });

    // when the server does send a message, the toast shows it instead of the fixed text.
    await page.unroute('**/api/reviews/catalyst-ids/verify-email');
    await page.route('**/api/reviews/catalyst-ids/verify-email', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ message: 'Verification is paused for maintenance.' }),
      }),
    );
    await page.getByRole('button', { name: 'Verify e-mail address' }).click();
    await expectToast(page, 'Verification is paused for maintenance.');

    // The link still works once the server answers again: the failed tries did not use it up.
    await page.unroute('**/api/reviews/catalyst-ids/verify-email');
    await page.getByRole('button', { name: 'Verify e-mail address' }).click();
    await expect(page.getByText('Your e-mail address is verified. Thank you!')).toBeVisible();
    await expectNavEmail(page, newEmail);
  });
});
