import { AppealDecision } from '@cr/contract/appeals';
import { ReviewRanking } from '@cr/contract/reviews';
import { ReviewerLevel, SubscriptionStatus } from '@cr/contract/subscriptions';
import { AccountStatus } from '@cr/contract/users';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from './db/client';
import { upsertConfig } from './db/config-records';
import { reviews, subscriptions } from './db/schema/index';
import { findAccountByCatalystId } from './modules/accounts/accounts.repository';
import { appealAllocationRun } from './modules/appeals/appeal-allocation.service';
import { createAppealsService } from './modules/appeals/appeals.service';
import type { RunsService } from './modules/runs/runs.service';
import { newAnonymousId } from './modules/subscriptions/anonymous-id';
import { insertSubscription } from './modules/subscriptions/subscriptions.repository';

/**
 * The demo past round's appeals (issue 28 item 2): after its review outcomes and before its scores, the demo reviewer
 * appeals their review excluded by moderation and demo-community-2 theirs; the admin allocates the appeals; the demo
 * moderator — fresh in that round (its two moderators moderated every review) — rejects the first and upholds the
 * second, so a first visitor sees a rejected appeal on the demo reviewer's review and profile (their figures stay
 * 5 valid of 6) and an upheld one in the admin's list. One moderator decides each appeal (decisions_needed 1): the
 * round has one fresh moderator. Everything goes through the real services and run, audited.
 */
export async function seedPastRoundAppeals(db: Db, runs: RunsService, eventId: number, adminUserId: number) {
  const accountOf = async (catalystId: string) => {
    const account = await findAccountByCatalystId(db, catalystId);
    return account && { id: account.userId, role: account.role, status: AccountStatus.active, forceReset: false };
  };
  // One after another: `db` may be the seed's transaction, one connection that runs one statement at a time.
  const moderator = await accountOf('cardano/demo-moderator');
  const reviewer = await accountOf('cardano/demo-reviewer');
  const other = await accountOf('cardano/demo-community-2');
  if (!moderator || !reviewer || !other) return;
  await insertSubscription(db, {
    userId: moderator.id,
    eventId,
    role: ReviewerLevel.level_2,
    status: SubscriptionStatus.active,
    anonymousId: newAnonymousId(),
    preferredCategories: [],
    publicContact: '@demo-moderator',
  });
  await upsertConfig(db, 'appeals', eventId, { appeals_enabled: true, window_days: 7, decisions_needed: 1 });

  const excludedReviewOf = async (userId: number) => {
    const [row] = await db
      .select({ id: reviews.id })
      .from(reviews)
      .innerJoin(subscriptions, eq(subscriptions.id, reviews.subscriptionId))
      .where(
        and(
          eq(reviews.eventId, eventId),
          eq(subscriptions.userId, userId),
          inArray(reviews.ranking, [ReviewRanking.excluded_moderation, ReviewRanking.excluded_threshold]),
        ),
      )
      .orderBy(asc(reviews.id))
      .limit(1);
    return row?.id;
  };
  const appeals = createAppealsService({ db });
  const made: { appealId: number; decision: 0 | 1 }[] = [];
  for (const [author, decision, rationale] of [
    [reviewer, AppealDecision.rejected, REVIEWER_RATIONALE],
    [other, AppealDecision.upheld, COMMUNITY_RATIONALE],
  ] as const) {
    const reviewId = await excludedReviewOf(author.id);
    if (reviewId === undefined) continue;
    made.push({ appealId: (await appeals.create(author, { review_id: reviewId, rationale })).row_id, decision });
  }
  await runs.execute(adminUserId, appealAllocationRun, { event_id: eventId, appeal_seed: 14, dry_run: false });
  for (const { appealId, decision } of made)
    await appeals.decide(moderator, appealId, {
      decision,
      ...(decision === AppealDecision.upheld
        ? { predefined_reason: 'own_opinion', rationale: "person's own opinion" }
        : { predefined_reason: 'rationale_does_not_correspond', rationale: 'rationale does not correspond' }),
      custom_rationale: null,
    });
}

const REVIEWER_RATIONALE =
  'My notes on this proposal were short, but each rating follows from what the proposal says about its milestones and ' +
  'its budget. The moderators read the feasibility note as unsupported; I would ask a fresh moderator to read it next ' +
  'to the proposal, where every figure I mention can be found.';
const COMMUNITY_RATIONALE =
  'The moderation took my review for a copy of another one, but I wrote every note myself after reading the whole ' +
  'proposal twice. The notes name the team, the milestones and the budget lines the proposal gives, and the ratings ' +
  'follow from them. Please read the review again.';
