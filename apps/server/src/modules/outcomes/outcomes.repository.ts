import { ReviewRanking } from '@cr/contract/reviews';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { moderations, proposalAllocations, proposals, proposalScores, reviews, subscriptions } from '../../db/schema/index';
import type { ProposalScore } from '../../domain/proposal-scores';

/**
 * The event's reviews with their writer (user id and anonymous id) and their moderations' classifications (an
 * array, empty when unmoderated): the review outcomes run's input, in one query. The moderations are grouped once
 * per event and joined (a hash join), not looked up per review.
 */
export function outcomeReviews(db: DbOrTx, eventId: number) {
  const grouped = db
    .select({
      reviewId: moderations.reviewId,
      classifications: sql<number[]>`array_agg(${moderations.classification}::int)`.as('classifications'),
    })
    .from(moderations)
    .where(eq(moderations.eventId, eventId))
    .groupBy(moderations.reviewId)
    .as('grouped');
  return db
    .select({
      id: reviews.id,
      reviewer: subscriptions.userId,
      assessor: subscriptions.anonymousId,
      moderations: sql<number[]>`coalesce(${grouped.classifications}, '{}'::int[])`,
    })
    .from(reviews)
    .innerJoin(subscriptions, eq(subscriptions.id, reviews.subscriptionId))
    .leftJoin(grouped, eq(grouped.reviewId, reviews.id))
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

/**
 * The event's reviews with what the scores weigh: ranking, ratings, the writer's level and whether allocated (a
 * left join on the allocations, which the planner hashes, rather than a lookup per review).
 */
export function scoreReviews(db: DbOrTx, eventId: number) {
  return db
    .select({
      proposal: reviews.proposalId,
      ranking: reviews.ranking,
      level: subscriptions.role,
      allocated: sql<boolean>`${proposalAllocations.proposalId} is not null`,
      impact: reviews.impactRating,
      feasibility: reviews.feasibilityRating,
      valueForMoney: reviews.auditabilityRating,
    })
    .from(reviews)
    .innerJoin(subscriptions, eq(subscriptions.id, reviews.subscriptionId))
    .leftJoin(
      proposalAllocations,
      and(eq(proposalAllocations.subscriptionId, reviews.subscriptionId), eq(proposalAllocations.proposalId, reviews.proposalId)),
    )
    .where(eq(reviews.eventId, eventId));
}

/** A PostgreSQL array literal of numbers (null → NULL): one parameter per column, whatever the row count. */
const numberArray = (values: readonly (number | null)[]) =>
  `{${values.map((value) => (value === null ? 'NULL' : String(value))).join(',')}}`;

/**
 * Stores the scores (one row per proposal), replacing any earlier ones of the event: one `insert … select from
 * unnest(…)` per 20,000 proposals, each column one array parameter (a row-by-row values list costs far more).
 */
export async function writeScores(tx: DbOrTx, eventId: number, scores: readonly ProposalScore[]) {
  await tx.delete(proposalScores).where(eq(proposalScores.eventId, eventId));
  const columns: [string, string, (score: ProposalScore) => number | null][] = [
    ['proposal_id', 'int', (score) => score.proposal],
    ['overall', 'float8', (score) => score.score_weighted_avg?.overall ?? null],
    ['impact', 'float8', (score) => score.score_weighted_avg?.impact ?? null],
    ['feasibility', 'float8', (score) => score.score_weighted_avg?.feasibility ?? null],
    ['value_for_money', 'float8', (score) => score.score_weighted_avg?.value_for_money ?? null],
    ['nr_reviews', 'int', (score) => score.nr_reviews],
    ['nr_allocated_reviews', 'int', (score) => score.nr_allocated_reviews],
    ['nr_included_reviews', 'int', (score) => score.nr_included_reviews],
    ['nr_excluded_reviews', 'int', (score) => score.nr_excluded_reviews],
    ['nr_excluded_by_moderation_reviews', 'int', (score) => score.nr_excluded_by_moderation_reviews],
    ['nr_excluded_by_threshold_reviews', 'int', (score) => score.nr_excluded_by_threshold_reviews],
  ];
  for (let i = 0; i < scores.length; i += 20_000) {
    const batch = scores.slice(i, i + 20_000);
    const arrays = columns.map(([, type, value]) => sql`${numberArray(batch.map(value))}::${sql.raw(type)}[]`);
    await tx.execute(
      sql`insert into ${proposalScores} (event_id, ${sql.raw(columns.map(([name]) => name).join(', '))}) select ${eventId}, * from unnest(${sql.join(arrays, sql`, `)})`,
    );
  }
}

export { ReviewRanking };
