import { expect, type APIRequestContext } from '@playwright/test';
import { activeUser } from './support';

/**
 * Arranging a round of a test's own through the API (the admin runs' browser tests: moderation, dashboard, closing):
 * an inactive event with the sample proposals, so the stage other tests see doesn't change, reviewers subscribed to
 * it, their reviews, and a moderator who accepted the invitation.
 */

const API = '/api/reviews';
type Headers = Record<string, string>;

/** A note of 60 words (over the 200 characters a note needs); different words make reviews dissimilar. */
export const reviewNote = (word: string) => Array.from({ length: 60 }, (_, i) => `${word}${i % 7}`).join(' ');

/** A user's bearer header, from the login a client makes. */
export async function tokenOf(request: APIRequestContext, user: { catalystId: string; password: string }): Promise<Headers> {
  const response = await request.post(`${API}/users/token/login`, { form: { username: user.catalystId, password: user.password } });
  expect(response.ok(), await response.text()).toBeTruthy();
  return { authorization: `Bearer ${(await response.json()).access_token as string}` };
}

export interface RoundProposal {
  row_id: number;
  pr_id: string;
  title: string;
  objective_title: string | null;
  event_id: number;
}

/** An inactive event named after the test (`what`), unique to this run. */
export async function newEvent(request: APIRequestContext, headers: Headers, what: string) {
  const created = await request.post(`${API}/events/`, {
    headers,
    data: {
      new_event: {
        name: `E2E ${what} ${Date.now().toString(36)}-${process.pid}`,
        description: `Made by the ${what} browser test.`,
        active: false,
      },
    },
  });
  expect(created.status()).toBe(201);
  return (await created.json()) as { row_id: number; name: string };
}

/** An inactive event named after the test (`what`) with the sample proposals imported for real, and those proposals. */
export async function sampleRound(request: APIRequestContext, headers: Headers, what: string) {
  const event = await newEvent(request, headers, what);
  const imported = await request.post(`${API}/proposals/import/${event.row_id}`, {
    headers,
    data: { import_options: { source: 'sample', dry_run: false } },
  });
  expect(imported.status()).toBe(200);
  const listed = await request.get(`${API}/proposals/?size=100&page=0&event_id=${event.row_id}`);
  const proposals = ((await listed.json()) as { data: RoundProposal[] }).data;
  expect(proposals.length).toBeGreaterThanOrEqual(12);
  /** Updates the event's reviews configuration (its switches and windows). */
  const configure = async (update: Record<string, unknown>) => {
    const response = await request.put(`${API}/configs/reviews/${event.row_id}/`, { headers, data: { record_update: update } });
    expect(response.status(), await response.text()).toBe(200);
  };
  return { ...event, proposals, configure };
}

/** A new active account subscribed to the event as a reviewer: its bearer header, its anonymous id there, and the account. */
export async function newReviewer(request: APIRequestContext, eventId: number) {
  const user = await activeUser(request);
  const auth = await tokenOf(request, user);
  const subscribed = await request.post(`${API}/subscriptions/`, {
    headers: auth,
    data: { new_subscription: { want_to_be_reviewer: true, fund_rules_acceptance: true, preferred_categories: [], event_id: eventId } },
  });
  expect(subscribed.status(), await subscribed.text()).toBe(201);
  const subscriptions = (await subscribed.json()) as { event_id: number; extra?: { anonymous_id?: string } }[];
  return { auth, user, assessor: subscriptions.find((item) => item.event_id === eventId)?.extra?.anonymous_id ?? '' };
}

/** A review with notes made of `word`, rated impact, feasibility and auditability (4, 3 and 5 stars unless told); answers its id. */
export async function writeReview(
  request: APIRequestContext,
  auth: Headers,
  proposalId: number,
  word: string,
  [impact, feasibility, auditability]: [number, number, number] = [4, 3, 5],
) {
  const review = await request.post(`${API}/proposal-reviews/`, {
    headers: auth,
    data: {
      new_proposal_review: {
        proposal_id: proposalId,
        impact_alignment_rating_given: impact,
        impact_alignment_note: reviewNote(`impact${word}`),
        feasibility_rating_given: feasibility,
        feasibility_note: reviewNote(`feasible${word}`),
        auditability_rating_given: auditability,
        auditability_note: reviewNote(`audit${word}`),
      },
    },
  });
  expect(review.status(), await review.text()).toBe(201);
  return ((await review.json()) as { row_id: number }).row_id;
}

/** Accepts the event's moderator (LV2) invitation for a user who has one: their bearer header. */
export async function acceptModeration(request: APIRequestContext, auth: Headers, eventId: number, handle: string) {
  const accepted = await request.post(`${API}/subscriptions/invitation`, {
    headers: auth,
    data: {
      invitation_answer: {
        event_id: eventId,
        status: 1,
        role: 2,
        public_contact: `x.com/${handle}`,
        telegram_handle_private: `@${handle.replace(/-/g, '_')}`,
        reward_address: `addr1q${handle.replace(/[^a-z0-9]/g, '')}`,
        acknowledge_public_contact: true,
      },
    },
  });
  expect(accepted.status(), await accepted.text()).toBe(200);
  return auth;
}

/** A new account invited by the admin to moderate the event (LV2) who accepts: the account and its bearer header. */
export async function newModerator(request: APIRequestContext, headers: Headers, eventId: number, handle: string) {
  const user = await activeUser(request);
  const invited = await request.post(`${API}/subscriptions/invite`, {
    headers,
    data: { invitation: { event_id: eventId, catalyst_id: user.catalystId } },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  return { user, auth: await acceptModeration(request, await tokenOf(request, user), eventId, handle) };
}

/** The real moderation allocation run (flags computed on the way), as the admin's form sends it. */
export async function allocateModeration(
  request: APIRequestContext,
  headers: Headers,
  eventId: number,
  { perReview, minSpotChecks }: { perReview: number; minSpotChecks: number },
) {
  const allocated = await request.post(`${API}/moderations/generate-allocations`, {
    headers,
    data: {
      allocation_params: {
        event_id: eventId,
        moderation_seed: 1,
        nr_of_moderations_per_review: perReview,
        min_spot_check_per_reviewer: minSpotChecks,
        dry_run: false,
      },
    },
  });
  expect(allocated.status(), await allocated.text()).toBe(200);
}

/** A moderator's verdict on a review allocated to them (1 included, 0 excluded), with the list's reason as rationale. */
export async function moderate(request: APIRequestContext, auth: Headers, reviewId: number, classification: 0 | 1) {
  const reason = classification === 1 ? 'valid' : 'profanity';
  const saved = await request.post(`${API}/moderations/`, {
    headers: auth,
    data: { new_moderation: { review_id: reviewId, classification, rationale: reason, predefined_reason: reason } },
  });
  expect(saved.status(), await saved.text()).toBe(201);
}

/**
 * The closing runs for real, as the admin's forms send them: the review outcomes (a review is valid when at least
 * half its moderations include it), then the proposal scores at the spec's default weights (0.8/0.2, levels 1 and 1).
 */
export async function closeRound(request: APIRequestContext, headers: Headers, eventId: number) {
  const outcomes = await request.post(`${API}/proposal-reviews/generate-results`, {
    headers,
    data: {
      results_params: { event_id: eventId, validity_threshold: 0.5, acceptance_threshold: 0.5, minimum_sample: 10, dry_run: false },
    },
  });
  expect(outcomes.status(), await outcomes.text()).toBe(200);
  const scores = await request.post(`${API}/proposals/generate-results`, {
    headers,
    data: {
      results_params: {
        event_id: eventId,
        allocation_weights: { allocated: 0.8, not_allocated: 0.2 },
        level_weights: { level_0: 1, level_1: 1 },
        dry_run: false,
      },
    },
  });
  expect(scores.status(), await scores.text()).toBe(200);
}
