import { ReviewRanking } from '@cr/contract/reviews';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { moderations, proposalAllocations, proposals, proposalScores, reviews, subscriptions } from '../../db/schema/index';
import type { ProposalScore, ScoreReview } from '../../domain/proposal-scores';
import type { OutcomeReview } from '../../domain/review-outcomes';

/**
 * Runs a load's statement with room to aggregate a million reviews in memory (work_mem; PostgreSQL's 4 MB default
 * sends the grouping to disk) and without JIT compilation (it costs more than it saves on one pass), in a transaction
 * of its own (a savepoint inside a real run's), so that the settings go no further.
 */
function withRoom<T>(db: DbOrTx, query: (tx: DbOrTx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local work_mem = '64MB'`);
    await tx.execute(sql`set local jit = off`);
    return query(tx);
  });
}

/**
 * The event's reviews with their writer (user id) and their moderations' classifications (1 included, any other value
 * not): the review outcomes run's input, with each writer's anonymous id (that of the subscription of their first
 * review). The moderations are counted once per event and joined (a hash join), not looked up per review; PostgreSQL
 * packs the reviews per subscription into one string, `id,moderations,included;` a review (in no particular order:
 * the rule does not depend on it), so a million reviews arrive as one row per reviewer instead of a million objects
 * built by the driver and the ORM.
 */
export async function outcomeReviews(db: DbOrTx, eventId: number) {
  const rows = await withRoom(db, (tx) => {
    const counted = tx
      .select({
        reviewId: moderations.reviewId,
        total: sql<number>`count(*)::int`.as('total'),
        included: sql<number>`(count(*) filter (where ${moderations.classification} = 1))::int`.as('included'),
      })
      .from(moderations)
      .where(eq(moderations.eventId, eventId))
      .groupBy(moderations.reviewId)
      .as('counted');
    return tx
      .select({
        reviewer: subscriptions.userId,
        assessor: subscriptions.anonymousId,
        packed: sql<string>`string_agg(${reviews.id} || ',' || coalesce(${counted.total}, 0) || ',' || coalesce(${counted.included}, 0), ';')`,
      })
      .from(reviews)
      .innerJoin(subscriptions, eq(subscriptions.id, reviews.subscriptionId))
      .leftJoin(counted, eq(counted.reviewId, reviews.id))
      .where(eq(reviews.eventId, eventId))
      .groupBy(subscriptions.id)
      .orderBy(sql`min(${reviews.id})`);
  });
  const unmoderated: readonly number[] = Object.freeze([]);
  const outcomeInput: OutcomeReview[] = [];
  const assessorOf = new Map<number, string>();
  for (const { reviewer, assessor, packed } of rows) {
    if (!assessorOf.has(reviewer)) assessorOf.set(reviewer, assessor);
    const numbers = [0, 0, 0];
    let field = 0;
    for (let i = 0; i <= packed.length; i += 1) {
      const code = i === packed.length ? 59 : packed.charCodeAt(i);
      if (code === 44) field += 1;
      else if (code !== 59) numbers[field] = numbers[field]! * 10 + code - 48;
      else {
        const [id, total, included] = numbers as [number, number, number];
        outcomeInput.push({
          id,
          reviewer,
          moderations: total === 0 ? unmoderated : Array.from({ length: total }, (_, k) => (k < included ? 1 : 0)),
        });
        numbers.fill(0);
        field = 0;
      }
    }
  }
  return { reviews: outcomeInput, assessorOf };
}

const intArray = (values: Iterable<number>) => `{${[...values].join(',')}}`;

/**
 * Writes the rankings inside the run's transaction in one set-based statement: the ids and their rankings as two
 * array parameters, unnested and joined to the reviews (a hash join over one pass of the event's reviews, as a raw
 * `update … set ranking = …` would do), only the loaded reviews (one submitted since is left as it is). The join's
 * hash of the pairs gets the memory it needs for this transaction only (`set local work_mem`), instead of spilling.
 */
export async function writeRankings(tx: DbOrTx, eventId: number, rankings: Map<number, number>) {
  if (rankings.size === 0) return;
  const megabytes = Math.min(1_024, 16 + Math.ceil(rankings.size / 10_000));
  await tx.execute(sql.raw(`set local work_mem = '${megabytes}MB'`));
  await tx.execute(
    sql`update ${reviews} as r set ranking = v.ranking
        from unnest(${intArray(rankings.keys())}::int[], ${intArray(rankings.values())}::smallint[]) as v(id, ranking)
        where r.id = v.id and r.event_id = ${eventId}`,
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
 * The event's reviews with what the scores weigh: ranking, ratings, the writer's level (1 for LV1, else 0: the rule
 * weighs LV1 and the rest) and whether allocated (a left join on the allocations, which the planner hashes, rather
 * than a lookup per review). PostgreSQL packs them per proposal into one string, six characters a review (each value
 * v as the character 48 + v: '0'–'5' for the usual values), in the order it reads them, as the rows came before: a
 * million reviews arrive as some 20,000 short rows instead of a million objects built by the driver and the ORM.
 */
export async function scoreReviews(db: DbOrTx, eventId: number): Promise<ScoreReview[]> {
  const rows = await withRoom(db, (tx) =>
    tx
      .select({
        proposal: reviews.proposalId,
        packed: sql<string>`string_agg(chr(48 + ${reviews.ranking}) || case when ${proposalAllocations.proposalId} is null then '0' else '1' end
        || case when ${subscriptions.role} = 1 then '1' else '0' end
        || chr(48 + ${reviews.impactRating}) || chr(48 + ${reviews.feasibilityRating}) || chr(48 + ${reviews.auditabilityRating}), '')`,
      })
      .from(reviews)
      .innerJoin(subscriptions, eq(subscriptions.id, reviews.subscriptionId))
      .leftJoin(
        proposalAllocations,
        and(eq(proposalAllocations.subscriptionId, reviews.subscriptionId), eq(proposalAllocations.proposalId, reviews.proposalId)),
      )
      .where(eq(reviews.eventId, eventId))
      .groupBy(reviews.proposalId),
  );
  const unpacked: ScoreReview[] = [];
  for (const { proposal, packed } of rows)
    for (let i = 0; i < packed.length; i += 6)
      unpacked.push({
        proposal,
        ranking: packed.charCodeAt(i) - 48,
        allocated: packed.charCodeAt(i + 1) === 49,
        level: packed.charCodeAt(i + 2) - 48,
        impact: packed.charCodeAt(i + 3) - 48,
        feasibility: packed.charCodeAt(i + 4) - 48,
        valueForMoney: packed.charCodeAt(i + 5) - 48,
      });
  return unpacked;
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
