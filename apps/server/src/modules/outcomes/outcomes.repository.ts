import { ReviewRanking } from '@cr/contract/reviews';
import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { moderations, proposalAllocations, proposals, proposalScores, reviews, subscriptions } from '../../db/schema/index';
import type { ProposalScore } from '../../domain/proposal-scores';

/**
 * The event's reviews with their writer (user id and anonymous id) and their moderations' classifications (an
 * array, empty when unmoderated): the review outcomes run's input, in one query.
 */
export function outcomeReviews(db: DbOrTx, eventId: number) {
  return db
    .select({
      id: reviews.id,
      reviewer: subscriptions.userId,
      assessor: subscriptions.anonymousId,
      moderations: sql<
        number[]
      >`coalesce((select array_agg(${moderations.classification}::int) from ${moderations} where ${moderations.reviewId} = ${reviews.id}), '{}'::int[])`,
    })
    .from(reviews)
    .innerJoin(subscriptions, eq(subscriptions.id, reviews.subscriptionId))
    .where(eq(reviews.eventId, eventId))
    .orderBy(asc(reviews.id));
}

const intArray = (values: Iterable<number>) => `{${[...values].join(',')}}`;

/** Writes the rankings: one statement per ranking value and 50,000 reviews, inside the run's transaction. */
export async function writeRankings(tx: DbOrTx, eventId: number, rankings: Map<number, number>) {
  const byRanking = new Map<number, number[]>();
  for (const [id, ranking] of rankings) {
    const ids = byRanking.get(ranking) ?? [];
    ids.push(id);
    byRanking.set(ranking, ids);
  }
  for (const [ranking, ids] of byRanking)
    for (let i = 0; i < ids.length; i += 50_000)
      await tx.execute(
        sql`update ${reviews} set ranking = ${ranking} where event_id = ${eventId} and id = any(${intArray(ids.slice(i, i + 50_000))}::int[])`,
      );
}

/** The event's proposals (id order): every one gets a row of the scores' result, reviewed or not. */
export function scoreProposals(db: DbOrTx, eventId: number) {
  return db
    .select({ id: proposals.id, prId: proposals.prId, title: proposals.title })
    .from(proposals)
    .where(eq(proposals.eventId, eventId))
    .orderBy(asc(proposals.id));
}

/** The event's reviews with what the scores weigh: ranking, ratings, the writer's level and whether allocated. */
export function scoreReviews(db: DbOrTx, eventId: number) {
  return db
    .select({
      proposal: reviews.proposalId,
      ranking: reviews.ranking,
      level: subscriptions.role,
      allocated: sql<boolean>`exists (select 1 from ${proposalAllocations} where ${proposalAllocations.subscriptionId} = ${reviews.subscriptionId} and ${proposalAllocations.proposalId} = ${reviews.proposalId})`,
      impact: reviews.impactRating,
      feasibility: reviews.feasibilityRating,
      valueForMoney: reviews.auditabilityRating,
    })
    .from(reviews)
    .innerJoin(subscriptions, eq(subscriptions.id, reviews.subscriptionId))
    .where(eq(reviews.eventId, eventId));
}

/** Stores the scores (one row per proposal), replacing any earlier ones of the event. */
export async function writeScores(tx: DbOrTx, eventId: number, scores: readonly ProposalScore[]) {
  await tx.delete(proposalScores).where(eq(proposalScores.eventId, eventId));
  const rows = scores.map((score) => ({
    proposalId: score.proposal,
    eventId,
    overall: score.score_weighted_avg?.overall ?? null,
    impact: score.score_weighted_avg?.impact ?? null,
    feasibility: score.score_weighted_avg?.feasibility ?? null,
    valueForMoney: score.score_weighted_avg?.value_for_money ?? null,
    nrReviews: score.nr_reviews,
    nrAllocatedReviews: score.nr_allocated_reviews,
    nrIncludedReviews: score.nr_included_reviews,
    nrExcludedReviews: score.nr_excluded_reviews,
    nrExcludedByModerationReviews: score.nr_excluded_by_moderation_reviews,
    nrExcludedByThresholdReviews: score.nr_excluded_by_threshold_reviews,
  }));
  for (let i = 0; i < rows.length; i += 2_000) await tx.insert(proposalScores).values(rows.slice(i, i + 2_000));
}

export { ReviewRanking };
