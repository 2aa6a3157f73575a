import { expect, test, type APIRequestContext, type Page } from './fixtures';
import { closeRound, newReviewer, sampleRound, writeReview } from './rounds';
import { adminHeaders, expectAccessible } from './support';

// Issue 15 item 2: the proposal page's score widget (spec §2.12). Issue 26 item 12: the scores are the server's, from
// the real proposal scores run over a round of the test's own (kept inactive, so the stage other tests see stays).

/**
 * A closed round: two reviewers review the same proposal, 4/3/5 and 5/2/1 stars; nothing is moderated, so the
 * outcomes include both, and (both not allocated, equal weights) the scores are the means: impact 4.5, feasibility
 * 2.5, value for money (auditability) 3, overall (4.5 + 2.5 + 3) / 3 = 3.33.
 */
async function scoredProposal(request: APIRequestContext) {
  const headers = await adminHeaders(request);
  const round = await sampleRound(request, headers, 'score widget');
  const proposal = round.proposals[0]!;
  await round.configure({ reviewer_subscription_enabled: true, review_submission_enabled: true });
  for (const [word, ratings] of [
    ['first', [4, 3, 5]],
    ['second', [5, 2, 1]],
  ] as const) {
    const { auth } = await newReviewer(request, round.row_id);
    await writeReview(request, auth, proposal.row_id, word, [...ratings]);
  }
  await round.configure({ reviewer_subscription_enabled: false, review_submission_enabled: false });
  await closeRound(request, headers, round.row_id);
  return { proposal, configure: round.configure };
}

const SCORES = [
  ['Overall', '3.33'],
  ['Impact', '4.50'],
  ['Feasibility', '2.50'],
  ['Value for money', '3.00'],
] as const;

const widget = (page: Page) => page.getByRole('region', { name: 'Score' });

async function expectScores(page: Page) {
  await expect(widget(page)).toBeVisible();
  for (const [label, value] of SCORES)
    await expect(widget(page).getByRole('progressbar', { name: `${label}: ${value} out of 5` })).toBeVisible();
}

test.describe('score widget', () => {
  test('G-001: a visitor sees overall, impact, feasibility and value for money out of 5, to 2 decimals (A-135)', async ({
    page,
    request,
  }) => {
    const { proposal } = await scoredProposal(request);
    await page.goto(`/proposal/${proposal.row_id}`);
    await expectScores(page);
    await expectAccessible(page);
  });

  test('G-002: the widget is hidden while moderation is enabled for the event, and shows once it is off', async ({ page, request }) => {
    const { proposal, configure } = await scoredProposal(request);
    // Subscription on as well: the reviews list then shows, which proves the page knows the event's configuration.
    await configure({ moderation_submission_enabled: true, reviewer_subscription_enabled: true });
    await page.goto(`/proposal/${proposal.row_id}`);
    await expect(page.getByRole('heading', { level: 2, name: 'Reviews (2)' })).toBeVisible();
    await expect(widget(page)).toHaveCount(0);

    await configure({ moderation_submission_enabled: false });
    await page.reload();
    await expectScores(page);
  });
});
