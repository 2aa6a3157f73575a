import { expect, test, type APIRequestContext } from './fixtures';
import type { UserInfo } from '@cr/contract/users';
import { API } from './review-helpers';
import { DEMO_PASSWORD, demo, expectAccessible, login } from './support';

// Issue 15 items 4 and 6: the demo's past round, Fund 14 (demo), has its review outcomes and proposal scores, made by
// the real runs when the demo was seeded. Nothing here is rewritten: the figures are the server's.

const PAST_ROUND = 'Fund 14 (demo)';

async function pastRound(request: APIRequestContext) {
  const events = (await (await request.get(`${API}/events/?size=100`)).json()) as { data: { row_id: number; name: string }[] };
  const event = events.data.find((item) => item.name === PAST_ROUND);
  expect(event, 'the past demo round').toBeTruthy();
  return event!;
}

test.describe('the past demo round', () => {
  // C-038, C-044, C-046, C-048: the demo reviewer's history, counted from the past round's outcomes.
  test("the demo reviewer's profile shows their history, the server's figures", async ({ page, request }) => {
    const token = await request.post(`${API}/users/token/login`, { form: { username: demo.reviewer, password: DEMO_PASSWORD } });
    const me = (await (
      await request.get(`${API}/users/me/`, { headers: { authorization: `Bearer ${(await token.json()).access_token}` } })
    ).json()) as UserInfo;
    const history = me.extra.historic_stats.reviews;
    expect(history.submitted).toBeGreaterThan(0);
    expect(history.valid).toBeGreaterThan(0);

    await login(page, demo.reviewer);
    const historic = page.getByRole('region', { name: 'Historic stats' });
    await expect(historic.getByTestId('stat-funds')).toHaveText(String(history.active_funds));
    await expect(historic.getByTestId('stat-submitted')).toHaveText(String(history.submitted));
    await expect(historic.getByTestId('stat-blank')).toHaveText(String(history.blank));
    await expect(historic.getByTestId('stat-valid')).toHaveText(String(history.valid));
    await expect(historic.getByTestId('stat-excluded')).toHaveText(String(history.submitted - history.blank - history.valid));
    await expect(historic.getByTestId('stat-approval')).toHaveText(`${Math.round(history.approval_rate * 100)}%`);
    // The demo's figures, hand-computed from its seed: 6 reviews in one round, one excluded by its moderators.
    await expect(historic.getByTestId('stat-submitted')).toHaveText('6');
    await expect(historic.getByTestId('stat-approval')).toHaveText('83%');
    await expect(page.getByRole('table', { name: 'Reviewer subscriptions' })).toContainText(PAST_ROUND);
    await expectAccessible(page);
  });

  // G-001, G-002: moderation is off in the finished round, so a visitor sees the stored scores.
  test('a visitor opens a proposal of the past round and sees the score widget with the stored scores', async ({ page, request }) => {
    const event = await pastRound(request);
    const listed = (await (await request.get(`${API}/proposals/?size=100&event_id=${event.row_id}`)).json()) as {
      data: { row_id: number; title: string }[];
    };
    let proposal: { row_id: number; title: string; score: Record<string, number> | null } | undefined;
    for (const row of listed.data) {
      const full = await (await request.get(`${API}/proposals/${row.row_id}/`)).json();
      if (full.score) {
        proposal = full;
        break;
      }
    }
    expect(proposal, 'a scored proposal of the past round').toBeTruthy();
    const score = proposal!.score!;

    await page.goto(`/proposal/${proposal!.row_id}`);
    await expect(page.getByRole('heading', { level: 1, name: proposal!.title })).toBeVisible();
    const widget = page.getByRole('region', { name: 'Score' });
    await expect(widget).toBeVisible();
    for (const [label, key] of [
      ['Overall', 'overall'],
      ['Impact', 'impact'],
      ['Feasibility', 'feasibility'],
      ['Value for money', 'value_for_money'],
    ] as const)
      await expect(widget.getByRole('progressbar', { name: `${label}: ${score[key]!.toFixed(2)} out of 5` })).toBeVisible();
    await expectAccessible(page);
  });

  // E-039, E-050: the past round's reviews are public (outcomes exist) with their outcome as a ranking badge.
  test('a visitor opens a review of the past round and sees its ranking', async ({ page, request }) => {
    const event = await pastRound(request);
    const listed = (await (await request.get(`${API}/proposal-reviews/filtered?event_id=${event.row_id}&rankings=3&size=1`)).json()) as {
      data: { row_id: number }[];
    };
    expect(listed.data.length).toBe(1);
    await page.goto(`/review/${listed.data[0]!.row_id}`);
    await expect(page.getByTestId('ranking-badge').first()).toHaveText(/excluded by threshold/i);
  });
});
