import { expect, test } from './fixtures';
import { activeUser, expectAccessible, expectToast, login } from './support';

const API = '/api/reviews';

// Issue 29 item 3: a user makes a personal API token on the profile, sees its secret once, a script uses it, and the
// user revokes it.
test.describe('API tokens on the profile (issue 29 item 3)', () => {
  test('a user creates a read token, copies it once, a script reads with it, and revoking it stops it', async ({ page, request }) => {
    const user = await activeUser(request);
    await login(page, user.catalystId, { password: user.password });
    const form = page.getByRole('form', { name: 'New API token' });
    // The scopes a reviewer may give (admin-read is for admins only).
    await expect(form.getByRole('checkbox', { name: 'admin-read' })).toHaveCount(0);
    const name = form.getByRole('textbox', { name: 'Token name' });
    await name.fill('x');
    await name.fill('');
    await name.blur();
    await expect(form.getByText('Token name is required')).toBeVisible();
    await name.fill('my dashboard');
    await form.getByRole('checkbox', { name: 'read' }).uncheck();
    await expect(form.getByText('Scopes: choose at least one scope.')).toBeVisible();
    await expect(form.getByRole('button', { name: 'Create token' })).toBeDisabled();
    await form.getByRole('checkbox', { name: 'read' }).check();
    await form.getByRole('button', { name: 'Create token' }).click();
    await expectToast(page, 'API token created.');

    const secret = (await page.getByTestId('new-token').textContent())!;
    expect(secret).toMatch(/^crpat_[A-Za-z0-9_-]{43}$/);
    await expect(page.getByText('curl -H "Authorization: Bearer crpat_')).toBeVisible();
    const table = page.getByRole('table', { name: 'Your API tokens' });
    const row = table.getByRole('row').filter({ hasText: 'my dashboard' });
    await expect(row).toContainText('read');
    await expect(row).toContainText('never');
    await expect(row).toContainText('active');
    await expectAccessible(page);

    // A script reads as the user with it.
    const me = await request.get(`${API}/users/me/`, { headers: { authorization: `Bearer ${secret}` } });
    expect(me.status()).toBe(200);
    // Shown once: after hiding it (or a reload) the secret is nowhere on the page.
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.reload();
    await expect(row).toContainText('active');
    await expect(page.getByText(secret)).toHaveCount(0);
    await expect(row).not.toContainText('never'); // its last use shows

    await row.getByRole('button', { name: 'Revoke the token my dashboard' }).click();
    await expectToast(page, 'API token revoked.');
    await expect(row).toContainText('revoked');
    const after = await request.get(`${API}/users/me/`, { headers: { authorization: `Bearer ${secret}` } });
    expect(after.status()).toBe(401);
  });
});
