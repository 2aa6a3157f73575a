import { describe, expect, it } from 'vitest';
import { DEFAULT_LEVEL_QUALIFIER } from '@cr/contract/events';
import { ReviewerLevel } from '@cr/contract/subscriptions';
import { databaseKinds, useTestApp } from './build-test-app';
import { QUALIFIER } from './world-fixtures';

/** The world fixtures build what they say, through the API (so a test built on them starts from a true world). */
describe.each(databaseKinds)('world fixtures on %s', (kind) => {
  const ctx = useTestApp(kind);
  const me = async (user: { auth: { authorization: string } }) =>
    (await ctx.app.inject({ method: 'GET', url: '/api/reviews/users/me/', headers: user.auth })).json();

  it('an event is active, open for subscription at LV0, and takes config and qualifiers', async () => {
    const event = await ctx.newEvent({ config: { review_submission_enabled: true } });
    expect(event).toMatchObject({ id: event.row_id, active: true });
    expect(await ctx.configOf(event)).toMatchObject({ reviewer_subscription_enabled: true, review_submission_enabled: true });
    expect((await ctx.configure(event, { review_visibility_enabled: true })).review_submission_enabled).toBe(true);
    expect(await ctx.qualifiersOf(event)).toEqual({ lv1: QUALIFIER.never, lv2: QUALIFIER.never });
    const lv1 = await ctx.newEvent({ qualifiers: { lv1: DEFAULT_LEVEL_QUALIFIER } });
    expect(await ctx.qualifiersOf(lv1)).toEqual({ lv1: DEFAULT_LEVEL_QUALIFIER, lv2: QUALIFIER.never });
  });

  it('a reviewer has an active subscription at the asked level; the event keeps its qualifiers', async () => {
    const event = await ctx.newEvent();
    const categories = await ctx.newCategories(event, ['Developers', 'Ecosystem']);
    const lv0 = await ctx.newReviewer(event);
    const lv1 = await ctx.newReviewer(event, { level: ReviewerLevel.level_1, categories: [categories[1]!.id] });
    expect(lv0.subscription).toMatchObject({ event_id: event.id, role: 0, status: 1 });
    expect(lv1.subscription).toMatchObject({
      role: 1,
      status: 1,
      extra: { preferred_categories: [{ id: categories[1]!.id, title: 'Ecosystem' }] },
    });
    expect(lv1.anonymousId).toMatch(/^[a-z2-7]{10}$/);
    expect((await me(lv1)).extra.subscriptions).toEqual([lv1.subscription]);
    expect(await ctx.qualifiersOf(event)).toEqual({ lv1: QUALIFIER.never, lv2: QUALIFIER.never });
  });

  it('a moderator has an accepted, active LV2 subscription', async () => {
    const event = await ctx.newEvent();
    const moderator = await ctx.newModerator(event);
    expect(moderator.subscription).toMatchObject({ role: 2, status: 1, extra: { reward_address: 'addr1qxyz' } });
  });

  it('proposals land in the asked category with the asked author; an allocation and a review show in the API', async () => {
    const event = await ctx.newEvent({ config: { review_submission_enabled: true } });
    const author = await ctx.newUser();
    const authored = await ctx.newProposal(event, { author, category: 'Tools' });
    const other = await ctx.newProposal(event, { category: null });
    expect(authored).toMatchObject({ event_id: event.id, objective_title: 'Tools' });
    expect(other).toMatchObject({ objective: null, objective_title: null });
    expect((await me(author)).extra.unique_objectives_as_author).toEqual([authored.objective]);

    const reviewer = await ctx.newReviewer(event, { user: author });
    await expect(ctx.newAllocation(reviewer, authored)).rejects.toThrow(/authored/);
    await ctx.newAllocation(reviewer, other);
    const allocated = (await ctx.app.inject({ method: 'GET', url: '/api/reviews/proposals/allocated', headers: reviewer.auth })).json();
    expect(allocated.data.map((p: { row_id: number }) => p.row_id)).toEqual([other.id]);
    const review = await ctx.newReview(reviewer, other, { feasibility_rating_given: 1 });
    expect(review).toMatchObject({ proposal_id: other.id, allocated: true, feasibility_rating_given: 1, assessor: reviewer.anonymousId });
  });

  it('imports the sample proposals with chosen authors, and runs the real allocation', async () => {
    const event = await ctx.newEvent();
    const author = await ctx.newUser();
    const proposals = await ctx.importProposals(event, { authorOf: (index) => (index === 0 ? author : undefined) });
    expect(proposals).toHaveLength(31);
    await ctx.newReviewer(event, { user: author });
    await ctx.newReviewer(event);
    expect(await ctx.allocate(event, { nr_of_proposals_lv0: 2, nr_of_proposals_lv1: 2 })).toMatchObject({ tot: 4, dry_run: false });
  });
});
