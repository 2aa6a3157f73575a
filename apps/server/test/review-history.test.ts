import { beforeAll, describe, expect, it } from 'vitest';
import type { LevelQualifier } from '@cr/contract/events';
import { ReviewerLevel, SubscriptionStatus } from '@cr/contract/subscriptions';
import type { SubscriptionPublic, UserInfo } from '@cr/contract/users';
import { moderations } from '../src/db/schema/index';
import { API, databaseKinds, useTestApp } from './build-test-app';
import type { TestUser } from './fixtures';
import { QUALIFIER, type TestEvent, type TestReviewer } from './world-fixtures';

// Issue 15 item 4: the profile's historic stats come from the past rounds' review outcomes, and the level decision of a
// subscription reads the same figures (DOMAIN.md "Subscriptions and levels", "Review outcomes"; spec §2.16, §3
// "Reviewer stats", "Review level qualifiers"). C-044, C-046, C-047, C-048 (the figures), A-112 (historic_stats).

describe.each(databaseKinds)('historic stats and the level they earn on %s', (kind) => {
  const ctx = useTestApp(kind);
  let past: TestEvent;
  let reviewer: TestReviewer;
  let moderator: TestReviewer;
  let newcomer: TestUser;

  const post = (user: TestUser, url: string, payload: object) =>
    ctx.app.inject({ method: 'POST', url: `${API}/${url}`, headers: user.auth, payload });
  const historyOf = async (url: string, who: TestUser) => {
    const response = await ctx.app.inject({ method: 'GET', url: `${API}/${url}`, headers: who.auth });
    expect(response.statusCode).toBe(200);
    return (response.json() as UserInfo).extra.historic_stats;
  };

  /**
   * The past round, hand-computed. The reviewer writes 5 reviews (proposals 0–4); the moderator excludes the first two
   * and includes the third; the last two are not moderated. Outcomes at validity 0.5, acceptance 0.5, minimum sample
   * 10 (2 moderated reviews are below the sample, so no threshold exclusion): reviews 0, 1 excluded by moderation,
   * 2, 3, 4 included. Reviewer: submitted 5, blank 0, valid 3, 1 active fund, approval 3 / 5 = 0.6, excluded 2.
   * Moderator: 3 moderations in 1 fund. Another round without outcomes, where the reviewer writes 2 reviews, and the
   * current round count for nothing.
   */
  beforeAll(async () => {
    past = await ctx.newEvent({ config: { review_submission_enabled: true } });
    const proposals = await ctx.importProposals(past);
    reviewer = await ctx.newReviewer(past);
    moderator = await ctx.newModerator(past);
    const other = await ctx.newReviewer(past);
    const written = [];
    for (let i = 0; i < 5; i += 1) written.push(await ctx.newReview(reviewer, proposals[i]!));
    await ctx.newReview(other, proposals[5]!);
    const moderate = (reviewId: number, classification: 0 | 1) =>
      ctx.db
        .insert(moderations)
        .values({ eventId: past.id, reviewId, subscriptionId: moderator.subscription.row_id, classification, rationale: 'r' });
    await moderate(written[0]!.row_id, 0);
    await moderate(written[1]!.row_id, 0);
    await moderate(written[2]!.row_id, 1);
    const outcome = await post(past.admin, 'proposal-reviews/generate-results', {
      results_params: { event_id: past.id, validity_threshold: 0.5, acceptance_threshold: 0.5, minimum_sample: 10, dry_run: false },
    });
    expect(outcome.statusCode).toBe(200);
    expect(outcome.json()).toMatchObject({ nr_of_reviews: 6, nr_of_accepted_reviews: 4, nr_of_excluded_reviews_by_moderation: 2 });

    // A round without outcomes: its reviews are not history yet.
    const unfinished = await ctx.newEvent({ config: { review_submission_enabled: true } });
    const unfinishedProposals = await ctx.importProposals(unfinished);
    await ctx.newReviewer(unfinished, { user: reviewer });
    await ctx.newReview(reviewer, unfinishedProposals[0]!);
    await ctx.newReview(reviewer, unfinishedProposals[1]!);
    newcomer = await ctx.newUser();
  });

  const reviewerHistory = { active_funds: 1, submitted: 5, blank: 0, valid: 3, approval_rate: 0.6 };

  it('C-044, C-046, A-112: a reviewer of a past round with outcomes shows its figures, in users/me and to an admin', async () => {
    const own = await historyOf('users/me/', reviewer);
    expect(own.reviews).toEqual(reviewerHistory);
    // C-048: excluded = submitted − blank − valid = 2, the two reviews the moderation excluded.
    expect(own.reviews.submitted - own.reviews.blank - own.reviews.valid).toBe(2);
    expect(own.moderations).toEqual({ active_funds: 0, submitted: 0 });
    expect(await historyOf(`admin/users/${reviewer.id}`, past.admin)).toEqual(own);
  });

  it('C-044: a moderator of that round shows their moderations; C-047: someone with no history shows 0', async () => {
    expect(await historyOf('users/me/', moderator)).toEqual({
      reviews: { active_funds: 0, submitted: 0, blank: 0, valid: 0, approval_rate: 0 },
      moderations: { active_funds: 1, submitted: 3 },
    });
    expect((await historyOf('users/me/', newcomer)).reviews).toEqual({
      active_funds: 0,
      submitted: 0,
      blank: 0,
      valid: 0,
      approval_rate: 0,
    });
  });

  /** The qualifier the reviewer's history (valid 3, rate 0.6, 1 fund) just meets: every bound is hit exactly. */
  const justMet: LevelQualifier = {
    min_valid_reviews: 3,
    max_valid_reviews: 10,
    min_perc_valid_reviews: 0.6,
    max_perc_valid_reviews: 1,
    min_active_funds: 1,
    max_active_funds: 10,
  };
  const subscribeTo = async (qualifiers: { lv1: LevelQualifier; lv2: LevelQualifier }, who: TestUser = reviewer) => {
    const event = await ctx.newEvent({ qualifiers });
    const response = await ctx.subscribe(who, event);
    expect(response.statusCode).toBe(201);
    return response.json() as SubscriptionPublic[];
  };

  it('C-002, B-053: subscribing to a new round whose LV1 qualifier the history meets gives an active LV1 subscription', async () => {
    const [subscription] = await subscribeTo({ lv1: justMet, lv2: QUALIFIER.never });
    expect(subscription).toMatchObject({ role: ReviewerLevel.level_1, status: SubscriptionStatus.active });
    // The same qualifier is out of reach for someone with no history: LV0.
    const [other] = await subscribeTo({ lv1: justMet, lv2: QUALIFIER.never }, newcomer);
    expect(other).toMatchObject({ role: ReviewerLevel.level_0 });
  });

  it('B-053: just outside the LV1 qualifier (one valid review, one percent or one fund short, one valid review over the maximum) stays LV0', async () => {
    for (const below of [
      { ...justMet, min_valid_reviews: 4 },
      { ...justMet, min_perc_valid_reviews: 0.61 },
      { ...justMet, min_active_funds: 2 },
      { ...justMet, min_valid_reviews: 0, max_valid_reviews: 2 },
    ]) {
      const [subscription] = await subscribeTo({ lv1: below, lv2: QUALIFIER.never });
      expect(subscription).toMatchObject({ role: ReviewerLevel.level_0, status: SubscriptionStatus.active });
    }
  });

  it('C-015, C-027: a history meeting the LV2 qualifier answers an LV2 invitation (LV2 checked before LV1)', async () => {
    const subscriptions = await subscribeTo({ lv1: justMet, lv2: justMet });
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0]).toMatchObject({ role: ReviewerLevel.level_2, status: SubscriptionStatus.invited });
  });

  it('the round being subscribed to is not its own history: a second outcome-run round adds to the figures', async () => {
    // The reviewer subscribed (LV1) to a new round above; a round of theirs with outcomes counts once generated.
    const round = await ctx.newEvent({ config: { review_submission_enabled: true } });
    const proposals = await ctx.importProposals(round);
    const again = await ctx.newReviewer(round, { user: reviewer });
    await ctx.newReview(again, proposals[0]!);
    expect((await historyOf('users/me/', reviewer)).reviews).toEqual(reviewerHistory);
    const outcome = await post(round.admin, 'proposal-reviews/generate-results', {
      results_params: { event_id: round.id, validity_threshold: 0.5, acceptance_threshold: 0.5, minimum_sample: 10, dry_run: false },
    });
    expect(outcome.statusCode).toBe(200);
    // 6 submitted, 4 valid (the new unmoderated review is included), 2 funds: 4 / 6.
    expect((await historyOf('users/me/', reviewer)).reviews).toEqual({
      active_funds: 2,
      submitted: 6,
      blank: 0,
      valid: 4,
      approval_rate: 4 / 6,
    });
  });
});
