import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ReviewerLevel } from '@cr/contract/subscriptions';
import { moderationAllocations, moderations, reviews } from '../src/db/schema/index';
import { API, databaseKinds, useTestApp } from './build-test-app';
import type { TestUser } from './fixtures';
import type { TestEvent, TestReviewer } from './world-fixtures';

// Issue 15 item 5: the round's dashboard, `GET events/{id}/dashboard/` (admins only), every figure hand-checked.

const zeroStatuses = { subscribed: 0, active: 0, excluded: 0, invited: 0, refused: 0 };
const WINDOW = { starts_at: '2026-01-01T00:00:00.000Z', ends_at: '2027-12-31T00:00:00.000Z' };

describe.each(databaseKinds)('the round’s dashboard on %s', (kind) => {
  const ctx = useTestApp(kind);
  const read = (event: TestEvent | number, user?: TestUser) =>
    ctx.app.inject({
      method: 'GET',
      url: `${API}/events/${typeof event === 'number' ? event : event.id}/dashboard/`,
      headers: user ? user.auth : {},
    });
  /** A real proposal scores run at the spec's default weights. */
  const runScores = (event: { id: number; admin: TestUser }) =>
    post(event.admin, 'proposals/generate-results', {
      results_params: {
        event_id: event.id,
        allocation_weights: { allocated: 0.8, not_allocated: 0.2 },
        level_weights: { level_0: 1, level_1: 1 },
        dry_run: false,
      },
    });
  const post = (user: TestUser, url: string, payload: object) =>
    ctx.app.inject({ method: 'POST', url: `${API}/${url}`, headers: user.auth, payload });

  /**
   * A small closed round:
   * - proposals p1, p2 in Tools, p3 in Developers, p4 without category;
   * - r1, r2 (LV0), r3 (LV1); moderators m1, m2 (LV2 active); one LV2 invitation pending, one refused (whose
   *   refusal subscribes them at LV0);
   * - allocations r1→p1, r1→p2, r2→p1, r3→p3;
   * - reviews a = r1→p1 (4/3/5, allocated), b = r1→p4 (2/2/2, not allocated), c = r2→p1 (1/1/1, allocated), c
   *   written on 2026-01-15 (UTC), the others today;
   * - moderation allocations a, c → m1 and b → m2; m1 included a and excluded c; m2 moderated nothing;
   * - review outcomes (validity 0.5, acceptance 0.5, sample 10): a, b included, c excluded by moderation;
   * - proposal scores: p1 from a alone (allocated group only) → overall (4 + 3 + 5) / 3 = 4; p4 from b alone → 2;
   *   p2, p3 have no included review → no overall.
   */
  async function closedRound() {
    const event = await ctx.newEvent({
      config: { review_submission_enabled: true, review_submission_starts_at: WINDOW.starts_at, review_submission_ends_at: WINDOW.ends_at },
    });
    const p1 = await ctx.newProposal(event, { category: 'Tools' });
    const p2 = await ctx.newProposal(event, { category: 'Tools' });
    const p3 = await ctx.newProposal(event, { category: 'Developers' });
    const p4 = await ctx.newProposal(event, { category: null });
    const r1 = await ctx.newReviewer(event);
    const r2 = await ctx.newReviewer(event);
    const r3 = await ctx.newReviewer(event, { level: ReviewerLevel.level_1 });
    const m1 = await ctx.newModerator(event);
    const m2 = await ctx.newModerator(event);
    await ctx.invite(event, await ctx.newUser());
    const refusing = await ctx.newUser();
    await ctx.invite(event, refusing);
    expect((await ctx.answerInvitation(refusing, event, false)).statusCode).toBe(200);

    await ctx.newAllocation(r1, p1);
    await ctx.newAllocation(r1, p2);
    await ctx.newAllocation(r2, p1);
    await ctx.newAllocation(r3, p3);
    const a = await ctx.newReview(r1, p1);
    const b = await ctx.newReview(r1, p4, { impact_alignment_rating_given: 2, feasibility_rating_given: 2, auditability_rating_given: 2 });
    const c = await ctx.newReview(r2, p1, { impact_alignment_rating_given: 1, feasibility_rating_given: 1, auditability_rating_given: 1 });
    await ctx.db
      .update(reviews)
      .set({ createdAt: new Date('2026-01-15T10:00:00Z') })
      .where(eq(reviews.id, c.row_id));

    const allocate = (moderator: TestReviewer, reviewId: number) =>
      ctx.db.insert(moderationAllocations).values({ eventId: event.id, reviewId, subscriptionId: moderator.subscription.row_id });
    await allocate(m1, a.row_id);
    await allocate(m1, c.row_id);
    await allocate(m2, b.row_id);
    const moderate = (moderator: TestReviewer, reviewId: number, classification: 0 | 1) =>
      ctx.db
        .insert(moderations)
        .values({ eventId: event.id, reviewId, subscriptionId: moderator.subscription.row_id, classification, rationale: 'r' });
    await moderate(m1, a.row_id, 1);
    await moderate(m1, c.row_id, 0);

    const outcomes = await post(event.admin, 'proposal-reviews/generate-results', {
      results_params: { event_id: event.id, validity_threshold: 0.5, acceptance_threshold: 0.5, minimum_sample: 10, dry_run: false },
    });
    expect(outcomes.statusCode).toBe(200);
    const scores = await runScores(event);
    expect(scores.statusCode).toBe(200);
    return { event, r1, m1, categories: { tools: p1.objective, developers: p3.objective } };
  }

  it('answers every figure of a closed round, as counted by hand', async () => {
    const { event, categories } = await closedRound();
    const response = await read(event, event.admin);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Date.parse(body.computed_at)).toBeGreaterThan(Date.now() - 60_000);
    const today = new Date().toISOString().slice(0, 10);
    expect({ ...body, computed_at: undefined }).toEqual({
      event_id: event.id,
      computed_at: undefined,
      subscribers: {
        total: 8,
        by_level: [
          { level: 0, total: 3, by_status: { ...zeroStatuses, active: 3 } },
          { level: 1, total: 1, by_status: { ...zeroStatuses, active: 1 } },
          { level: 2, total: 4, by_status: { ...zeroStatuses, active: 2, invited: 1, refused: 1 } },
        ],
      },
      proposals: {
        total: 4,
        by_category: [
          { category_id: categories.developers, title: 'Developers', count: 1 },
          { category_id: categories.tools, title: 'Tools', count: 2 },
          { category_id: null, title: null, count: 1 },
        ],
      },
      allocations: { allocations: 4, proposals_allocated: 3, reviewers_allocated: 3, reviews_done: 2, reviews_total: 3 },
      reviews_per_day: {
        window: WINDOW,
        days: [
          { day: '2026-01-15', count: 1 },
          { day: today, count: 2 },
        ],
      },
      moderation: {
        allocated: 3,
        moderated: 2,
        moderations: 2,
        moderators: 2,
        allocated_per_moderator: { min: 1, avg: 1.5, max: 2 },
        moderated_per_moderator: { min: 0, avg: 1, max: 2 },
      },
      outcomes: { pending: 0, included: 2, excluded_moderation: 1, excluded_threshold: 0 },
      scores: {
        scored: 2,
        unscored: 2,
        buckets: [
          { from: 1, to: 1.5, count: 0 },
          { from: 1.5, to: 2, count: 0 },
          { from: 2, to: 2.5, count: 1 },
          { from: 2.5, to: 3, count: 0 },
          { from: 3, to: 3.5, count: 0 },
          { from: 3.5, to: 4, count: 0 },
          { from: 4, to: 4.5, count: 1 },
          { from: 4.5, to: 5, count: 0 },
        ],
      },
    });
  });

  it('answers zeros for a new event: every level and score bucket, no day, an open window', async () => {
    const event = await ctx.newEvent();
    const body = (await read(event, event.admin)).json();
    expect(body.subscribers).toEqual({
      total: 0,
      by_level: [0, 1, 2].map((level) => ({ level, total: 0, by_status: zeroStatuses })),
    });
    expect(body.proposals).toEqual({ total: 0, by_category: [] });
    expect(body.allocations).toEqual({ allocations: 0, proposals_allocated: 0, reviewers_allocated: 0, reviews_done: 0, reviews_total: 0 });
    expect(body.reviews_per_day).toEqual({ window: { starts_at: null, ends_at: null }, days: [] });
    expect(body.moderation).toEqual({
      allocated: 0,
      moderated: 0,
      moderations: 0,
      moderators: 0,
      allocated_per_moderator: { min: 0, avg: 0, max: 0 },
      moderated_per_moderator: { min: 0, avg: 0, max: 0 },
    });
    expect(body.outcomes).toEqual({ pending: 0, included: 0, excluded_moderation: 0, excluded_threshold: 0 });
    expect(body.scores.buckets.map((bucket: { count: number }) => bucket.count)).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(body.scores).toMatchObject({ scored: 0, unscored: 0 });
  });

  it('serves a snapshot for a few seconds: a second read answers the same counts at the same time', async () => {
    const event = await ctx.newEvent({ config: { review_submission_enabled: true } });
    const first = (await read(event, event.admin)).json();
    // A reviewer's subscription, not one of the admin's writes (those show at once, below).
    const reviewer = await ctx.newReviewer(event);
    const second = (await read(event, event.admin)).json();
    expect(second).toEqual(first);
    expect(reviewer.subscription.event_id).toBe(event.id);
  });

  // Issue 26 items 10 and 16: the admin's own writes show on the Overview at once, not when the snapshot is 30 s old.
  it('forgets the event’s snapshot after its admin’s import, invitation and runs, and reads the review window afresh', async () => {
    const event = await ctx.newEvent({ config: { review_submission_enabled: true } });
    const figures = async () => (await read(event, event.admin)).json();
    expect((await figures()).proposals.total).toBe(0);

    const proposals = await ctx.importProposals(event);
    expect((await figures()).proposals.total).toBe(proposals.length);

    await ctx.invite(event, await ctx.newUser());
    expect((await figures()).subscribers.by_level[2].by_status.invited).toBe(1);

    const reviewer = await ctx.newReviewer(event);
    expect((await ctx.allocate(event, { nr_of_proposals_lv0: 2, nr_of_proposals_lv1: 1 })).dry_run).toBe(false);
    expect((await figures()).allocations).toMatchObject({ allocations: 2, reviewers_allocated: 1 });

    // A review is not one of the admin's writes: the snapshot stays until it is stale (a few seconds).
    await ctx.newReview(reviewer, proposals[0]!);
    expect((await figures()).allocations.reviews_total).toBe(0);
    await ctx.newModerator(event);
    const moderation = await post(event.admin, 'moderations/generate-allocations', {
      allocation_params: {
        event_id: event.id,
        moderation_seed: 1,
        nr_of_moderations_per_review: 1,
        min_spot_check_per_reviewer: 10,
        dry_run: false,
      },
    });
    expect(moderation.statusCode, moderation.body).toBe(200);
    const afterModeration = await figures();
    expect(afterModeration.allocations.reviews_total).toBe(1);
    expect(afterModeration.moderation).toMatchObject({ allocated: 1, moderators: 1 });
    expect(afterModeration.outcomes.pending).toBe(1);

    const outcomes = await post(event.admin, 'proposal-reviews/generate-results', {
      results_params: { event_id: event.id, validity_threshold: 0.5, acceptance_threshold: 0.5, minimum_sample: 10, dry_run: false },
    });
    expect(outcomes.statusCode, outcomes.body).toBe(200);
    expect((await figures()).outcomes.pending).toBe(0);

    expect((await figures()).scores.scored).toBe(0);
    const scores = await runScores(event);
    expect(scores.statusCode, scores.body).toBe(200);
    const afterScores = await figures();
    expect(afterScores.scores.scored + afterScores.scores.unscored).toBe(proposals.length);
    expect(afterScores.scores.unscored).toBeLessThan(proposals.length);

    await ctx.configure(event, { review_submission_starts_at: WINDOW.starts_at, review_submission_ends_at: WINDOW.ends_at });
    expect((await figures()).reviews_per_day.window).toEqual(WINDOW);
  });

  it('is for admins only: 401 anonymous, 403 for a reviewer and a moderator; 404 for an unknown event, 422 for a bad id', async () => {
    const event = await ctx.newEvent();
    const reviewer = await ctx.newReviewer(event);
    const moderator = await ctx.newModerator(event);
    expect((await read(event)).statusCode).toBe(401);
    expect((await read(event, reviewer)).statusCode).toBe(403);
    expect((await read(event, moderator)).statusCode).toBe(403);
    const unknown = await read(2_000_000_000, event.admin);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'This event does not exist.' });
    const bad = await ctx.app.inject({ method: 'GET', url: `${API}/events/abc/dashboard/`, headers: event.admin.auth });
    expect(bad.statusCode).toBe(422);
  });
});
