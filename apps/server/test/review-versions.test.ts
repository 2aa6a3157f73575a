import { asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ModerationVersionsOfReview, ReviewVersions } from '@cr/contract/history';
import { normalizeCatalystId } from '@cr/contract/rules';
import { reviewPublic } from '@cr/contract/reviews';
import { z } from 'zod';
import { moderationAllocations, moderationVersions, reviewVersions } from '../src/db/schema/index';
import { DEMO_PAST_EVENT, seedDemo } from '../src/demo';
import { API, databaseKinds, json, useTestApp } from './build-test-app';
import type { TestUser } from './fixtures';
import { reviewFields, type TestEvent, type TestReviewer } from './world-fixtures';

type Auth = TestUser | null;
const edited = 'After a second reading the milestones look credible and the budget matches the work it pays for. '.repeat(3);

/** Issue 28 item 3: every create, edit and delete of a review or a moderation is kept as a version. */
describe.each(databaseKinds)('issue 28 item 3: review and moderation versions on %s', (kind) => {
  const ctx = useTestApp(kind);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await ctx.admin();
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user: Auth, payload?: object) =>
    ctx.app.inject({ method, url: `${API}/${url}`, headers: user ? user.auth : {}, ...(payload ? { payload } : {}) });
  const versionsOf = (user: Auth, reviewId: number) => call('GET', `proposal-reviews/${reviewId}/versions/`, user);
  const editReview = (user: Auth, reviewId: number, overrides: Record<string, unknown>) =>
    call('PUT', `proposal-reviews/${reviewId}/`, user, { proposal_review_update: reviewFields(overrides) });
  const rowsOf = (reviewId: number) =>
    ctx.db.select().from(reviewVersions).where(eq(reviewVersions.reviewId, reviewId)).orderBy(asc(reviewVersions.version));
  const moderationRowsOf = (moderationId: number) =>
    ctx.db
      .select()
      .from(moderationVersions)
      .where(eq(moderationVersions.moderationId, moderationId))
      .orderBy(asc(moderationVersions.version));

  interface World {
    event: TestEvent;
    author: TestReviewer;
    other: TestReviewer;
    reviewId: number;
  }
  /** An event open for review with reviews visible, a review by `author`, and another reviewer. */
  const world = async (): Promise<World> => {
    const event = await ctx.newEvent({ config: { review_submission_enabled: true, review_visibility_enabled: true } });
    const author = await ctx.newReviewer(event);
    const other = await ctx.newReviewer(event);
    const review = await ctx.newReview(author, await ctx.newProposal(event));
    return { event, author, other, reviewId: review.row_id };
  };

  it('writes version 1 on create, one more per edit and a last one on delete, each with who, when and the whole content', async () => {
    const w = await world();
    expect(json<{ edit_count: number }>(await call('GET', `proposal-reviews/${w.reviewId}/`, null)).edit_count).toBe(0);
    let rows = await rowsOf(w.reviewId);
    expect(rows.map((row) => [row.version, row.action, row.actorUserId])).toEqual([[1, 'create', w.author.id]]);
    expect(rows[0]!.content).toEqual(reviewFields());

    const response = await editReview(w.author, w.reviewId, { feasibility_note: edited, feasibility_rating_given: 2 });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().edit_count).toBeUndefined(); // the detail answer carries it, not the write's
    rows = await rowsOf(w.reviewId);
    expect(rows.map((row) => [row.version, row.action])).toEqual([
      [1, 'create'],
      [2, 'edit'],
    ]);
    expect(rows[1]!.content).toEqual(reviewFields({ feasibility_note: edited, feasibility_rating_given: 2 }));
    expect(rows[1]!.createdAt.getTime()).toBeGreaterThanOrEqual(rows[0]!.createdAt.getTime());
    expect((await editReview(w.author, w.reviewId, { impact_alignment_rating_given: 1 })).statusCode).toBe(200);
    // "edited N times" on the public detail answer: versions less the create.
    const detail = json<{ edit_count: number; changed_after_moderation?: boolean }>(
      await call('GET', `proposal-reviews/${w.reviewId}/`, null),
    );
    expect(detail.edit_count).toBe(2);
    expect(detail).not.toHaveProperty('changed_after_moderation');

    expect((await call('DELETE', `proposal-reviews/${w.reviewId}/`, w.author)).statusCode).toBe(200);
    rows = await rowsOf(w.reviewId);
    expect(rows.map((row) => [row.version, row.action, row.actorUserId])).toEqual([
      [1, 'create', w.author.id],
      [2, 'edit', w.author.id],
      [3, 'edit', w.author.id],
      [4, 'delete', w.author.id],
    ]);
    // The delete keeps the content as it was.
    expect(rows[3]!.content).toEqual(rows[2]!.content);
  });

  it('refused writes leave no version', async () => {
    const w = await world();
    expect((await editReview(w.other, w.reviewId, { impact_alignment_rating_given: 1 })).statusCode).toBe(403);
    expect((await editReview(w.author, w.reviewId, { impact_alignment_note: 'too short' })).statusCode).toBe(422);
    expect((await call('DELETE', `proposal-reviews/${w.reviewId}/`, w.other)).statusCode).toBe(403);
    expect((await rowsOf(w.reviewId)).map((row) => row.action)).toEqual(['create']);
  });

  describe('reading the versions', () => {
    let w: World;
    let moderator: TestReviewer;
    beforeAll(async () => {
      w = await world();
      moderator = await ctx.newModerator(w.event);
      expect((await editReview(w.author, w.reviewId, { impact_alignment_note: edited })).statusCode).toBe(200);
    });

    it('the author reads them, the actor shown as the review’s anonymous id', async () => {
      const response = await versionsOf(w.author, w.reviewId);
      expect(response.statusCode).toBe(200);
      const body = json<ReviewVersions>(response);
      expect(body).toMatchObject({ review_id: w.reviewId, deleted: false });
      expect(body.versions.map((version) => [version.version, version.action, version.actor, version.by_author])).toEqual([
        [1, 'create', w.author.anonymousId, true],
        [2, 'edit', w.author.anonymousId, true],
      ]);
      expect(body.versions[0]!.content.impact_alignment_note).toBe(reviewFields().impact_alignment_note);
      expect(body.versions[1]!.content.impact_alignment_note).toBe(edited);
      expect(response.body).not.toContain(normalizeCatalystId(w.author.catalystId).id);
    });

    it('an admin reads them with the actor’s Catalyst ID', async () => {
      const body = json<ReviewVersions>(await versionsOf(admin, w.reviewId));
      expect(body.versions.map((version) => version.actor)).toEqual([
        normalizeCatalystId(w.author.catalystId).id,
        normalizeCatalystId(w.author.catalystId).id,
      ]);
    });

    it('answers 404 to whoever may not see the review (as for one that never existed)', async () => {
      const hidden = await ctx.newEvent({ config: { review_submission_enabled: true, review_visibility_enabled: false } });
      const author = await ctx.newReviewer(hidden);
      const stranger = await ctx.newReviewer(hidden);
      const reviewId = (await ctx.newReview(author, await ctx.newProposal(hidden))).row_id;
      expect((await versionsOf(author, reviewId)).statusCode).toBe(200);
      const refused = await versionsOf(stranger, reviewId);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual((await versionsOf(stranger, 2_000_000_000)).json());
    });

    it('answers 403 to other reviewers and moderators, 401 anonymous, 404 for a review that never existed, 422 for a bad id', async () => {
      expect((await versionsOf(w.other, w.reviewId)).statusCode).toBe(403);
      expect((await versionsOf(moderator, w.reviewId)).statusCode).toBe(403);
      expect((await versionsOf(null, w.reviewId)).statusCode).toBe(401);
      expect((await versionsOf(admin, 2_000_000_000)).statusCode).toBe(404);
      expect((await call('GET', 'proposal-reviews/abc/versions/', admin)).statusCode).toBe(422);
    });

    it('a deleted review’s versions stay readable by admins only', async () => {
      const x = await world();
      expect((await call('DELETE', `proposal-reviews/${x.reviewId}/`, x.author)).statusCode).toBe(200);
      const response = await versionsOf(admin, x.reviewId);
      expect(response.statusCode).toBe(200);
      const body = json<ReviewVersions>(response);
      expect(body.deleted).toBe(true);
      expect(body.versions.map((version) => version.action)).toEqual(['create', 'delete']);
      expect(body.versions[1]!.content).toEqual(reviewFields());
      // Its author learns nothing more of it than of a review that never existed.
      expect((await versionsOf(x.author, x.reviewId)).statusCode).toBe(404);
      expect((await call('GET', `proposal-reviews/${x.reviewId}/`, admin)).statusCode).toBe(404);
    });
  });

  describe('moderations', () => {
    const moderation = (reviewId: number, overrides: Record<string, unknown> = {}) => ({
      review_id: reviewId,
      classification: 1,
      rationale: 'The review is the reviewer’s own and fits the proposal.',
      predefined_reason: 'valid',
      custom_rationale: null,
      ...overrides,
    });
    /** Review and moderation submission both open, the review allocated to a moderator. */
    const moderationWorld = async () => {
      const w = await world();
      const moderator = await ctx.newModerator(w.event);
      await ctx.db
        .insert(moderationAllocations)
        .values({ eventId: w.event.id, reviewId: w.reviewId, subscriptionId: moderator.subscription.row_id });
      await ctx.configure(w.event, { moderation_submission_enabled: true });
      return { ...w, moderator };
    };

    it('writes version 1 on create, one more per edit and a last one on delete', async () => {
      const w = await moderationWorld();
      const created = await call('POST', 'moderations/', w.moderator, { new_moderation: moderation(w.reviewId) });
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json().row_id as number;
      const excluded = { classification: 0, predefined_reason: 'profanity', rationale: 'The notes use abusive words.' };
      expect((await call('PUT', `moderations/${id}/`, w.moderator, { record_update: moderation(w.reviewId, excluded) })).statusCode).toBe(
        200,
      );
      expect((await call('DELETE', `moderations/${id}/`, w.moderator)).statusCode).toBe(200);
      const rows = await moderationRowsOf(id);
      expect(rows.map((row) => [row.version, row.action, row.actorUserId, row.reviewId])).toEqual([
        [1, 'create', w.moderator.id, w.reviewId],
        [2, 'edit', w.moderator.id, w.reviewId],
        [3, 'delete', w.moderator.id, w.reviewId],
      ]);
      expect(rows[0]!.content).toEqual({
        classification: 1,
        rationale: 'The review is the reviewer’s own and fits the proposal.',
        predefined_reason: 'valid',
        custom_rationale: null,
      });
      expect(rows[1]!.content).toMatchObject({ classification: 0, predefined_reason: 'profanity' });
      expect(rows[2]!.content).toEqual(rows[1]!.content);
    });

    it('the versions of a review’s moderations: admins read all (a deleted one too), a moderator their own, others none', async () => {
      const w = await moderationWorld();
      const second = await ctx.newModerator(w.event);
      await ctx.db
        .insert(moderationAllocations)
        .values({ eventId: w.event.id, reviewId: w.reviewId, subscriptionId: second.subscription.row_id });
      const id = (await call('POST', 'moderations/', w.moderator, { new_moderation: moderation(w.reviewId) })).json().row_id as number;
      const excluded = { classification: 0, predefined_reason: 'profanity', rationale: 'The notes use abusive words.' };
      expect((await call('PUT', `moderations/${id}/`, w.moderator, { record_update: moderation(w.reviewId, excluded) })).statusCode).toBe(
        200,
      );
      const gone = (await call('POST', 'moderations/', second, { new_moderation: moderation(w.reviewId) })).json().row_id as number;
      expect((await call('DELETE', `moderations/${gone}/`, second)).statusCode).toBe(200);
      const read = (user: Auth, reviewId = w.reviewId) => call('GET', `moderations/by-review/${reviewId}/versions/`, user);

      const all = json<ModerationVersionsOfReview>(await read(admin));
      expect(all.moderations.map((item) => [item.moderation_id, item.deleted, item.versions.map((v) => v.action)])).toEqual([
        [id, false, ['create', 'edit']],
        [gone, true, ['create', 'delete']],
      ]);
      expect(all.moderations[0]!.moderator).toBe(w.moderator.anonymousId);
      expect(all.moderations[0]!.versions[0]!.actor).toBe(normalizeCatalystId(w.moderator.catalystId).id);
      expect(all.moderations[0]!.versions[1]!.content).toEqual({ ...excluded, custom_rationale: null, classification: 0 });

      const own = json<ModerationVersionsOfReview>(await read(w.moderator));
      expect(own.moderations.map((item) => item.moderation_id)).toEqual([id]);
      expect(own.moderations[0]!.versions[0]!.actor).toBe(w.moderator.anonymousId);
      expect((await read(w.moderator)).body).not.toContain(normalizeCatalystId(w.moderator.catalystId).id);
      // The second moderator's moderation is gone: nothing for them; the review's author and others see none.
      expect(json<ModerationVersionsOfReview>(await read(second)).moderations).toEqual([]);
      expect(json<ModerationVersionsOfReview>(await read(w.author)).moderations).toEqual([]);
      expect((await read(null)).statusCode).toBe(401);
      expect((await read(admin, 2_000_000_000)).statusCode).toBe(404);
      // A deleted review's moderation versions stay readable by admins.
      expect((await call('DELETE', `proposal-reviews/${w.reviewId}/`, w.author)).statusCode).toBe(200);
      expect(json<ModerationVersionsOfReview>(await read(admin)).moderations.map((item) => item.deleted)).toEqual([true, true]);
      expect((await read(w.moderator)).statusCode).toBe(404);
    });

    it('a review’s delete keeps a delete version of each moderation it takes with it', async () => {
      const w = await moderationWorld();
      const id = (await call('POST', 'moderations/', w.moderator, { new_moderation: moderation(w.reviewId) })).json().row_id as number;
      expect((await call('DELETE', `proposal-reviews/${w.reviewId}/`, w.author)).statusCode).toBe(200);
      expect((await moderationRowsOf(id)).map((row) => [row.version, row.action, row.actorUserId])).toEqual([
        [1, 'create', w.moderator.id],
        [2, 'delete', w.author.id],
      ]);
    });

    it('the moderator learns when the review changed after they moderated it; no one else is told', async () => {
      const w = await moderationWorld();
      expect((await call('POST', 'moderations/', w.moderator, { new_moderation: moderation(w.reviewId) })).statusCode).toBe(201);
      // The detail's JSON is written by PostgreSQL (issue 45 item 13): exactly what the contract's schema and
      // JSON.stringify would write, for each viewer.
      const detailSchema = reviewPublic.extend({ edit_count: z.number().int(), changed_after_moderation: z.boolean().optional() }).strict();
      const seen = async (user: Auth) => {
        const response = await call('GET', `proposal-reviews/${w.reviewId}/`, user);
        expect(response.body).toBe(JSON.stringify(detailSchema.parse(response.json())));
        return json<{ changed_after_moderation?: boolean }>(response);
      };
      expect((await seen(w.moderator)).changed_after_moderation).toBe(false);
      expect((await editReview(w.author, w.reviewId, { auditability_note: edited })).statusCode).toBe(200);
      expect(await seen(w.moderator)).toMatchObject({ changed_after_moderation: true, edit_count: 1 });
      expect(await seen(w.author)).not.toHaveProperty('changed_after_moderation');
      expect(await seen(null)).not.toHaveProperty('changed_after_moderation');
      // Moderating again (an edit of the moderation) catches up with the review.
      const own = (await call('GET', `moderations/by-review/${w.reviewId}/`, w.moderator)).json()[0].row_id as number;
      expect((await call('PUT', `moderations/${own}/`, w.moderator, { record_update: moderation(w.reviewId) })).statusCode).toBe(200);
      expect((await seen(w.moderator)).changed_after_moderation).toBe(false);
    });
  });

  it('the demo’s past round has one edited review: two versions whose notes differ, "edited 1 time" for a visitor', async () => {
    await seedDemo(ctx.db);
    const events = json<{ data: { row_id: number; name: string }[] }>(await call('GET', 'events/?size=100', null));
    const event = events.data.find((item) => item.name === DEMO_PAST_EVENT.name)!;
    const rows = await ctx.db.select().from(reviewVersions).where(eq(reviewVersions.eventId, event.row_id));
    const editedIds = [...new Set(rows.filter((row) => row.action === 'edit').map((row) => row.reviewId))];
    expect(editedIds).toHaveLength(1);
    const reviewId = editedIds[0]!;
    expect(json<{ edit_count: number }>(await call('GET', `proposal-reviews/${reviewId}/`, null)).edit_count).toBe(1);
    const body = json<ReviewVersions>(await versionsOf(admin, reviewId));
    expect(body.versions.map((version) => version.action)).toEqual(['create', 'edit']);
    expect(body.versions[0]!.content.impact_alignment_note).not.toBe(body.versions[1]!.content.impact_alignment_note);
    // Every review and moderation of the demo has its version 1.
    const result = await ctx.db.execute(
      sql`select (select count(*)::int from reviews r where not exists (select 1 from review_versions v where v.review_id = r.id)) as reviews,
        (select count(*)::int from moderations m where not exists (select 1 from moderation_versions v where v.moderation_id = m.id)) as moderations`,
    );
    const counts = ((result as { rows?: unknown[] }).rows ?? (result as unknown as unknown[]))[0];
    expect(counts).toEqual({ reviews: 0, moderations: 0 });
  });
});
