import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from './fixtures';
import { API } from './review-helpers';
import { demo, expectAccessible, login } from './support';

// Issue 48: a finished round's open data, downloaded by a visitor from the round's page and checked by the verifier;
// the admin's audit tab shows that the audit hash chain verifies.

const PAST_ROUND = 'Fund 14 (demo)';
const root = fileURLToPath(new URL('../../..', import.meta.url));

test('a visitor downloads a finished round’s open data from its page, and the verifier reproduces every figure', async ({
  page,
  request,
}, testInfo) => {
  const events = (await (await request.get(`${API}/events/?size=100`)).json()) as { data: { row_id: number; name: string }[] };
  const event = events.data.find((item) => item.name === PAST_ROUND)!;
  expect(event, 'the past demo round').toBeTruthy();

  // Found from the home page: "Open data of the rounds" lists the published rounds, each linking to its page.
  await page.goto('/');
  await page.getByRole('link', { name: 'Open data of the rounds' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Open data' })).toBeVisible();
  const listed = page.getByRole('row').filter({ hasText: PAST_ROUND });
  await expect(listed).toContainText(`round-${event.row_id}-open-data.zip`);
  await expectAccessible(page);
  await listed.getByRole('link', { name: PAST_ROUND }).click();
  await expect(page).toHaveURL(`/rounds/${event.row_id}/open-data`);
  await expect(page.getByRole('heading', { level: 1, name: `Open data: ${PAST_ROUND}` })).toBeVisible();
  const file = `round-${event.row_id}-open-data.zip`;
  await expect(page.getByTestId('verify-command')).toHaveText(`npx @community-review/verify ${file}`);
  await expect(page.getByTestId('audit-head')).toHaveText(/^[0-9a-f]{64}$/);
  await expectAccessible(page);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: `Download ${file}` }).click()]);
  expect(download.suggestedFilename()).toBe(file);
  const saved = testInfo.outputPath(file);
  await download.saveAs(saved);
  expect(readFileSync(saved).subarray(0, 2).toString()).toBe('PK');
  const printed = execFileSync(process.execPath, ['--import', 'tsx', 'packages/verify/src/cli.ts', saved], { cwd: root, encoding: 'utf8' });
  expect(printed).toMatch(/^(\d+)\/\1 figures reproduced$/m);
});

test('the admin sees on the audit tab that the audit chain verifies, with its head', async ({ page }) => {
  await login(page, demo.admin, { to: '/admin/audit' });
  const chain = page.getByTestId('audit-chain');
  await expect(chain).toContainText('The audit chain verifies');
  await expect(chain).toContainText(/Head \(the hash of entry \d+\):/);
  await expect(chain.locator('pre')).toHaveText(/^[0-9a-f]{64}$/);
});
