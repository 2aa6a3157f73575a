import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { activeUser, catalystIdField, demo, expectAccessible, expectToast, login, passwordField } from './support';

// Issue 47: accounts over their whole life — an admin bans and unbans, a reviewer closes their account and downloads
// their data.

/** Tries the login form as the person would, without expecting to get in. */
async function tryLogin(page: Page, catalystId: string, password: string) {
  await page.goto('/login');
  await catalystIdField(page).fill(catalystId);
  await passwordField(page).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** Saves a download started by `click` and answers its file name and text. */
async function download(page: Page, click: () => Promise<void>) {
  const saved = page.waitForEvent('download');
  await click();
  const file = await saved;
  return { name: file.suggestedFilename(), text: await readFile(await file.path(), 'utf8') };
}

test.describe('accounts over their whole life (issue 47)', () => {
  test('an admin bans a reviewer from the Users tab, the reviewer’s login shows the reason, and the admin unbans them', async ({
    page,
    browser,
  }) => {
    const reviewer = await activeUser(page.request);
    const bare = reviewer.catalystId.replace('id.catalyst://', '');
    const reason = `Copied notes across accounts (${bare.slice(-6)})`;

    await login(page, demo.admin, { to: `/admin/users?search=${encodeURIComponent(bare)}` });
    const row = page.getByRole('table', { name: 'Users' }).getByRole('row').filter({ hasText: bare });
    await expect(row).toContainText('active');
    await row.getByRole('button', { name: `Ban ${reviewer.catalystId}` }).click();
    const dialog = page.getByRole('dialog', { name: `Ban ${reviewer.catalystId}` });
    await expect(dialog.getByRole('button', { name: 'Ban this account' })).toBeDisabled();
    await dialog.getByRole('textbox', { name: /^Reason/ }).fill(reason);
    await dialog.getByRole('checkbox', { name: "Withdraw this round's drafts and unmoderated reviews" }).check();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Ban this account' }).click();
    await expectToast(page, 'The account is banned.');
    await expect(dialog).toBeHidden();
    await expect(row).toContainText('banned');

    // The reviewer, in a browser of their own, is told why.
    const reviewerContext = await browser.newContext();
    const reviewerPage = await reviewerContext.newPage();
    await tryLogin(reviewerPage, reviewer.catalystId, reviewer.password);
    await expect(reviewerPage.getByText(`This account is banned: ${reason}`)).toBeVisible();
    await expect(reviewerPage).toHaveURL(/\/login$/);

    // The admin unbans from the user's read-only profile; the reviewer can log in again.
    await row.getByRole('link', { name: `View the profile of ${reviewer.catalystId}` }).click();
    await expect(page.getByRole('heading', { name: reviewer.catalystId })).toBeVisible();
    await expect(page.getByText(reason)).toBeVisible();
    await page.getByRole('button', { name: `Unban ${reviewer.catalystId}` }).click();
    await expectToast(page, /no longer banned/);
    await expect(page.getByRole('button', { name: `Ban ${reviewer.catalystId}` })).toBeVisible();

    await tryLogin(reviewerPage, reviewer.catalystId, reviewer.password);
    await expect(reviewerPage).toHaveURL(/\/profile$/);
    await reviewerContext.close();
  });

  test('a reviewer closes their account with their password and can no longer log in', async ({ page }) => {
    const reviewer = await activeUser(page.request);
    await login(page, reviewer.catalystId, { password: reviewer.password });
    const section = page.getByRole('region', { name: 'Close account' });
    await section.getByRole('button', { name: 'Close account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Close your account' });
    await expect(dialog.getByLabel(/^Your password/)).toBeVisible();
    await expectAccessible(page);
    await dialog.getByLabel(/^Your password/).fill('Wrong-pass1');
    await dialog.getByRole('button', { name: 'Close my account' }).click();
    await expectToast(page, 'The password is not correct.');
    await dialog.getByLabel(/^Your password/).fill(reviewer.password);
    await dialog.getByRole('button', { name: 'Close my account' }).click();
    await expectToast(page, 'Your account is closed and your personal data erased.');
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('link', { name: 'Log in' }).first()).toBeVisible();

    await tryLogin(page, reviewer.catalystId, reviewer.password);
    await expect(page.getByText('Incorrect Catalyst ID or password.')).toBeVisible();
  });

  test('a reviewer downloads their data as JSON and as a readable document', async ({ page }) => {
    const reviewer = await activeUser(page.request);
    await login(page, reviewer.catalystId, { password: reviewer.password });
    const section = page.getByRole('region', { name: 'Your data' });

    const json = await download(page, () => section.getByRole('button', { name: 'Download my data (JSON)' }).click());
    expect(json.name).toMatch(/^community-review-data-\d{4}-\d\d-\d\d\.json$/);
    const data = JSON.parse(json.text) as { account: { email: string; catalyst_id: string }; subscriptions: unknown[] };
    expect(data.account.email).toBe(reviewer.email);
    expect(data.account.catalyst_id).toBe(reviewer.catalystId.replace('id.catalyst://', ''));
    expect(Array.isArray(data.subscriptions)).toBe(true);

    const markdown = await download(page, () => section.getByRole('button', { name: 'Download my data (readable)' }).click());
    expect(markdown.name).toMatch(/\.md$/);
    expect(markdown.text).toContain('# Your data in Community Review');
    expect(markdown.text).toContain(reviewer.email);
  });
});
