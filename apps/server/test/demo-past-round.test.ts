import { describe, expect, it } from 'vitest';
import { ReviewRanking } from '@cr/contract/reviews';
import { ReviewerLevel } from '@cr/contract/subscriptions';
import type { UserInfo } from '@cr/contract/users';
import { DEMO_MODERATION_EVENT, DEMO_PASSWORD, DEMO_PAST_EVENT, seedDemo } from '../src/demo';
import { API, databaseKinds, json, useTestApp } from './build-test-app';

/**
 * Issue 15 item 6: the demo's past round carries reviews, moderations, review outcomes and proposal scores made by
 * the real services, so a first visitor sees the score widget (G-001; moderation is off there, G-002), rankings on its
 * reviews and the demo reviewer's history (C-044, C-046).
 */
describe.each(databaseKinds)('the demo past round on %s', (kind) => {
  const ctx = useTestApp(kind);

  const loginAs = async (catalystId: string) => {
    const response = await ctx.login(catalystId, DEMO_PASSWORD);
    expect(response.statusCode).toBe(200);
    return { authorization: `Bearer ${json(response).access_token}` };
  };
  const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url: `${API}/${url}`, headers });
  const eventNamed = async (name: string) => {
    const events = json(await get('events/?size=100'));
    return ((events.data ?? events) as { row_id: number; name: string; active: boolean }[]).find((event) => event.name === name);
  };

  it('is finished, its outcomes and scores generated; a visitor reads the scores and the rankings; seeding again adds nothing', async () => {
    const started = Date.now();
    await seedDemo(ctx.db);
    const seconds = (Date.now() - started) / 1000;
    await seedDemo(ctx.db); // idempotent
    expect(seconds).toBeLessThan(60); // the whole demo, built on every fresh start

    const event = await eventNamed(DEMO_PAST_EVENT.name);
    expect(event).toMatchObject({ active: false });
    const config = json(await get(`configs/reviews/${event!.row_id}/`)).value;
    expect(config).toMatchObject({
      review_submission_enabled: false,
      moderation_submission_enabled: false,
      reviewer_subscription_enabled: false,
    });
    const admin = await loginAs('cardano/demo-admin');
    expect(json(await get(`configs/allocations/${event!.row_id}/`, admin)).value).toMatchObject({
      proposal_allocation_generated: true,
      moderation_allocation_generated: true,
      review_outcomes_generated: true,
      proposal_scores_generated: true,
    });

    // A visitor (not logged in) sees every review with its ranking: included, excluded by moderation and by threshold.
    const listed = json(await get(`proposal-reviews/filtered?event_id=${event!.row_id}&size=100`));
    const reviews = listed.data as { ranking: number; proposal_id: number }[];
    expect(reviews.length).toBe(listed.page.total);
    expect(reviews.length).toBe(6 + 12 + 4 + 5 + 4);
    const rankings = new Set(reviews.map((review) => review.ranking));
    for (const ranking of [ReviewRanking.included, ReviewRanking.excluded_moderation, ReviewRanking.excluded_threshold])
      expect(rankings).toContain(ranking);

    // The scored proposals carry their scores, each within 1..5, for anyone.
    const scored = [...new Set(reviews.filter((review) => review.ranking === ReviewRanking.included).map((review) => review.proposal_id))];
    expect(scored.length).toBeGreaterThan(5);
    for (const id of scored) {
      const { score } = json(await get(`proposals/${id}/`));
      for (const key of ['overall', 'impact', 'feasibility', 'value_for_money']) {
        expect(score[key]).toBeGreaterThanOrEqual(1);
        expect(score[key]).toBeLessThanOrEqual(5);
      }
    }
  });

  it('gives the demo reviewer a history (6 submitted, 5 valid: 83 %), which promotes them to LV1 where the qualifier asks for it', async () => {
    await seedDemo(ctx.db);
    const reviewer = await loginAs('cardano/demo-reviewer');
    const me = json(await get('users/me/', reviewer)) as UserInfo;
    expect(me.extra.historic_stats.reviews).toEqual({ active_funds: 1, submitted: 6, blank: 0, valid: 5, approval_rate: 5 / 6 });
    // The moderators of the past round have their moderations counted.
    const moderator = json(await get('users/me/', await loginAs('cardano/demo-community-5'))) as UserInfo;
    expect(moderator.extra.historic_stats.moderations.active_funds).toBe(1);
    expect(moderator.extra.historic_stats.moderations.submitted).toBeGreaterThan(0);

    // A new round asking for 5 valid reviews at 80 %: the demo reviewer subscribes at LV1.
    const round = await ctx.newEvent({
      qualifiers: {
        lv1: {
          min_valid_reviews: 5,
          max_valid_reviews: 100,
          min_perc_valid_reviews: 0.8,
          max_perc_valid_reviews: 1,
          min_active_funds: 1,
          max_active_funds: 10,
        },
      },
    });
    const subscribed = await ctx.subscribe({ auth: reviewer }, round);
    expect(subscribed.statusCode).toBe(201);
    expect(json(subscribed)[0]).toMatchObject({ role: ReviewerLevel.level_1 });
  });

  it("leaves the demo moderator's allocated reviews those of the moderation round", async () => {
    await seedDemo(ctx.db);
    const moderation = await eventNamed(DEMO_MODERATION_EVENT.name);
    const moderator = await loginAs('cardano/demo-moderator');
    const allocated = json(await get('proposal-reviews/allocated/?size=100', moderator)).data as { proposal: { event_id: number } }[];
    expect(allocated.length).toBeGreaterThan(0);
    expect(allocated.every((review) => review.proposal.event_id === moderation!.row_id)).toBe(true);
  });
});
