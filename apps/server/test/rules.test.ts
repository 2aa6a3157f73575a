import { and, asc, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ReviewerLevel, SubscriptionStatus } from '@cr/contract/subscriptions';
import { UserRole } from '@cr/contract/users';
import { activeReviewerSubscription, authoredInObjective, authoredObjectives, reviewVisibleTo } from '../src/db/rules';
import { reviews, subscriptions } from '../src/db/schema/index';
import { conflictsByAuthor, isAdmin, NO_OBJECTIVE, reviewVisibility, type ReviewVisibility } from '../src/domain/rules';
import { ensureCategories } from '../src/modules/events/events.repository';
import { insertProposals, replaceAuthors } from '../src/modules/proposals/proposals.repository';
import { insertReview } from '../src/modules/reviews/reviews.repository';
import { insertSubscription } from '../src/modules/subscriptions/subscriptions.repository';
import { newAnonymousId } from '../src/modules/subscriptions/anonymous-id';
import { databaseKinds, useTestApp } from './build-test-app';
import { eventFixtures } from './event-fixtures';

describe('shared rules, pure (domain/rules.ts)', () => {
  it('isAdmin: only role 100 (UserRole.admin); a user and anonymous are not', () => {
    expect(isAdmin({ role: UserRole.admin })).toBe(true);
    expect(isAdmin({ role: UserRole.user })).toBe(false);
    expect(isAdmin(null)).toBe(false);
    expect(isAdmin(undefined)).toBe(false);
  });

  it('conflictsByAuthor: each author key with its objectives once, an uncategorised proposal as NO_OBJECTIVE', () => {
    const conflicts = conflictsByAuthor([
      { catalystKey: 'a', objectiveId: 3 },
      { catalystKey: 'a', objectiveId: 3 },
      { catalystKey: 'a', objectiveId: null },
      { catalystKey: 'b', objectiveId: 4 },
    ]);
    expect(conflicts).toEqual(
      new Map([
        ['a', [3, NO_OBJECTIVE]],
        ['b', [4]],
      ]),
    );
  });

  it('reviewVisibility: an admin sees all; others the open events and their own; anonymous no own', () => {
    const own = [{ id: 2, eventId: 5 }];
    expect(reviewVisibility({ role: UserRole.admin }, [1], own)).toEqual({ all: true, eventIds: [], ownSubscriptionIds: [] });
    expect(reviewVisibility({ role: UserRole.user }, [1], own)).toEqual({ all: false, eventIds: [1], ownSubscriptionIds: [2] });
    expect(reviewVisibility(null, [1], own)).toEqual({ all: false, eventIds: [1], ownSubscriptionIds: [] });
  });

  it('reviewVisibility: own subscriptions to open events add nothing, so viewers of the same events share one filter', () => {
    const own = [
      { id: 2, eventId: 1 },
      { id: 3, eventId: 5 },
    ];
    expect(reviewVisibility({ role: UserRole.user }, [1], own)).toEqual({ all: false, eventIds: [1], ownSubscriptionIds: [3] });
    expect(reviewVisibility({ role: UserRole.user }, [1, 5], own)).toEqual(reviewVisibility({ role: UserRole.user }, [1, 5], []));
  });
});

describe.each(databaseKinds)('shared rules, SQL (db/rules.ts) on %s', (kind) => {
  const ctx = useTestApp(kind);
  const f = eventFixtures(ctx);

  const subscribe = async (userId: number, eventId: number, role: number, status: number) =>
    (await insertSubscription(ctx.db, { userId, eventId, role, status, anonymousId: newAnonymousId(), preferredCategories: [] })).id;

  /** An event with categories A and B and proposals: p1 (A, by `author`), p2 (A), p3 (B), p4 (none, by `author`), p5 (none). */
  const world = async () => {
    const admin = await ctx.newAdmin();
    const event = await f.newEvent(admin);
    const [a, b] = await ensureCategories(ctx.db, event.row_id, [{ title: 'A' }, { title: 'B' }]);
    const proposal = (n: number, categoryId: number | null) => ({
      eventId: event.row_id,
      prId: `pr-${event.row_id}-${n}`,
      title: `P${n}`,
      categoryId,
      extra: { fields: [] },
      contentHash: String(n),
    });
    const rows = await insertProposals(ctx.db, [
      proposal(1, a!.id),
      proposal(2, a!.id),
      proposal(3, b!.id),
      proposal(4, null),
      proposal(5, null),
    ]);
    const [p1, p2, p3, p4, p5] = rows.map((row) => ({ id: row.id, eventId: event.row_id }));
    const author = `author-${event.row_id}`;
    await replaceAuthors(
      ctx.db,
      [p1!.id, p4!.id],
      [
        { proposalId: p1!.id, catalystKey: author },
        { proposalId: p4!.id, catalystKey: author },
      ],
    );
    return {
      admin,
      event,
      author,
      a: a!.id,
      b: b!.id,
      p1: { ...p1!, categoryId: a!.id },
      p2: { ...p2!, categoryId: a!.id },
      p3: { ...p3!, categoryId: b!.id },
      p4: { ...p4!, categoryId: null },
      p5: { ...p5!, categoryId: null },
    };
  };

  it('activeReviewerSubscription: active LV0 and LV1 subscriptions of the event only', async () => {
    const admin = await ctx.newAdmin();
    const [event, other] = [await f.newEvent(admin), await f.newEvent(admin)];
    const [u1, u2, u3] = [await ctx.newUser(), await ctx.newUser(), await ctx.newUser()];
    const lv0 = await subscribe(u1.id, event.row_id, ReviewerLevel.level_0, SubscriptionStatus.active);
    const lv1 = await subscribe(u2.id, event.row_id, ReviewerLevel.level_1, SubscriptionStatus.active);
    await subscribe(u1.id, event.row_id, ReviewerLevel.level_2, SubscriptionStatus.active); // a moderator
    await subscribe(u3.id, event.row_id, ReviewerLevel.level_1, SubscriptionStatus.subscribed); // not verified yet
    await subscribe(u3.id, event.row_id, ReviewerLevel.level_0, SubscriptionStatus.excluded);
    const elsewhere = await subscribe(u3.id, other.row_id, ReviewerLevel.level_0, SubscriptionStatus.active);
    const ids = async (eventId?: number) =>
      (
        await ctx.db
          .select({ id: subscriptions.id })
          .from(subscriptions)
          .where(and(inArray(subscriptions.eventId, [event.row_id, other.row_id]), activeReviewerSubscription(eventId)))
          .orderBy(asc(subscriptions.id))
      ).map((row) => row.id);
    expect(await ids(event.row_id)).toEqual([lv0, lv1]);
    expect(await ids()).toEqual([lv0, lv1, elsewhere]);
  });

  it('conflict of interest: the objectives an author key wrote in, by key or by event; and per proposal', async () => {
    const w = await world();
    const byKey = await authoredObjectives(ctx.db, { catalystKey: w.author });
    expect(byKey.map((row) => row.objectiveId).sort()).toEqual([w.a, null].sort());
    const byEvent = await authoredObjectives(ctx.db, { eventId: w.event.row_id });
    expect(byEvent.filter((row) => row.catalystKey === w.author)).toHaveLength(2);
    expect(byEvent.every((row) => row.eventId === w.event.row_id)).toBe(true);
    // A review: the author's objective A (any proposal in it), and every uncategorised proposal of the event (one
    // objective, as in the allocations' NO_OBJECTIVE).
    expect(await authoredInObjective(ctx.db, w.author, w.p1)).toBe(true);
    expect(await authoredInObjective(ctx.db, w.author, w.p2)).toBe(true);
    expect(await authoredInObjective(ctx.db, w.author, w.p3)).toBe(false);
    expect(await authoredInObjective(ctx.db, w.author, w.p4)).toBe(true);
    expect(await authoredInObjective(ctx.db, w.author, w.p5)).toBe(true);
    expect(await authoredInObjective(ctx.db, 'someone-else', w.p1)).toBe(false);
  });

  it('reviewVisibleTo: all, the reviews of the open events, and the own ones; nothing when neither', async () => {
    const w = await world();
    const other = await f.newEvent(w.admin);
    const [u1, u2] = [await ctx.newUser(), await ctx.newUser()];
    const s1 = await subscribe(u1.id, w.event.row_id, ReviewerLevel.level_0, SubscriptionStatus.active);
    const s2 = await subscribe(u2.id, w.event.row_id, ReviewerLevel.level_0, SubscriptionStatus.active);
    const note = {
      impactRating: 3,
      impactNote: 'n',
      feasibilityRating: 3,
      feasibilityNote: 'n',
      auditabilityRating: 3,
      auditabilityNote: 'n',
    };
    const r1 = await insertReview(ctx.db, { eventId: w.event.row_id, proposalId: w.p3.id, categoryId: w.b, subscriptionId: s1, ...note });
    const r2 = await insertReview(ctx.db, { eventId: w.event.row_id, proposalId: w.p3.id, categoryId: w.b, subscriptionId: s2, ...note });
    const seen = async (visibility: ReviewVisibility) =>
      (
        await ctx.db
          .select({ id: reviews.id })
          .from(reviews)
          .where(and(eq(reviews.eventId, w.event.row_id), reviewVisibleTo(visibility)))
          .orderBy(asc(reviews.id))
      ).map((row) => row.id);
    expect(await seen({ all: true, eventIds: [], ownSubscriptionIds: [] })).toEqual([r1.id, r2.id]);
    expect(await seen({ all: false, eventIds: [w.event.row_id], ownSubscriptionIds: [] })).toEqual([r1.id, r2.id]);
    expect(await seen({ all: false, eventIds: [other.row_id], ownSubscriptionIds: [s2] })).toEqual([r2.id]);
    expect(await seen({ all: false, eventIds: [], ownSubscriptionIds: [] })).toEqual([]);
  });
});
