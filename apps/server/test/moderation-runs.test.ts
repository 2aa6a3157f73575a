import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, moderationAllocations, reviewFlags, subscriptions } from '../src/db/schema/index';
import { createPrng } from '../src/domain/prng';
import { syntheticNote } from '../src/lib/note-corpus';
import { API, databaseKinds, useTestApp } from './build-test-app';
import type { TestUser } from './fixtures';
import type { TestEvent, TestProposal, TestReviewer } from './world-fixtures';

// Issue 14 items 1 and 2: the "Compute flags" run, the outside tool's flags file, and the moderation allocation run
// (spec §2.17, §3, §7 `POST moderations/generate-allocations`; DOMAIN.md "Flags", "Moderation allocation").

describe.each(databaseKinds)('flags and moderation allocation runs on %s', (kind) => {
  const ctx = useTestApp(kind);
  const prng = createPrng(99);
  const note = () => syntheticNote(prng, 400);

  const post = (user: TestUser | undefined, url: string, payload: object) =>
    ctx.app.inject({ method: 'POST', url: `${API}/${url}`, headers: user ? user.auth : {}, payload });
  const allocateParams = (event: TestEvent, overrides: Record<string, unknown> = {}) => ({
    allocation_params: {
      event_id: event.id,
      moderation_seed: 1,
      nr_of_moderations_per_review: 2,
      min_spot_check_per_reviewer: 1,
      dry_run: true,
      ...overrides,
    },
  });

  /**
   * A round in review: two reviewers with three reviews each (distinct notes), one review a near-copy of another
   * reviewer's note in another criterion, one profane; three moderators, the first an author in proposal 0's objective.
   */
  async function round() {
    const author = await ctx.newUser();
    const event = await ctx.newEvent({ config: { review_submission_enabled: true } });
    const proposals = await ctx.importProposals(event, { authorOf: (index) => (index === 0 ? author : undefined) });
    const reviewers: TestReviewer[] = [await ctx.newReviewer(event), await ctx.newReviewer(event)];
    const copied = note();
    const reviews = [];
    for (const [r, reviewer] of reviewers.entries())
      for (let i = 0; i < 3; i += 1) {
        const proposal: TestProposal = proposals[r * 3 + i]!;
        const fields = { impact_alignment_note: note(), feasibility_note: note(), auditability_note: note() };
        if (r === 0 && i === 0) fields.impact_alignment_note = copied;
        if (r === 1 && i === 0) fields.feasibility_note = `${copied} Yes.`;
        if (r === 1 && i === 2) fields.auditability_note = `${note()} This budget is shit.`;
        reviews.push(await ctx.newReview(reviewer, proposal, fields));
      }
    const moderators = [await ctx.newModerator(event, { user: author }), await ctx.newModerator(event), await ctx.newModerator(event)];
    return { event, proposals, reviewers, reviews, moderators };
  }

  it('computes flags: a dry run counts per type and writes nothing; a real run stores them with related reviews and criteria', async () => {
    const { event, reviews } = await round();
    const body = { compute_params: { event_id: event.id } };
    const dry = await post(event.admin, 'flags/compute', body);
    expect(dry.statusCode).toBe(200);
    expect(dry.json()).toEqual({ reviews: 6, flagged: 3, per_type: { profanity: 1, similarity: 2, ai_generated: 0 }, dry_run: true });
    expect(await ctx.db.select().from(reviewFlags).where(eq(reviewFlags.eventId, event.id))).toEqual([]);

    const real = await post(event.admin, 'flags/compute', { compute_params: { event_id: event.id, dry_run: false } });
    expect(real.json()).toMatchObject({ flagged: 3, dry_run: false });
    const stored = await ctx.db.select().from(reviewFlags).where(eq(reviewFlags.eventId, event.id));
    const similarity = stored.filter((flag) => flag.flagType === 1).sort((a, b) => a.reviewId - b.reviewId);
    expect(similarity.map((flag) => [flag.reviewId, flag.relatedReviews, flag.relatedCriteria])).toEqual([
      [reviews[0]!.row_id, [reviews[3]!.row_id], ['feasibility_note']],
      [reviews[3]!.row_id, [reviews[0]!.row_id], ['impact_note']],
    ]);
    expect(similarity[0]!.score).toBeGreaterThanOrEqual(0.8);
    expect(stored.filter((flag) => flag.flagType === 0).map((flag) => flag.reviewId)).toEqual([reviews[5]!.row_id]);
    // It may run again (flags follow the reviews): it replaces, never doubles.
    expect((await post(event.admin, 'flags/compute', { compute_params: { event_id: event.id, dry_run: false } })).statusCode).toBe(200);
    expect(await ctx.db.select().from(reviewFlags).where(eq(reviewFlags.eventId, event.id))).toHaveLength(3);
  });

  it('loads an outside tool’s flags file, replacing that type’s flags, and refuses reviews of another event as a whole', async () => {
    const { event, reviews } = await round();
    const other = await round();
    await post(event.admin, 'flags/compute', { compute_params: { event_id: event.id, dry_run: false } });
    const file = [
      { review_id: reviews[1]!.row_id, flag_type: 1, score: 0.9, related_reviews: [reviews[2]!.row_id], related_criteria: ['impact_note'] },
      { review_id: reviews[2]!.row_id, flag_type: 2, score: 0.75 },
    ];
    const refused = await post(event.admin, 'flags/import', {
      event_id: event.id,
      flags: [...file, { review_id: other.reviews[0]!.row_id, flag_type: 2, score: 1 }],
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().detail[0].msg).toBe(`Not reviews of this event: ${other.reviews[0]!.row_id}`);
    expect(
      (await post(event.admin, 'flags/import', { event_id: event.id, flags: [{ review_id: 1, flag_type: 7, score: 1 }] })).statusCode,
    ).toBe(422);

    const loaded = await post(event.admin, 'flags/import', { event_id: event.id, flags: file });
    expect(loaded.json()).toEqual({ flags: 2, types: [1, 2] });
    const stored = await ctx.db.select().from(reviewFlags).where(eq(reviewFlags.eventId, event.id));
    // similarity now only the file's; profanity (not in the file) kept
    expect(stored.map((flag) => [flag.flagType, flag.reviewId, flag.source]).sort()).toEqual(
      [
        [0, reviews[5]!.row_id, 0],
        [1, reviews[1]!.row_id, 1],
        [2, reviews[2]!.row_id, 1],
      ].sort(),
    );
    const audit = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'flags.import'), eq(auditLog.eventId, event.id)));
    expect(audit).toHaveLength(1);
  });

  it('allocates flagged reviews and spot checks to N moderators, never a conflicted one: dry run first, then exactly once (F-054, F-055, F-056)', async () => {
    const { event, reviews, proposals, moderators } = await round();
    const dry = await post(event.admin, 'moderations/generate-allocations', allocateParams(event));
    expect(dry.statusCode).toBe(200);
    // flags are computed on the way: reviews 0, 3 and 5 are flagged, which already gives each reviewer one review
    const stats = dry.json();
    expect(stats).toMatchObject({
      tot: 6,
      nr_of_moderators: 3,
      per_reviewer: { avg: 1.5, min: 1, max: 2 },
      per_review: { avg: 2, min: 2, max: 2 },
      // the first moderator is conflicted on proposal 0's objective, so the load cannot spread evenly here
      per_moderator: expect.objectContaining({ avg: 2 }),
      selected: { flagged: 3, spot_checks: 0 },
      dry_run: true,
    });
    expect(await ctx.db.select().from(moderationAllocations).where(eq(moderationAllocations.eventId, event.id))).toEqual([]);

    const real = await post(
      event.admin,
      'moderations/generate-allocations',
      allocateParams(event, { dry_run: false, min_spot_check_per_reviewer: 3 }),
    );
    expect(real.statusCode).toBe(200);
    expect(real.json()).toMatchObject({ tot: 12, selected: { flagged: 3, spot_checks: 3 }, dry_run: false });
    const rows = await ctx.db
      .select({ reviewId: moderationAllocations.reviewId, userId: subscriptions.userId })
      .from(moderationAllocations)
      .innerJoin(subscriptions, eq(subscriptions.id, moderationAllocations.subscriptionId))
      .where(eq(moderationAllocations.eventId, event.id));
    expect(rows).toHaveLength(12);
    // the first moderator authored proposal 0: never the review of proposal 0's objective
    const objectiveOf = new Map(reviews.map((review) => [review.row_id, proposals.find((p) => p.id === review.proposal_id)!.objective]));
    for (const row of rows.filter((r) => r.userId === moderators[0]!.id))
      expect(objectiveOf.get(row.reviewId)).not.toBe(proposals[0]!.objective);

    const config = await ctx.app.inject({ method: 'GET', url: `${API}/configs/allocations/${event.id}/`, headers: event.admin.auth });
    expect(config.json().value.moderation_allocation_generated).toBe(true);
    const again = await post(event.admin, 'moderations/generate-allocations', allocateParams(event, { dry_run: false }));
    expect(again.statusCode).toBe(409);
    expect(await ctx.db.select().from(moderationAllocations).where(eq(moderationAllocations.eventId, event.id))).toHaveLength(12);
    const audit = await ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'moderations.allocate'), eq(auditLog.eventId, event.id)));
    expect(audit).toHaveLength(1);
  });

  it('lets exactly one of two concurrent real allocations win (409 for the other)', async () => {
    const { event } = await round();
    const body = allocateParams(event, { dry_run: false });
    const answers = await Promise.all([
      post(event.admin, 'moderations/generate-allocations', body),
      post(event.admin, 'moderations/generate-allocations', body),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
  });

  it('validates the parameters with the form’s rules (F-047, F-048, F-049) and needs an admin', async () => {
    const { event, reviewers } = await round();
    const detail = async (overrides: Record<string, unknown>) => {
      const response = await post(event.admin, 'moderations/generate-allocations', allocateParams(event, overrides));
      expect(response.statusCode).toBe(422);
      return response.json().detail.map((d: { loc: string[] }) => d.loc.at(-1));
    };
    expect(await detail({ moderation_seed: 0 })).toEqual(['moderation_seed']);
    expect(await detail({ nr_of_moderations_per_review: -1 })).toEqual(['nr_of_moderations_per_review']);
    expect(await detail({ min_spot_check_per_reviewer: 1.5 })).toEqual(['min_spot_check_per_reviewer']);
    // A seed left out is the default, as the reference API allows (issue 17); a wrong type is refused.
    expect(await detail({ moderation_seed: 'x' })).toEqual(['moderation_seed']);
    expect((await post(event.admin, 'moderations/generate-allocations', allocateParams(event, { event_id: 2_000_000 }))).statusCode).toBe(
      404,
    );
    expect((await post(reviewers[0], 'moderations/generate-allocations', allocateParams(event))).statusCode).toBe(403);
    expect((await post(undefined, 'moderations/generate-allocations', allocateParams(event))).statusCode).toBe(401);
    expect((await post(reviewers[0], 'flags/compute', { compute_params: { event_id: event.id } })).statusCode).toBe(403);
  });

  // Issue 26 item 11: F-047 and F-048 are "required, an integer, at least N" — each rule refused on its own, with its text.
  it('refuses a seed or a number of moderations per review that is null, not whole or below its minimum (F-047, F-048)', async () => {
    const { event } = await round();
    const cases: [Record<string, unknown>, string][] = [
      [{ moderation_seed: null }, 'Moderation seed is required.'],
      [{ moderation_seed: 1.5 }, 'Moderation seed must be a whole number.'],
      [{ moderation_seed: 0 }, 'Moderation seed must be at least 1.'],
      [{ nr_of_moderations_per_review: null }, 'Nr of moderations per review is required.'],
      [{ nr_of_moderations_per_review: 2.5 }, 'Nr of moderations per review must be a whole number.'],
      [{ nr_of_moderations_per_review: -1 }, 'Nr of moderations per review must be at least 0.'],
    ];
    for (const [overrides, message] of cases) {
      const response = await post(event.admin, 'moderations/generate-allocations', allocateParams(event, overrides));
      expect(response.statusCode, JSON.stringify(overrides)).toBe(422);
      const [field] = Object.keys(overrides);
      expect(response.json().detail, JSON.stringify(overrides)).toEqual([
        expect.objectContaining({ loc: ['body', 'allocation_params', field], msg: message }),
      ]);
    }
    // The smallest values each rule allows pass (a dry run: nothing is written).
    const smallest = await post(
      event.admin,
      'moderations/generate-allocations',
      allocateParams(event, { moderation_seed: 1, nr_of_moderations_per_review: 0 }),
    );
    expect(smallest.statusCode, smallest.body).toBe(200);
  });
});
