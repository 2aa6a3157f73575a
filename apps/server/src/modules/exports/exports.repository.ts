import { and, asc, eq, gt, inArray, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { csvText } from './csv';
import type { CopyQuery } from './csv-copy';
import {
  categories,
  moderationAllocations,
  moderations,
  proposals,
  proposalScores,
  reviewFlags,
  reviews,
  subscriptions,
} from '../../db/schema/index';

/** Rows per page of an export: one page in memory at a time (1,000 rows of the full CSV are about 1 MB of text). */
export const EXPORT_PAGE = 1_000;

/**
 * One page (keyset, id order) of the event's reviews with their moderation counts; `full` adds the ratings, notes
 * and the proposal. `valid` is whether the review outcomes ranked it included.
 */
export function reviewExportPage(db: DbOrTx, eventId: number, after: number, full: boolean) {
  const base = {
    row_id: reviews.id,
    valid: sql<boolean>`${reviews.ranking} = 1`,
    user_id: subscriptions.userId,
    moderations_tot: sql<number>`(select count(*)::int from ${moderations} where ${moderations.reviewId} = ${reviews.id})`,
    moderations_as_valid: sql<number>`(select count(*)::int from ${moderations} where ${moderations.reviewId} = ${reviews.id} and ${moderations.classification} = 1)`,
  };
  const extra = {
    proposal_id: reviews.proposalId,
    pr_id: proposals.prId,
    proposal_title: proposals.title,
    assessor: subscriptions.anonymousId,
    assessor_level: subscriptions.role,
    ranking: reviews.ranking,
    impact_alignment_rating_given: reviews.impactRating,
    impact_alignment_note: reviews.impactNote,
    feasibility_rating_given: reviews.feasibilityRating,
    feasibility_note: reviews.feasibilityNote,
    auditability_rating_given: reviews.auditabilityRating,
    auditability_note: reviews.auditabilityNote,
  };
  return db
    .select(full ? { ...base, ...extra } : base)
    .from(reviews)
    .innerJoin(subscriptions, eq(subscriptions.id, reviews.subscriptionId))
    .innerJoin(proposals, eq(proposals.id, reviews.proposalId))
    .where(and(eq(reviews.eventId, eventId), gt(reviews.id, after)))
    .orderBy(asc(reviews.id))
    .limit(EXPORT_PAGE);
}

/**
 * One page (keyset, id order) of the moderations, of one event or all: the reference's ModerationInDB fields
 * (review_id, classification, rationale, row_id, user_id, public_contact) plus the event and the chosen reason.
 */
export function moderationExportPage(db: DbOrTx, eventId: number | null, after: number) {
  const where: SQL[] = [gt(moderations.id, after)];
  if (eventId !== null) where.push(eq(moderations.eventId, eventId));
  return db
    .select({
      row_id: moderations.id,
      event_id: moderations.eventId,
      review_id: moderations.reviewId,
      user_id: subscriptions.userId,
      public_contact: subscriptions.publicContact,
      classification: moderations.classification,
      predefined_reason: moderations.predefinedReason,
      rationale: moderations.rationale,
    })
    .from(moderations)
    .innerJoin(subscriptions, eq(subscriptions.id, moderations.subscriptionId))
    .where(and(...where))
    .orderBy(asc(moderations.id))
    .limit(EXPORT_PAGE);
}

/** Per moderator (user), how many reviews they moderated, of one event or all: the reference's ModeratorStatsPublic. */
export function moderatorStats(db: DbOrTx, eventId: number | null) {
  return db
    .select({ user_id: subscriptions.userId, reviews_moderated: sql<number>`count(distinct ${moderations.reviewId})::int` })
    .from(moderations)
    .innerJoin(subscriptions, eq(subscriptions.id, moderations.subscriptionId))
    .where(eventId === null ? undefined : eq(moderations.eventId, eventId))
    .groupBy(subscriptions.userId)
    .orderBy(asc(subscriptions.userId));
}

/** The events' proposals with their stored scores (null before the scores run or without an included review). */
export function voteProposals(db: DbOrTx, eventIds: number[]) {
  return db
    .select({
      id: proposals.id,
      event_id: proposals.eventId,
      pr_id: proposals.prId,
      title: proposals.title,
      category: categories.title,
      funds: proposals.funds,
      url: proposals.url,
      overall: proposalScores.overall,
      impact: proposalScores.impact,
      feasibility: proposalScores.feasibility,
      value_for_money: proposalScores.valueForMoney,
    })
    .from(proposals)
    .leftJoin(categories, eq(categories.id, proposals.categoryId))
    .leftJoin(proposalScores, eq(proposalScores.proposalId, proposals.id))
    .where(inArray(proposals.eventId, eventIds))
    .orderBy(asc(proposals.id));
}

/** One page (keyset) of the events' included reviews (ranking 1): what the vote system publishes. */
export function voteReviewPage(db: DbOrTx, eventIds: number[], after: number) {
  return db
    .select({
      row_id: reviews.id,
      proposal_id: reviews.proposalId,
      assessor: subscriptions.anonymousId,
      assessor_level: subscriptions.role,
      impact_alignment_rating_given: reviews.impactRating,
      impact_alignment_note: reviews.impactNote,
      feasibility_rating_given: reviews.feasibilityRating,
      feasibility_note: reviews.feasibilityNote,
      auditability_rating_given: reviews.auditabilityRating,
      auditability_note: reviews.auditabilityNote,
    })
    .from(reviews)
    .innerJoin(subscriptions, eq(subscriptions.id, reviews.subscriptionId))
    .where(and(inArray(reviews.eventId, eventIds), eq(reviews.ranking, 1), gt(reviews.id, after)))
    .orderBy(asc(reviews.id))
    .limit(EXPORT_PAGE);
}

/**
 * `moderations/stats/`: counts of one event (or all), and how many reviews have 0, 1, 2, 3 or more moderations. Two
 * statements: the counts side by side (each from an index), then the moderated reviews grouped by their number of
 * moderations from the moderations alone; the reviews with none are the rest.
 */
export async function moderationStats(db: DbOrTx, eventId: number | null) {
  const ofEvent = (
    column: typeof moderations.eventId | typeof moderationAllocations.eventId | typeof reviewFlags.eventId | typeof reviews.eventId,
  ) => (eventId === null ? undefined : eq(column, eventId));
  const count = (table: typeof moderations | typeof moderationAllocations | typeof reviews, where: SQL | undefined) =>
    sql<number>`(${db
      .select({ n: sql`count(*)::int` })
      .from(table)
      .where(where)})`;
  const [counted] = await db
    .select({
      moderations: count(moderations, ofEvent(moderations.eventId)),
      allocations: count(moderationAllocations, ofEvent(moderationAllocations.eventId)),
      reviews: count(reviews, ofEvent(reviews.eventId)),
      flagged: sql<number>`(${db
        .select({ n: sql`count(distinct ${reviewFlags.reviewId})::int` })
        .from(reviewFlags)
        .where(ofEvent(reviewFlags.eventId))})`,
    })
    .from(sql`(select 1) as one`);
  const perReview = db
    .select({ n: sql<number>`count(*)::int`.as('n') })
    .from(moderations)
    .where(ofEvent(moderations.eventId))
    .groupBy(moderations.reviewId)
    .as('per_review');
  const groups = await db
    .select({ moderations: perReview.n, reviews: sql<number>`count(*)::int` })
    .from(perReview)
    .groupBy(perReview.n);
  const buckets = { by_0: counted!.reviews, by_1: 0, by_2: 0, by_3: 0, by_more: 0 };
  for (const group of groups) {
    const key = group.moderations > 3 ? 'by_more' : (`by_${group.moderations}` as 'by_1' | 'by_2' | 'by_3');
    buckets[key] += group.reviews;
    buckets.by_0 -= group.reviews;
  }
  return {
    moderations: counted!.moderations,
    allocations: counted!.allocations,
    flagged_reviews: counted!.flagged,
    reviews_moderated: buckets,
  };
}

/**
 * The CSV exports as single SELECTs for PostgreSQL's `COPY (…) TO STDOUT WITH (FORMAT csv, HEADER)`: the same columns,
 * in the same order and with the same cells as csvStream writes from the pages above (booleans as true/false, text
 * through csvText). COPY takes no bind parameters: the event id is checked to be an integer and written in.
 */
const eventLiteral = (eventId: number) => {
  if (!Number.isSafeInteger(eventId)) throw new Error(`not an event id: ${eventId}`);
  return String(eventId);
};

/** The reviews CSV (light or full) of an event, id order; moderation counts from one grouping of the moderations. */
export function reviewExportCopy(eventId: number, full: boolean): CopyQuery {
  const extra = full
    ? `, r.proposal_id, ${csvText('p.pr_id')} as pr_id, ${csvText('p.title')} as proposal_title,
       ${csvText('s.anonymous_id')} as assessor, s.role as assessor_level, r.ranking,
       r.impact_alignment_rating_given, ${csvText('r.impact_alignment_note')} as impact_alignment_note,
       r.feasibility_rating_given, ${csvText('r.feasibility_note')} as feasibility_note,
       r.auditability_rating_given, ${csvText('r.auditability_note')} as auditability_note`
    : '';
  const query = `select (r.ranking = 1)::text as valid, r.id as row_id, s.user_id,
      coalesce(m.tot, 0) as moderations_tot, coalesce(m.as_valid, 0) as moderations_as_valid${extra}
    from reviews r
    join subscriptions s on s.id = r.subscription_id
    join proposals p on p.id = r.proposal_id
    left join (select review_id, count(*) as tot, count(*) filter (where classification = 1) as as_valid
               from moderations group by review_id) m on m.review_id = r.id
    where r.event_id = ${eventLiteral(eventId)}
    order by r.id`;
  const textColumns = ['pr_id', 'proposal_title', 'assessor', 'impact_alignment_note', 'feasibility_note', 'auditability_note'];
  return { query, textColumns: full ? textColumns : [] };
}

/** The moderations CSV, of one event or all, id order. */
export function moderationExportCopy(eventId: number | null): CopyQuery {
  const query = `select m.id as row_id, m.event_id, m.review_id, s.user_id, ${csvText('s.public_contact')} as public_contact,
      m.classification, ${csvText('m.predefined_reason')} as predefined_reason, ${csvText('m.rationale')} as rationale
    from moderations m join subscriptions s on s.id = m.subscription_id
    ${eventId === null ? '' : `where m.event_id = ${eventLiteral(eventId)}`}
    order by m.id`;
  return { query, textColumns: ['public_contact', 'predefined_reason', 'rationale'] };
}

/** The moderator stats CSV, of one event or all, user order. */
export function moderatorStatsCopy(eventId: number | null): CopyQuery {
  const query = `select s.user_id, count(distinct m.review_id) as reviews_moderated
    from moderations m join subscriptions s on s.id = m.subscription_id
    ${eventId === null ? '' : `where m.event_id = ${eventLiteral(eventId)}`}
    group by s.user_id order by s.user_id`;
  return { query, textColumns: [] };
}
