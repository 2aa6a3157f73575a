import { readFileSync } from 'node:fs';
import type { ReviewFile } from '@cr/contract/review-files';
import { expect, test } from './fixtures';
import { demo, expectAccessible, login } from './support';

// Issue 29 item 2: on My proposals a reviewer downloads their allocation as a file, and uploads it back: the dry run
// shows what would change, the errors by proposal and field, and the reviews left as they are.
test.describe('offline review files (issue 29 item 2)', () => {
  test('the demo reviewer downloads the allocation, uploads it with an error, and reads the dry run', async ({ page }) => {
    await login(page, demo.reviewer, { to: '/allocated-proposals' });
    const panel = page.getByRole('region', { name: 'Review offline with a file' });
    const downloading = page.waitForEvent('download');
    await panel.getByRole('button', { name: 'Download my allocation (JSON)' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('my-allocation.json');
    const file = JSON.parse(readFileSync((await download.path())!, 'utf8')) as ReviewFile;
    expect(file.format).toBe('community-review/review-file');
    expect(file.reviews.length).toBeGreaterThan(0);
    const [open, other] = file.reviews.filter((entry) => entry.review_id === null);
    expect(other, 'two proposals not reviewed yet').toBeTruthy();

    // One new review with a note too short; another left empty.
    Object.assign(open!, { impact_alignment_rating_given: 4, impact_alignment_note: 'Too short to be a review.' });
    await panel.locator('input[type="file"]').setInputFiles({
      name: 'my-allocation.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(file)),
    });
    const dialog = page.getByRole('dialog', { name: 'What the upload would do' });
    const errors = dialog.getByRole('region', { name: 'Errors to correct' });
    await expect(errors).toContainText(open!.proposal_title!);
    await expect(errors).toContainText('impact_alignment_note: Please provide at least 200 characters');
    await expect(dialog.getByRole('region', { name: /^Left empty/ })).toContainText(other!.proposal_title!);
    await expect(dialog.getByText('Correct the errors in the file and upload it again')).toBeVisible();
    await expect(dialog.getByRole('button', { name: /^Write / })).toBeDisabled();
    await expectAccessible(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toHaveCount(0);

    // A file that is not JSON says so.
    await panel.locator('input[type="file"]').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await expect(panel.getByRole('alert')).toContainText('could not be read as JSON');
  });
});
