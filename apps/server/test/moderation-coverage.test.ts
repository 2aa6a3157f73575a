import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, moderationAllocations, moderationTopUps, subscriptions } from '../src/db/schema/index';
import { API, databaseKinds, useTestApp } from './build-test-app';
import type { TestUser } from './fixtures';
import type { TestReviewer } from './world-fixtures';

// Issue 28 item 1: moderation coverage (GET moderations/coverage, …/reviews, …/moderators) and the top-up run
// (POST moderations/top-up), on a planted round whose figures are counted by hand.

describe.each(databaseKinds)('moderation coverage and top-up on %s (issue 28 item 1)', (kind) => {
  const ctx = useTestApp(kind);

  const call = (method: 'GET' | 'POST', url: string, user: TestUser | undefined, payload?: object) =>
    ctx.app.inject({ method, url: `${API}/${url}`, headers: user ? user.auth : {}, ...(payload ? { payload } : {}) });
  const topUpBody = (eventId: number, overrides: Record<string, unknown> = {}) => ({
    top_up_params: { event_id: eventId, top_up_seed: 1, break_ties: true, dry_run: true, ...overrides },
  });
  const moderate = async (moderator: TestReviewer, reviewId: number, classification: 0 | 1) => {
    const response = await call('POST', 'moderations/', moderator, {
      new_moderation: {
        review_id: reviewId,
        classification,
        rationale: classification ? 'A valid review.' : 'The notes do not correspond to the proposal.',
        predefined_reason: classification ? 'valid' : 'rationale_does_not_correspond',
        custom_rationale: null,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
  };

  /**
   * Four reviews A, B, C, D (A in proposal 0's objective, the others elsewhere) allocated by the real run to 2 of 3
   * moderators each; then A has one include and one exclude (a tie), B two includes, C one include, D nothing. Two
   * more moderators subscribe after the allocation: `author` wrote proposal 0 (conflicted on A), `fresh` did not.
   */
  async function plantedRound() {
    const author = await ctx.newUser();
    const event = await ctx.newEvent({ config: { review_submission_enabled: true } });
    const proposals = await ctx.importProposals(event, { authorOf: (index) => (index === 0 ? author : undefined) });
    const others = proposals.filter((proposal) => proposal.objective !== proposals[0]!.objective).slice(0, 3);
    const reviewers = [await ctx.newReviewer(event), await ctx.newReviewer(event)];
    const [a, b, c, d] = [
      await ctx.newReview(reviewers[0]!, proposals[0]!),
      await ctx.newReview(reviewers[0]!, others[0]!),
      await ctx.newReview(reviewers[1]!, others[1]!),
      await ctx.newReview(reviewers[1]!, others[2]!),
    ];
    const moderators = [await ctx.newModerator(event), await ctx.newModerator(event), await ctx.newModerator(event)];
    const allocation = await call('POST', 'moderations/generate-allocations', event.admin, {
      allocation_params: {
        event_id: event.id,
        moderation_seed: 1,
        nr_of_moderations_per_review: 2,
        min_spot_check_per_reviewer: 2,
        dry_run: false,
      },
    });
    expect(allocation.json()).toMatchObject({ tot: 8 });
    const rows = await ctx.db.select().from(moderationAllocations).where(eq(moderationAllocations.eventId, event.id));
    const allocatedTo = (reviewId: number) =>
      rows.filter((row) => row.reviewId === reviewId).map((row) => moderators.find((m) => m.subscription.row_id === row.subscriptionId)!);
    await ctx.configure(event, { moderation_submission_enabled: true });
    const [a1, a2] = allocatedTo(a.row_id);
    await moderate(a1!, a.row_id, 1);
    await moderate(a2!, a.row_id, 0);
    for (const moderator of allocatedTo(b.row_id)) await moderate(moderator, b.row_id, 1);
    await moderate(allocatedTo(c.row_id)[0]!, c.row_id, 1);
    const fresh = await ctx.newModerator(event);
    const conflicted = await ctx.newModerator(event, { user: author });
    // Allocations not moderated: C's second and D's two.
    const unfinishedModerators = new Set([allocatedTo(c.row_id)[1]!, ...allocatedTo(d.row_id)].map((m) => m.anonymousId));
    return { event, reviews: { a, b, c, d }, reviewers, moderators, fresh, conflicted, allocatedTo, unfinishedModerators };
  }

  it('counts the short reviews, the ties and the unfinished moderators of a planted round, with their lists', async () => {
    const { event, reviews, unfinishedModerators, reviewers } = await plantedRound();
    const summary = await call('GET', `moderations/coverage?event_id=${event.id}`, event.admin);
    expect(summary.statusCode, summary.body).toBe(200);
    expect(summary.json()).toEqual({
      event_id: event.id,
      per_review: 2,
      per_review_from_run: true,
      allocated_reviews: 4,
      short_reviews: 2, // C (1 of 2) and D (0 of 2)
      missing_moderations: 3,
      ties: 1, // A
      moderators_unfinished: unfinishedModerators.size,
      unfinished_allocations: 3,
      to_top_up: 4, // C 1, D 2, A 1 to break its tie
      top_up_runs: 0,
      topped_up_allocations: 0,
    });

    const short = await call('GET', `moderations/coverage/reviews?event_id=${event.id}&kind=short`, event.admin);
    expect(short.json()).toEqual({
      data: [
        expect.objectContaining({
          review_id: reviews.c.row_id,
          assessor: reviewers[1]!.anonymousId,
          allocated: 2,
          moderations: 1,
          includes: 1,
          excludes: 0,
          to_top_up: 1,
        }),
        expect.objectContaining({ review_id: reviews.d.row_id, allocated: 2, moderations: 0, to_top_up: 2, topped_up_pending: 0 }),
      ],
      page: { total: 2, size: 25, page: 0 },
    });
    expect(short.json().data[0].proposal_title).toEqual(expect.any(String));
    const ties = await call('GET', `moderations/coverage/reviews?event_id=${event.id}&kind=ties&size=1`, event.admin);
    expect(ties.json()).toEqual({
      data: [expect.objectContaining({ review_id: reviews.a.row_id, moderations: 2, includes: 1, excludes: 1, to_top_up: 1 })],
      page: { total: 1, size: 1, page: 0 },
    });
    const moderators = await call('GET', `moderations/coverage/moderators?event_id=${event.id}`, event.admin);
    expect(moderators.json().page.total).toBe(unfinishedModerators.size);
    expect(new Set(moderators.json().data.map((row: { assessor: string }) => row.assessor))).toEqual(unfinishedModerators);
    expect(moderators.json().data.reduce((sum: number, row: { unfinished: number }) => sum + row.unfinished, 0)).toBe(3);
    for (const row of moderators.json().data) expect(row.allocated).toBe(row.moderated + row.unfinished);
    const pastTheEnd = await call('GET', `moderations/coverage/moderators?event_id=${event.id}&page=3`, event.admin);
    expect(pastTheEnd.json()).toEqual({ data: [], page: { total: unfinishedModerators.size, size: 25, page: 3 } });
  });

  it('tops up: a dry run writes nothing; a real run allocates the missing moderations to eligible moderators, audited', async () => {
    const { event, reviews, conflicted, fresh, allocatedTo } = await plantedRound();
    const before = await ctx.db.select().from(moderationAllocations).where(eq(moderationAllocations.eventId, event.id));
    const dry = await call('POST', 'moderations/top-up', event.admin, topUpBody(event.id));
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json()).toMatchObject({
      event_id: event.id,
      per_review: 2,
      reviews: 3,
      needed: 4,
      tot: 4,
      reviews_unfilled: 0,
      nr_of_moderators: 5,
      per_moderator: expect.objectContaining({ max: 1 }),
      per_review_added: { avg: 1.33, min: 1, max: 2 },
      dry_run: true,
    });
    expect(await ctx.db.select().from(moderationAllocations).where(eq(moderationAllocations.eventId, event.id))).toHaveLength(
      before.length,
    );
    expect(await ctx.db.select().from(moderationTopUps).where(eq(moderationTopUps.eventId, event.id))).toEqual([]);
    const audited = () =>
      ctx.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'moderations.top_up'), eq(auditLog.eventId, event.id)));
    expect(await audited()).toEqual([]);

    // Without the tie-breaker: C and D only.
    const noTies = await call('POST', 'moderations/top-up', event.admin, topUpBody(event.id, { break_ties: false }));
    expect(noTies.json()).toMatchObject({ reviews: 2, needed: 3, tot: 3 });

    const real = await call('POST', 'moderations/top-up', event.admin, topUpBody(event.id, { dry_run: false }));
    expect(real.statusCode, real.body).toBe(200);
    expect(real.json()).toMatchObject({ tot: 4, dry_run: false });
    const added = await ctx.db
      .select({
        id: moderationAllocations.id,
        reviewId: moderationAllocations.reviewId,
        subscriptionId: moderationAllocations.subscriptionId,
        userId: subscriptions.userId,
      })
      .from(moderationTopUps)
      .innerJoin(moderationAllocations, eq(moderationAllocations.id, moderationTopUps.allocationId))
      .innerJoin(subscriptions, eq(subscriptions.id, moderationAllocations.subscriptionId))
      .where(eq(moderationTopUps.eventId, event.id));
    expect(added.map((row) => row.reviewId).sort()).toEqual(
      [reviews.a.row_id, reviews.c.row_id, reviews.d.row_id, reviews.d.row_id].sort(),
    );
    for (const row of added) {
      // never one already allocated to the review, never the conflicted author on A
      expect(allocatedTo(row.reviewId).map((m) => m.subscription.row_id)).not.toContain(row.subscriptionId);
      if (row.reviewId === reviews.a.row_id) expect(row.userId).not.toBe(conflicted.id);
    }
    expect(new Set(added.filter((row) => row.reviewId === reviews.d.row_id).map((row) => row.userId)).size).toBe(2);
    const [entry] = await audited();
    expect(entry!.after).toMatchObject({
      params: { event_id: event.id, top_up_seed: 1, break_ties: true, dry_run: false },
      stats: { tot: 4 },
    });
    const linked = await ctx.db.select().from(moderationTopUps).where(eq(moderationTopUps.eventId, event.id));
    expect(linked.map((row) => row.runAuditId)).toEqual([entry!.id, entry!.id, entry!.id, entry!.id]);

    const after = await call('GET', `moderations/coverage?event_id=${event.id}`, event.admin);
    expect(after.json()).toMatchObject({
      short_reviews: 2, // nothing new is moderated yet
      to_top_up: 0, // what the top-up allocated is counted until it is done
      unfinished_allocations: 7,
      top_up_runs: 1,
      topped_up_allocations: 4,
    });
    // A second run adds nothing (its allocations are pending), yet is its own audited run.
    const again = await call('POST', 'moderations/top-up', event.admin, topUpBody(event.id, { dry_run: false }));
    expect(again.json()).toMatchObject({ reviews: 0, tot: 0 });
    expect(await audited()).toHaveLength(2);
    expect(await ctx.db.select().from(moderationTopUps).where(eq(moderationTopUps.eventId, event.id))).toHaveLength(4);

    // One of D's new moderators moderates it: D's figures follow.
    const newOnD = [fresh, conflicted].find((m) => added.some((row) => row.reviewId === reviews.d.row_id && row.userId === m.id))!;
    await moderate(newOnD, reviews.d.row_id, 1);
    const shortNow = await call('GET', `moderations/coverage/reviews?event_id=${event.id}&kind=short`, event.admin);
    expect(shortNow.json().data.find((row: { review_id: number }) => row.review_id === reviews.d.row_id)).toMatchObject({
      moderations: 1,
      allocated: 4,
      topped_up_pending: 1,
      to_top_up: 0,
    });
  });

  it('runs each real top-up once: of two concurrent ones, the second adds nothing or gets 409; each missing moderation is added once', async () => {
    const { event } = await plantedRound();
    const body = topUpBody(event.id, { dry_run: false });
    const answers = await Promise.all([
      call('POST', 'moderations/top-up', event.admin, body),
      call('POST', 'moderations/top-up', event.admin, body),
    ]);
    const won = answers.filter((answer) => answer.statusCode === 200).map((answer) => answer.json().tot as number);
    // PGlite's one connection queues the second behind the first (it then finds nothing missing); PostgreSQL refuses
    // it at once when the two overlap (409).
    expect(won.sort()).toEqual(answers.length === won.length ? [0, 4] : [4]);
    expect(answers.every((answer) => answer.statusCode === 200 || answer.statusCode === 409)).toBe(true);
    expect(await ctx.db.select().from(moderationTopUps).where(eq(moderationTopUps.eventId, event.id))).toHaveLength(4);
  });

  it.runIf(kind === 'postgres')('answers 409 at once while another run holds the event', async () => {
    const { event } = await plantedRound();
    await ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select id from configs where kind = 'allocations' and event_id = ${event.id} for update`);
      const blocked = await call('POST', 'moderations/top-up', event.admin, topUpBody(event.id, { dry_run: false }));
      expect(blocked.statusCode).toBe(409);
      expect(blocked.json().message).toBe('Another run is in progress for this event. Try again when it has finished.');
    });
    expect(await ctx.db.select().from(moderationTopUps).where(eq(moderationTopUps.eventId, event.id))).toEqual([]);
  });

  it('answers 409 before the moderation allocation and once the review outcomes exist', async () => {
    const event = await ctx.newEvent();
    const before = await call('POST', 'moderations/top-up', event.admin, topUpBody(event.id));
    expect(before.statusCode).toBe(409);
    expect(before.json().message).toBe('Run the moderation allocation first: a top-up adds to it.');
    const empty = await call('GET', `moderations/coverage?event_id=${event.id}`, event.admin);
    expect(empty.json()).toMatchObject({ allocated_reviews: 0, short_reviews: 0, per_review: 4, per_review_from_run: false });

    const planted = await plantedRound();
    const outcomes = await call('POST', 'proposal-reviews/generate-results', planted.event.admin, {
      results_params: { event_id: planted.event.id, validity_threshold: 0.5, acceptance_threshold: 0.5, dry_run: false },
    });
    expect(outcomes.statusCode, outcomes.body).toBe(200);
    const after = await call('POST', 'moderations/top-up', planted.event.admin, topUpBody(planted.event.id));
    expect(after.statusCode).toBe(409);
  });

  it('needs an admin (401, 403), validates its parameters (422) and answers 404 for an unknown event', async () => {
    const { event, reviewers, moderators } = await plantedRound();
    const urls = [
      `moderations/coverage?event_id=${event.id}`,
      `moderations/coverage/reviews?event_id=${event.id}`,
      `moderations/coverage/moderators?event_id=${event.id}`,
    ];
    for (const url of urls) {
      expect((await call('GET', url, undefined)).statusCode, url).toBe(401);
      expect((await call('GET', url, reviewers[0])).statusCode, url).toBe(403);
      expect((await call('GET', url, moderators[0])).statusCode, url).toBe(403);
    }
    expect((await call('POST', 'moderations/top-up', undefined, topUpBody(event.id))).statusCode).toBe(401);
    expect((await call('POST', 'moderations/top-up', moderators[0], topUpBody(event.id))).statusCode).toBe(403);

    const detail = async (overrides: Record<string, unknown>) => {
      const response = await call('POST', 'moderations/top-up', event.admin, topUpBody(event.id, overrides));
      expect(response.statusCode, JSON.stringify(overrides)).toBe(422);
      return response.json().detail.map((item: { loc: string[]; msg: string }) => [item.loc.at(-1), item.msg]);
    };
    expect(await detail({ top_up_seed: 0 })).toEqual([['top_up_seed', 'Top up seed must be at least 1.']]);
    expect(await detail({ top_up_seed: 1.5 })).toEqual([['top_up_seed', 'Top up seed must be a whole number.']]);
    expect((await detail({ break_ties: 'yes' }))[0][0]).toBe('break_ties');
    expect((await detail({ event_id: 'x' }))[0][0]).toBe('event_id');
    // Left out, the seed and the tie-breaker take their defaults.
    const defaults = await call('POST', 'moderations/top-up', event.admin, { top_up_params: { event_id: event.id } });
    expect(defaults.json()).toMatchObject({ tot: 4, dry_run: true });

    for (const url of [
      'moderations/coverage?event_id=x',
      'moderations/coverage',
      `moderations/coverage/reviews?event_id=${event.id}&kind=all`,
      `moderations/coverage/moderators?event_id=${event.id}&size=0`,
    ])
      expect((await call('GET', url, event.admin)).statusCode, url).toBe(422);
    expect((await call('GET', 'moderations/coverage?event_id=2000000', event.admin)).statusCode).toBe(404);
    expect((await call('POST', 'moderations/top-up', event.admin, topUpBody(2_000_000))).statusCode).toBe(404);
  });
});
