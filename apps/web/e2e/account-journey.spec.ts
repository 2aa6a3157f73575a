import { expect, test } from './fixtures';
import {
  catalystIdField,
  expectNavEmail,
  expectToast,
  loginThroughForm,
  logoutThroughMenu,
  mailedLink,
  passwordField,
  uniqueIdentity,
} from './support';

test.describe('a new user registers, activates, logs in and out', () => {
  //
  test('register → activation link from the mailbox → activate → login → profile → logout', async ({ page, request }) => {
    const user = uniqueIdentity();
    await page.goto('/register');
    await expect(page.getByRole('heading', { name: 'Register' })).toBeVisible();
    await expect(page.getByRole('complementary')).toContainText('Before you start'); // the information panel
    await expect(page.getByText(/verify your email to activate your account/i)).toBeVisible();

    const submit = page.getByRole('button', { name: 'Register' });
    await expect(submit).toBeDisabled();
    await catalystIdField(page).fill(user.catalystId);
    await page.getByRole('textbox', { name: /^E-mail address/ }).fill(user.email);
    await passwordField(page, /^Password\s*\*?$/).fill(user.password);
    await passwordField(page, /^Password confirmation/).fill(user.password);
    await page.getByLabel('I have read and accept the privacy policy').check();
    await page.getByLabel('I have read and accept the terms and conditions').check();
    await expect(submit).toBeDisabled(); // budget approval still missing
    await page.getByLabel(/budget/).check();
    await expect(submit).toBeEnabled();

    const registration = page.waitForRequest((r) => r.url().endsWith('/api/reviews/users/') && r.method() === 'POST');
    await submit.click();
    const body = (await registration).postDataJSON();
    expect(body.new_user).toMatchObject({
      catalyst_id: user.catalystId,
      password: user.password,
      password_confirmation: user.password,
      extra: { policy_acknowledgments: { privacy_policy: true, terms_and_conditions: true } },
    });
    await expectToast(page, 'Registration successful');
    await expect(page).toHaveURL(/\/account\/activation$/);
    await expect(page.getByText('Please check your email')).toBeVisible();

    const link = await mailedLink(request, user.email, 'activation');
    await page.goto(new URL(link).pathname + new URL(link).search);
    await expect(page.getByText('Activate your account to start reviewing.')).toBeVisible();
    const activation = page.waitForRequest((r) => r.url().endsWith('/api/reviews/users/activate'));
    await page.getByRole('button', { name: 'Activate' }).click();
    expect((await activation).postDataJSON()).toEqual({ user_activation: { confirmation_token: new URL(link).searchParams.get('token') } });
    await expectToast(page, 'Account successfully activated');
    await expect(page).toHaveURL(/\/login$/);

    await loginThroughForm(page, user.catalystId, user.password);
    await expectToast(page, 'Logged in');
    await expect(page.getByRole('heading', { name: 'Profile' })).toBeVisible();
    await expect(page.getByText(user.catalystId)).toBeVisible();
    await expect(page.getByTestId('activation-bar')).toHaveCount(0);
    await expectNavEmail(page, user.email);

    await logoutThroughMenu(page);
    await expectToast(page, 'Logged out');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('session') ?? '{}').state);
    expect(stored).toMatchObject({ logged: false, auth: null, userInfo: null });
  });

  //
  test('a used activation link shows the server message in a modal with a way back to register', async ({ page, request }) => {
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
    const link = new URL(await mailedLink(request, user.email, 'activation'));
    const token = link.searchParams.get('token')!;
    expect((await request.post('/api/reviews/users/activate', { data: { user_activation: { confirmation_token: token } } })).status()).toBe(
      200,
    );

    await page.goto(link.pathname + link.search);
    await page.getByRole('button', { name: 'Activate' }).click();
    const modal = page.getByRole('dialog');
    await expect(modal).toContainText('Your activation link has expired. Please register again.');
    await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);
    await modal.getByRole('button', { name: 'Register again' }).click();
    await expect(page).toHaveURL(/\/register$/);
  });

  //
  test('a registration the server refuses shows its message in the verify-email modal', async ({ page }) => {
    const user = uniqueIdentity();
    await page.goto('/register');
    await catalystIdField(page).fill('id.catalyst://cardano/demo-admin');
    await page.getByRole('textbox', { name: /^E-mail address/ }).fill(user.email);
    await passwordField(page, /^Password\s*\*?$/).fill(user.password);
    await passwordField(page, /^Password confirmation/).fill(user.password);
    for (const box of await page.getByRole('checkbox').all()) await box.check();
    await page.getByRole('button', { name: 'Register' }).click();
    const modal = page.getByRole('dialog', { name: 'Verify your email' });
    await expect(modal).toContainText('This Catalyst ID is already registered.');
  });

  //
  test('each invalid registration field shows its message once edited', async ({ page }) => {
    await page.goto('/register');
    await catalystIdField(page).fill('not-a-catalyst-id');
    await page.getByRole('textbox', { name: /^E-mail address/ }).fill('nobody@');
    await passwordField(page, /^Password\s*\*?$/).fill('short');
    await passwordField(page, /^Password confirmation/).fill('different1');
    await page.getByRole('heading', { name: 'Register' }).click();
    await expect(page.getByText('Please enter a valid Catalyst ID')).toBeVisible();
    await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
    await expect(page.getByText('Password must be at least 8 characters long.')).toBeVisible();
    await passwordField(page, /^Password\s*\*?$/).fill('longenough');
    await expect(page.getByText('Password must contain a number.')).toBeVisible();
    await passwordField(page, /^Password\s*\*?$/).fill('longenough1');
    await expect(page.getByText('Password must contain an uppercase letter.')).toBeVisible();
    await passwordField(page, /^Password\s*\*?$/).fill('Longenough1');
    await expect(page.getByText('Passwords do not match.')).toBeVisible();
    await catalystIdField(page).fill('');
    await expect(page.getByText('Catalyst ID is required.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Register' })).toBeDisabled();
  });
});
