import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SubscriptionStatus } from '@cr/contract/subscriptions';
import { AccountStatus } from '@cr/contract/users';
import * as records from '../src/db/config-records';
import { moderationAllocations, reviewFlags, subscriptions } from '../src/db/schema/index';
import { API, databaseKinds, useTestApp } from './build-test-app';
import type { TestUser } from './fixtures';
import { LV2_FORM, type TestEvent, type TestReviewer } from './world-fixtures';

type Auth = TestUser | null;
type Detail = { detail: { loc: (string | number)[]; msg: string }[] };

describe.each(databaseKinds)('moderations on %s', (kind) => {
  const ctx = useTestApp(kind);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await ctx.admin();
  });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user: Auth, payload?: object) =>
    ctx.app.inject({ method, url: `${API}/${url}`, headers: user ? user.auth : {}, ...(payload ? { payload } : {}) });
  const fields = (reviewId: number, overrides: Record<string, unknown> = {}) => ({
    review_id: reviewId,
    classification: 1,
    rationale: 'The review is the reviewer’s own and fits the proposal.',
    predefined_reason: 'valid',
    custom_rationale: null,
    ...overrides,
  });
  const create = (user: Auth, reviewId: number, overrides: Record<string, unknown> = {}) =>
    call('POST', 'moderations/', user, { new_moderation: fields(reviewId, overrides) });
  const update = (user: Auth, id: number, reviewId: number, overrides: Record<string, unknown> = {}) =>
    call('PUT', `moderations/${id}/`, user, { record_update: fields(reviewId, overrides) });
  const remove = (user: Auth, id: number) => call('DELETE', `moderations/${id}/`, user);

  /** Writes a moderation allocation row (the allocation run is its own module; no route allocates one pair). */
  const allocate = async (moderator: TestReviewer, reviewId: number) => {
    await ctx.db
      .insert(moderationAllocations)
      .values({ eventId: moderator.event.id, reviewId, subscriptionId: moderator.subscription.row_id });
  };

  /** The event's outcomes run flag, as the review-outcomes run will set it. */
  const markOutcomes = (event: TestEvent) => records.upsertConfig(ctx.db, 'allocations', event.id, { review_outcomes_generated: true });

  interface World {
    event: TestEvent;
    reviewer: TestReviewer;
    /** Reviews of the event by `reviewer`, in id order. */
    reviewIds: number[];
    moderator: TestReviewer;
    /** An active moderator of another event. */
    otherModerator: TestReviewer;
  }

  /** An event in its moderation stage: `count` reviews, a moderator with the first ones allocated, review submission off. */
  const moderationWorld = async (options: { count?: number; allocated?: number } = {}): Promise<World> => {
    const event = await ctx.newEvent({ config: { review_submission_enabled: true } });
    const reviewer = await ctx.newReviewer(event);
    const reviewIds: number[] = [];
    for (let index = 0; index < (options.count ?? 2); index += 1) {
      reviewIds.push((await ctx.newReview(reviewer, await ctx.newProposal(event))).row_id);
    }
    const moderator = await ctx.newModerator(event);
    for (const reviewId of reviewIds.slice(0, options.allocated ?? 1)) await allocate(moderator, reviewId);
    const otherEvent = await ctx.newEvent({ config: { moderation_submission_enabled: true } });
    const otherModerator = await ctx.newModerator(otherEvent);
    await ctx.configure(event, { review_submission_enabled: false, moderation_submission_enabled: true });
    return { event, reviewer, reviewIds, moderator, otherModerator };
  };

  describe('writing a moderation', () => {
    let w: World;
    beforeAll(async () => {
      w = await moderationWorld({ count: 3, allocated: 2 });
    });

    it('a moderator moderates a review allocated to them; the answer holds the §3 fields (F-030, F-037, F-014)', async () => {
      const response = await create(w.moderator, w.reviewIds[0]!);
      expect(response.statusCode, response.body).toBe(201);
      const moderation = response.json();
      expect(moderation).toEqual({
        row_id: expect.any(Number),
        review_id: w.reviewIds[0],
        classification: 1,
        rationale: 'The review is the reviewer’s own and fits the proposal.',
        predefined_reason: 'valid',
        custom_rationale: null,
        public_contact: LV2_FORM.public_contact,
      });
      const again = await create(w.moderator, w.reviewIds[0]!, { classification: 0, predefined_reason: 'profanity' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ message: 'You have already moderated this review.' });
      await remove(w.moderator, moderation.row_id);
    });

    it('refuses anonymous callers (401) and everyone but an active LV2 moderator of the review’s event (403, F-001)', async () => {
      const reviewId = w.reviewIds[0]!;
      expect((await create(null, reviewId)).statusCode).toBe(401);
      for (const user of [w.reviewer, w.otherModerator, admin]) {
        const response = await create(user, reviewId);
        expect(response.statusCode).toBe(403);
        expect(response.json().message).toBe('You are not an active moderator of this event.');
      }
      // DOMAIN.md decision 5: only status 1 (active) moderates; subscribed, excluded, invited and refused do not.
      const row = eq(subscriptions.id, w.moderator.subscription.row_id);
      try {
        for (const status of [
          SubscriptionStatus.subscribed,
          SubscriptionStatus.excluded,
          SubscriptionStatus.invited,
          SubscriptionStatus.refused,
        ]) {
          await ctx.db.update(subscriptions).set({ status }).where(row);
          expect((await create(w.moderator, reviewId)).statusCode, `status ${status}`).toBe(403);
        }
      } finally {
        await ctx.db.update(subscriptions).set({ status: SubscriptionStatus.active }).where(row);
      }
    });

    it('refuses a moderator whose account is not active (403)', async () => {
      await ctx.setStatus(w.moderator.id, AccountStatus.inactive);
      try {
        const response = await create(w.moderator, w.reviewIds[0]!);
        expect(response.statusCode).toBe(403);
        expect(response.json().message).toBe('Your account must be active and registered on chain before you can moderate.');
      } finally {
        await ctx.setStatus(w.moderator.id, AccountStatus.active);
      }
    });

    it('moderates only reviews allocated to the moderator, and only while moderation submission is on (F-003)', async () => {
      const notAllocated = await create(w.moderator, w.reviewIds[2]!);
      expect(notAllocated.statusCode).toBe(403);
      expect(notAllocated.json().message).toBe('This review is not allocated to you for moderation.');
      expect((await create(w.moderator, 2_000_000)).statusCode).toBe(404);

      const created = (await create(w.moderator, w.reviewIds[1]!)).json();
      await ctx.configure(w.event, { moderation_submission_enabled: false });
      try {
        for (const response of [
          await create(w.moderator, w.reviewIds[0]!),
          await update(w.moderator, created.row_id, w.reviewIds[1]!),
          await remove(w.moderator, created.row_id),
        ]) {
          expect(response.statusCode).toBe(403);
          expect(response.json().message).toBe('Moderation submission is not open for this event.');
        }
      } finally {
        await ctx.configure(w.event, { moderation_submission_enabled: true });
      }
      expect((await remove(w.moderator, created.row_id)).statusCode).toBe(200);
    });

    it('edits and deletes only by the author; delete answers the same row_id (F-031, F-032)', async () => {
      const reviewId = w.reviewIds[1]!;
      const created = (await create(w.moderator, reviewId)).json();
      const edited = await update(w.moderator, created.row_id, reviewId, {
        classification: 0,
        predefined_reason: 'other',
        custom_rationale: 'Copied from another review.',
        rationale: 'Copied from another review.',
      });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json()).toMatchObject({
        row_id: created.row_id,
        classification: 0,
        predefined_reason: 'other',
        custom_rationale: 'Copied from another review.',
      });
      // Someone who cannot see it learns nothing (404); an admin sees it but did not write it (403).
      for (const user of [null, w.reviewer, w.otherModerator]) {
        const expected = user === null ? 401 : 404;
        expect((await update(user, created.row_id, reviewId)).statusCode).toBe(expected);
        expect((await remove(user, created.row_id)).statusCode).toBe(expected);
      }
      expect((await update(admin, created.row_id, reviewId)).statusCode).toBe(403);
      expect((await remove(admin, created.row_id)).statusCode).toBe(403);
      const moved = await update(w.moderator, created.row_id, w.reviewIds[0]!);
      expect(moved.statusCode).toBe(422);
      const deleted = await remove(w.moderator, created.row_id);
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toEqual({ row_id: created.row_id });
      expect((await call('GET', `moderations/${created.row_id}/`, w.moderator)).statusCode).toBe(404);
      expect((await remove(w.moderator, created.row_id)).statusCode).toBe(404);
    });

    it('refuses a moderator who authored a proposal in the review’s objective (403)', async () => {
      const event = await ctx.newEvent({ config: { review_submission_enabled: true } });
      const reviewer = await ctx.newReviewer(event);
      const review = await ctx.newReview(reviewer, await ctx.newProposal(event, { category: 'Cardano Open: Ecosystem' }));
      const moderator = await ctx.newModerator(event);
      await ctx.newProposal(event, { author: moderator, category: 'Cardano Open: Ecosystem' });
      await allocate(moderator, review.row_id);
      await ctx.configure(event, { review_submission_enabled: false, moderation_submission_enabled: true });
      const response = await create(moderator, review.row_id);
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe('You cannot moderate reviews in an objective where you are an author.');
    });

    it('of concurrent double submits exactly one wins; the others get 409', async () => {
      const reviewId = w.reviewIds[0]!;
      const responses = await Promise.all([1, 2, 3, 4].map(() => create(w.moderator, reviewId)));
      const statuses = responses.map((response) => response.statusCode).sort();
      expect(statuses).toEqual([201, 409, 409, 409]);
      await remove(w.moderator, responses.find((response) => response.statusCode === 201)!.json().row_id);
    });

    // Issue 26 item 11: each message is the spec's literal text (§5 "Moderation"), not the contract's constant that the
    // server itself renders, so a changed text fails here (F-022, F-023, F-025, F-026, F-027, F-028).
    it('answers each validation message of spec §5 word for word (F-014, F-022, F-023, F-025, F-026, F-027, F-028, F-029)', async () => {
      const reviewId = w.reviewIds[0]!;
      const cases: [Record<string, unknown>, string, string][] = [
        [{ classification: undefined }, 'classification', 'classification required'],
        [{ classification: 2 }, 'classification', 'classification required'],
        [{ rationale: undefined }, 'rationale', 'A rationale is required'], // F-026
        [{ rationale: '   ' }, 'rationale', 'A rationale is required'], // F-026
        [{ rationale: 'x'.repeat(3001) }, 'rationale', 'Maximum length for rationale reached'], // F-028
        [{ predefined_reason: 'profanity' }, 'predefined_reason', 'A reason from the list is required'], // an exclusion reason for an inclusion
        [{ predefined_reason: 'no such reason' }, 'predefined_reason', 'A reason from the list is required'],
        [{ predefined_reason: 'other', custom_rationale: ' ' }, 'custom_rationale', 'A custom rationale is required'], // F-027
        [{ predefined_reason: 'other', custom_rationale: 'x'.repeat(500) }, 'custom_rationale', 'max length'], // F-025
      ];
      for (const [overrides, field, message] of cases) {
        const response = await create(w.moderator, reviewId, overrides);
        expect(response.statusCode, JSON.stringify(overrides)).toBe(422);
        expect((response.json() as Detail).detail).toContainEqual(
          expect.objectContaining({ loc: ['body', 'new_moderation', field], msg: message }),
        );
      }
      // F-029: spaces are not counted: 3000 characters and a thousand spaces pass; so do 499 custom characters.
      const longest = await create(w.moderator, reviewId, {
        rationale: `${'x'.repeat(3000)}${' '.repeat(1000)}`,
        predefined_reason: 'other',
        custom_rationale: 'y'.repeat(499),
      });
      expect(longest.statusCode, longest.body).toBe(201);
      const edit = await call('PUT', `moderations/${longest.json().row_id}/`, w.moderator, {
        record_update: fields(reviewId, { rationale: '' }),
      });
      expect(edit.statusCode).toBe(422);
      expect((edit.json() as Detail).detail[0]).toMatchObject({
        loc: ['body', 'record_update', 'rationale'],
        msg: 'A rationale is required', // F-026
      });
      await remove(w.moderator, longest.json().row_id);
    });
  });
  describe('who sees a moderation (DOMAIN.md "Moderation")', () => {
    let w: World;
    let moderationId: number;
    beforeAll(async () => {
      w = await moderationWorld({ count: 1, allocated: 1 });
      moderationId = (await create(w.moderator, w.reviewIds[0]!)).json().row_id;
    });
    const byReview = (user: Auth) => call('GET', `moderations/by-review/${w.reviewIds[0]}/`, user);
    const one = (user: Auth) => call('GET', `moderations/${moderationId}/`, user);

    it('while moderation is on: the author and admins see it, everyone else gets 404 or an empty list (F-035)', async () => {
      for (const user of [w.moderator, admin]) {
        expect((await one(user)).statusCode).toBe(200);
        const listed = await byReview(user);
        expect(listed.statusCode).toBe(200);
        expect(listed.json()).toEqual([expect.objectContaining({ row_id: moderationId, public_contact: LV2_FORM.public_contact })]);
      }
      for (const user of [null, w.reviewer, w.otherModerator]) {
        expect((await one(user)).statusCode).toBe(404);
        const listed = await byReview(user);
        expect(listed.statusCode).toBe(200); // the review itself is visible while moderation is on
        expect(listed.json()).toEqual([]);
      }
      expect((await call('GET', 'moderations/by-review/2000000/', admin)).statusCode).toBe(404);
    });

    it('after moderation closes, still hidden until outcomes exist; then public with the moderator’s public contact', async () => {
      await ctx.configure(w.event, { moderation_submission_enabled: false, review_visibility_enabled: true });
      expect((await one(null)).statusCode).toBe(404);
      expect((await byReview(w.reviewer)).json()).toEqual([]);
      await markOutcomes(w.event);
      for (const user of [null, w.reviewer, w.otherModerator]) {
        expect((await one(user)).statusCode).toBe(200);
        expect((await byReview(user)).json()).toEqual([
          expect.objectContaining({ row_id: moderationId, classification: 1, public_contact: LV2_FORM.public_contact }),
        ]);
      }
      const review = await call('GET', `proposal-reviews/${w.reviewIds[0]}/`, null);
      expect(review.json()).toMatchObject({ moderated: true, moderation: null, allocated_for_moderation: false });
      // The lists, whose answers PostgreSQL writes, say the same now that the event's moderations are public.
      const moderatedIn = async (path: string) =>
        ((await call('GET', path, null)).json() as { row_id: number; moderated: boolean }[]).find((row) => row.row_id === w.reviewIds[0]);
      expect(await moderatedIn(`proposal-reviews/by-ids/?ids=${w.reviewIds[0]}`)).toMatchObject({ moderated: true, moderation: null });
      const filtered = (await call('GET', `proposal-reviews/filtered?event_id=${w.event.id}&size=100`, null)).json();
      expect(filtered.data.find((row: { row_id: number }) => row.row_id === w.reviewIds[0])).toMatchObject({ moderated: true });
    });
  });

  describe('the moderator’s lists and the review answer’s moderation fields', () => {
    let w: World;
    beforeAll(async () => {
      w = await moderationWorld({ count: 4, allocated: 3 });
    });
    const list = (path: string, user: Auth) => call('GET', `proposal-reviews/${path}`, user);

    it('lists the reviews allocated to the moderator and those they moderated, with totals and paging (F-002, F-006, F-007, F-008, F-009, F-010)', async () => {
      const [first, second, third] = w.reviewIds;
      const allocated = await list('allocated/', w.moderator);
      expect(allocated.statusCode).toBe(200);
      expect(allocated.json().page).toEqual({ total: 3, size: 25, page: 0 });
      expect(allocated.json().data.map((review: { row_id: number }) => review.row_id)).toEqual([first, second, third]);
      expect(allocated.json().data.every((review: { allocated_for_moderation: boolean }) => review.allocated_for_moderation)).toBe(true);
      // F-004: what the list's columns need: id, proposal title and objective, assessor and level, ranking, ratings, flags.
      expect(allocated.json().data[0]).toMatchObject({
        row_id: first,
        proposal: { title: expect.any(String), objective_title: expect.anything() },
        assessor: w.reviewer.anonymousId,
        assessor_level: 0,
        ranking: 0,
        impact_alignment_rating_given: 4,
        feasibility_rating_given: 3,
        auditability_rating_given: 5,
        flags: [],
      });
      const total = await list('allocated/?size=1&page=0', w.moderator);
      expect(total.json().data).toHaveLength(1);
      expect(total.json().page.total).toBe(3);
      expect((await list('allocated/?size=2&page=1', w.moderator)).json().data.map((r: { row_id: number }) => r.row_id)).toEqual([third]);
      expect((await list('moderated/', w.moderator)).json()).toEqual({ data: [], page: { total: 0, size: 25, page: 0 } });

      const moderation = (await create(w.moderator, second!)).json();
      const moderated = (await list('moderated/', w.moderator)).json();
      expect(moderated.page.total).toBe(1);
      expect(moderated.data[0]).toMatchObject({
        row_id: second,
        moderated: true,
        moderation: { row_id: moderation.row_id, classification: 1 },
      });
      expect((await list('allocated/count/', w.moderator)).json()).toBe(3);
      expect((await list('moderated/count/', w.moderator)).json()).toBe(1);
      await remove(w.moderator, moderation.row_id);
    });

    it('others’ lists are empty; anonymous callers get 401', async () => {
      for (const user of [w.reviewer, w.otherModerator, admin]) {
        expect((await list('allocated/', user)).json()).toEqual({ data: [], page: { total: 0, size: 25, page: 0 } });
        expect((await list('moderated/', user)).json().page.total).toBe(0);
        expect((await list('allocated/count/', user)).json()).toBe(0);
      }
      for (const path of ['allocated/', 'moderated/', 'allocated/count/', 'moderated/count/'])
        expect((await list(path, null)).statusCode).toBe(401);
      expect((await list('allocated/?size=101', w.moderator)).statusCode).toBe(422);
    });

    it('a review answer tells its moderator: allocated_for_moderation, own moderation, moderated, next unmoderated allocation (F-012)', async () => {
      const [first, second, third, fourth] = w.reviewIds as [number, number, number, number];
      const get = async (id: number, user: Auth) => (await call('GET', `proposal-reviews/${id}/`, user)).json();
      expect(await get(first, w.moderator)).toMatchObject({
        allocated_for_moderation: true,
        moderated: false,
        moderation: null,
        next_allocation: second,
      });
      expect((await get(third, w.moderator)).next_allocation).toBe(first); // wraps round
      expect(await get(fourth, w.moderator)).toMatchObject({ allocated_for_moderation: false, next_allocation: null });

      const moderation = (
        await create(w.moderator, second, { classification: 0, predefined_reason: 'similarity', rationale: 'Copied.' })
      ).json();
      expect((await get(first, w.moderator)).next_allocation).toBe(third); // the moderated one is skipped
      expect(await get(second, w.moderator)).toMatchObject({
        moderated: true,
        moderation: { row_id: moderation.row_id, classification: 0, rationale: 'Copied.' },
        next_allocation: third,
      });
      // No one else learns about it while moderation runs; an admin sees that it is moderated.
      for (const user of [null, w.reviewer, w.otherModerator])
        expect(await get(second, user)).toMatchObject({
          allocated_for_moderation: false,
          moderated: false,
          moderation: null,
          next_allocation: null,
        });
      expect(await get(second, admin)).toMatchObject({ moderated: true, moderation: null });
      // The lists carry the same fields, batched.
      const filtered = (await call('GET', `proposal-reviews/?event_id=${w.event.id}`, w.moderator)).json();
      const byId = new Map(filtered.data.map((review: { row_id: number }) => [review.row_id, review]));
      expect(byId.get(second)).toMatchObject({ moderated: true, moderation: { row_id: moderation.row_id } });
      expect(byId.get(first)).toMatchObject({ allocated_for_moderation: true, next_allocation: third });
      expect(byId.get(third)).toMatchObject({ allocated_for_moderation: true, next_allocation: first }); // wraps round, batched
      expect(byId.get(fourth)).toMatchObject({ allocated_for_moderation: false });
      await remove(w.moderator, moderation.row_id);
    });

    it('a moderator still opens the reviews allocated to them once moderation closed and reviews are hidden', async () => {
      await ctx.configure(w.event, { moderation_submission_enabled: false, review_visibility_enabled: false });
      try {
        expect((await call('GET', `proposal-reviews/${w.reviewIds[0]}/`, w.moderator)).statusCode).toBe(200);
        expect((await call('GET', `proposal-reviews/${w.reviewIds[3]}/`, w.moderator)).statusCode).toBe(404); // not theirs
        expect((await call('GET', `proposal-reviews/${w.reviewIds[0]}/`, w.otherModerator)).statusCode).toBe(404);
        expect((await call('GET', `moderations/by-review/${w.reviewIds[0]}/`, w.otherModerator)).statusCode).toBe(404);
        expect((await list('allocated/', w.moderator)).json().page.total).toBe(3);
      } finally {
        await ctx.configure(w.event, { moderation_submission_enabled: true });
      }
    });

    it('a review answer carries its flags from review_flags for everyone (F-039, F-040)', async () => {
      const [first, second] = w.reviewIds as [number, number];
      await ctx.db.insert(reviewFlags).values([
        { eventId: w.event.id, reviewId: first, flagType: 1, score: 0.91, relatedReviews: [second], relatedCriteria: ['feasibility_note'] },
        { eventId: w.event.id, reviewId: first, flagType: 0, score: 1, relatedReviews: [], relatedCriteria: null },
      ]);
      for (const user of [null, w.reviewer, w.moderator]) {
        const review = (await call('GET', `proposal-reviews/${first}/`, user)).json();
        expect(review.flags).toEqual([
          { flag_type: 0, score: 1, related_reviews: [], related_criteria: null },
          { flag_type: 1, score: 0.91, related_reviews: [second], related_criteria: ['feasibility_note'] },
        ]);
      }
      const byIds = (await call('GET', `proposal-reviews/by-ids/?ids=${first}&ids=${second}`, null)).json();
      expect(byIds.map((review: { flags: unknown[] }) => review.flags.length)).toEqual([2, 0]);
    });
  });
});
