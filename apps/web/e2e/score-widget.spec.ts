import { expect, test } from '@playwright/test';
import { demoRound } from './review-helpers';
import { expectAccessible, rewriteJson } from './support';

// Issue 15 item 2: the proposal page's score widget (spec §2.12). The scores come from the proposal scores run; here
// the proposal's answer carries them (the run itself is covered by apps/server/test/outcomes.test.ts).

const SCORE = { overall: 3.6, impact: 4.4, feasibility: 3.6, value_for_money: 2.8333 };

test.describe('score widget', () => {
  test('G-001: a visitor sees overall, impact, feasibility and value for money out of 5, to 2 decimals (A-135)', async ({
    page,
    request,
  }) => {
    const { proposals } = await demoRound(request);
    const proposal = proposals[0]!;
    await rewriteJson(page, `**/api/reviews/proposals/${proposal.row_id}/`, (json) => {
      json.score = SCORE;
    });
    await rewriteJson(page, '**/api/reviews/configs/reviews/*/', (json) => {
      json.value.moderation_submission_enabled = false;
    });
    await page.goto(`/proposal/${proposal.row_id}`);
    const widget = page.getByRole('region', { name: 'Score' });
    await expect(widget).toBeVisible();
    for (const [label, value] of [
      ['Overall', '3.60'],
      ['Impact', '4.40'],
      ['Feasibility', '3.60'],
      ['Value for money', '2.83'],
    ])
      await expect(widget.getByRole('progressbar', { name: `${label}: ${value} out of 5` })).toBeVisible();
    await expectAccessible(page);
  });

  test('G-002: the widget is hidden while moderation is enabled for the event', async ({ page, request }) => {
    const { proposals } = await demoRound(request);
    const proposal = proposals[0]!;
    await rewriteJson(page, `**/api/reviews/proposals/${proposal.row_id}/`, (json) => {
      json.score = SCORE;
    });
    await rewriteJson(page, '**/api/reviews/configs/reviews/*/', (json) => {
      json.value.moderation_submission_enabled = true;
    });
    const configAnswered = page.waitForResponse(/\/api\/reviews\/configs\/reviews\/\d+\//);
    await page.goto(`/proposal/${proposal.row_id}`);
    await configAnswered;
    await expect(page.getByRole('heading', { level: 1, name: proposal.title })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Score' })).toHaveCount(0);
  });
});
