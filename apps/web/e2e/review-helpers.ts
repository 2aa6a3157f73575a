import { expect, type APIRequestContext, type Page, type Request } from '@playwright/test';
import { activeUser } from './support';

/** What the own-review specs share: a fresh reviewer of the demo round, the form's fields, drafts. */
export const API = '/api/reviews';
export const CRITERIA = ['Impact alignment', 'Feasibility', 'Auditability (value for money)'] as const;
export type Criterion = (typeof CRITERIA)[number];

/** A note of `words` ten-letter words: 10 characters each once spaces are not counted. */
export const note = (words: number, word = 'Convincing') => Array.from({ length: words }, () => word).join(' ');

export interface DemoProposal {
  row_id: number;
  title: string;
  objective: number | null;
}

export async function demoRound(request: APIRequestContext) {
  const events = (await (await request.get(`${API}/events/current/`)).json()) as { row_id: number; name: string }[];
  const event = events.find((item) => item.name === 'Fund 15 (demo)');
  expect(event, 'the demo round').toBeTruthy();
  const proposals = (await (await request.get(`${API}/proposals/?size=100&page=0`)).json()) as {
    data: (DemoProposal & { event_id: number })[];
  };
  return { eventId: event!.row_id, proposals: proposals.data.filter((proposal) => proposal.event_id === event!.row_id) };
}

/** A fresh account with an active LV0 subscription to the demo round (review submission and visibility are on there). */
export async function freshReviewer(request: APIRequestContext) {
  const user = await activeUser(request);
  const login = await request.post(`${API}/users/token/login`, { form: { username: user.catalystId, password: user.password } });
  const headers = { authorization: `Bearer ${(await login.json()).access_token}` };
  const round = await demoRound(request);
  const subscribed = await request.post(`${API}/subscriptions/`, {
    headers,
    data: {
      new_subscription: { want_to_be_reviewer: true, fund_rules_acceptance: true, preferred_categories: [], event_id: round.eventId },
    },
  });
  expect(subscribed.status()).toBe(201);
  return { user, headers, ...round };
}

export const ownReview = (page: Page) => page.getByRole('region', { name: 'Your review' });
export const ratingGroup = (page: Page, criterion: Criterion) => ownReview(page).getByRole('radiogroup', { name: `${criterion} rating` });
export const noteField = (page: Page, criterion: Criterion) => ownReview(page).getByRole('textbox', { name: `${criterion} note` });
export const starName = (stars: number) => `${stars} ${stars === 1 ? 'star' : 'stars'}`;

/** Clicks a star, as a person does (the radio inputs themselves are visually hidden). */
export async function rate(page: Page, criterion: Criterion, stars: number) {
  const radio = ratingGroup(page, criterion).getByRole('radio', { name: starName(stars), exact: true });
  const id = await radio.getAttribute('id');
  await ratingGroup(page, criterion).locator(`label[for="${id}"]`).click();
  await expect(radio).toBeChecked();
}

export const isCall = (method: string, path: RegExp) => (request: Request) =>
  request.method() === method && path.test(new URL(request.url()).pathname);
export const draftOf = (page: Page, catalystId: string, proposalId: number) =>
  page.evaluate((key) => window.localStorage.getItem(key), `review-draft:${catalystId.replace('id.catalyst://', '')}:${proposalId}`);

export const validReview = {
  impact_alignment_rating_given: 4,
  impact_alignment_note: note(22),
  feasibility_rating_given: 3,
  feasibility_note: note(25, 'Achievable'),
  auditability_rating_given: 5,
  auditability_note: note(30, 'Measurable'),
};

/** Submits `validReview` for a proposal through the API, as the reviewer; the created review. */
export async function submitValidReview(request: APIRequestContext, reviewer: { headers: Record<string, string> }, proposalId: number) {
  const created = await request.post(`${API}/proposal-reviews/`, {
    headers: reviewer.headers,
    data: { new_proposal_review: { ...validReview, proposal_id: proposalId } },
  });
  expect(created.status()).toBe(201);
  return (await created.json()) as { row_id: number; assessor: string };
}

/**
 * The one success toast of a review (spec §8, E-015): the spec's text as its title, and which action happened in its
 * body (DOMAIN.md 14, issue 12 item 9).
 */
export async function expectReviewToast(page: Page, action: 'Review submitted' | 'Review updated' | 'Review deleted') {
  const toast = page.locator('.mantine-Notification-root').filter({ hasText: 'Review submitted, updated or deleted' });
  await expect(
    toast
      .locator('.mantine-Notification-description')
      .filter({ hasText: new RegExp(`^${action}$`) })
      .first(),
  ).toBeVisible();
}
