import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import type { CachedTotal } from '../../lib/count-cache';
import { nameOfText, perDatabase } from '../../db/named-statements';
import { activeReviewerSubscription, reviewVisibleTo } from '../../db/rules';
import type { ReviewVisibility } from '../../domain/rules';
import { catalystIds, categories, proposalAllocations, proposals, reviews, subscriptions, users } from '../../db/schema/index';

export type ReviewInsert = typeof reviews.$inferInsert;

const columns = {
  review: reviews,
  proposalTitle: proposals.title,
  proposalPrId: proposals.prId,
  proposalUrl: proposals.url,
  categoryTitle: categories.title,
  assessor: subscriptions.anonymousId,
  assessorLevel: subscriptions.role,
  allocated: sql<boolean>`exists (select 1 from ${proposalAllocations} a where a.subscription_id = ${reviews.subscriptionId} and a.proposal_id = ${reviews.proposalId})`,
};

const joined = (db: DbOrTx) =>
  db
    .select(columns)
    .from(reviews)
    .innerJoin(proposals, eq(proposals.id, reviews.proposalId))
    .innerJoin(subscriptions, eq(subscriptions.id, reviews.subscriptionId))
    .leftJoin(categories, eq(categories.id, proposals.categoryId));
export type ReviewRow = Awaited<ReturnType<ReturnType<typeof joined>['execute']>>[number];

export interface ReviewFilter {
  proposalId?: number | undefined;
  proposalTitle?: string | undefined;
  objective?: number | undefined;
  /** The objective's title, exactly but for case (the reference API filters by it). */
  objectiveTitle?: string | undefined;
  subscriptionIds?: number[] | undefined;
  assessors?: string[] | undefined;
  rankings?: number[] | undefined;
  eventId?: number | undefined;
}

const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function filterWhere(filter: ReviewFilter): SQL[] {
  const parts: SQL[] = [];
  if (filter.proposalId) parts.push(eq(reviews.proposalId, filter.proposalId));
  if (filter.eventId) parts.push(eq(reviews.eventId, filter.eventId));
  if (filter.subscriptionIds)
    parts.push(filter.subscriptionIds.length > 0 ? inArray(reviews.subscriptionId, filter.subscriptionIds) : sql`false`);
  if (filter.rankings && filter.rankings.length > 0) parts.push(inArray(reviews.ranking, filter.rankings));
  if (filter.assessors && filter.assessors.length > 0) {
    parts.push(
      sql`${reviews.subscriptionId} in (select id from ${subscriptions} where ${inArray(subscriptions.anonymousId, filter.assessors)})`,
    );
  }
  if (filter.objective) parts.push(eq(reviews.categoryId, filter.objective));
  if (filter.objectiveTitle)
    parts.push(
      sql`${reviews.categoryId} in (select id from ${categories} where lower(${categories.title}) = ${filter.objectiveTitle.toLowerCase()})`,
    );
  if (filter.proposalTitle)
    parts.push(
      sql`${reviews.proposalId} in (select id from ${proposals} where lower(${proposals.title}) like ${likePattern(filter.proposalTitle)})`,
    );
  return parts;
}

/** A page of reviews, newest first by id, and the total (spec §2.13). */
export async function listReviews(
  db: DbOrTx,
  filter: ReviewFilter,
  visibility: ReviewVisibility,
  page: { size: number; page: number },
  cachedTotal: CachedTotal = (_key, load) => load(),
) {
  const where = and(reviewVisibleTo(visibility), ...filterWhere(filter));
  const ids = db
    .select({ id: reviews.id })
    .from(reviews)
    .where(where)
    .orderBy(sql`${reviews.id} desc`)
    .limit(page.size)
    .offset(page.size * page.page)
    .as('page_ids');
  const query = joined(db)
    .innerJoin(ids, eq(ids.id, reviews.id))
    .orderBy(sql`${reviews.id} desc`);
  // A named statement per filter shape: planning this join costs PostgreSQL more than running it for a page.
  const rows = await query.prepare(nameOfText('reviews_page', query.toSQL().sql)).execute();
  const total = await cachedTotal(
    JSON.stringify({ filter, visibility }),
    async () => (await db.select({ total: count() }).from(reviews).where(where))[0]?.total ?? 0,
  );
  return { rows, total };
}

/** One review; with a visibility, only when the viewer may see it. */
export async function findReview(db: DbOrTx, id: number, visibility?: ReviewVisibility) {
  const rows = await joined(db)
    .where(and(eq(reviews.id, id), visibility && reviewVisibleTo(visibility)))
    .limit(1);
  return rows[0];
}

export async function findReviewsByIds(db: DbOrTx, ids: number[], visibility: ReviewVisibility) {
  if (ids.length === 0) return [];
  return joined(db)
    .where(and(inArray(reviews.id, ids), reviewVisibleTo(visibility)))
    .orderBy(asc(reviews.id));
}

const listedQuery = (db: DbOrTx) =>
  joined(db)
    .where(sql`${reviews.id} = any(${sql.placeholder('ids')}::int[])`)
    .prepare('reviews_listed');
/** Built once per database: building a query costs more than it takes PostgreSQL to run this one. */
const listedQueries = perDatabase(listedQuery);

/**
 * These reviews, in no order and without a visibility filter (lists whose rows the caller sees by another right), as
 * a named statement (db/named-statements: parsed and planned once per connection).
 */
export async function findListedReviews(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return [];
  return listedQueries(db).execute({ ids });
}

export async function findOwnReview(db: DbOrTx, proposalId: number, subscriptionIds: number[]) {
  if (subscriptionIds.length === 0) return undefined;
  const rows = await joined(db)
    .where(and(eq(reviews.proposalId, proposalId), inArray(reviews.subscriptionId, subscriptionIds)))
    .limit(1);
  return rows[0];
}

/** A review row alone, without its version: bulk writers (the demo) add the versions after (review-versions.repository). */
export async function insertReview(db: DbOrTx, values: ReviewInsert) {
  const rows = await db.insert(reviews).values(values).returning();
  return rows[0]!;
}

export async function findProposalForReview(db: DbOrTx, proposalId: number) {
  const rows = await db
    .select({
      id: proposals.id,
      eventId: proposals.eventId,
      categoryId: proposals.categoryId,
      title: proposals.title,
      prId: proposals.prId,
      url: proposals.url,
      categoryTitle: categories.title,
    })
    .from(proposals)
    .leftJoin(categories, eq(categories.id, proposals.categoryId))
    .where(eq(proposals.id, proposalId))
    .limit(1);
  return rows[0];
}

/**
 * In one query, what a review write needs to know about its writer: their active LV0/LV1 subscription to the event
 * (with its anonymous id and level), their account's status, on-chain registration and Catalyst ID, and whether
 * the proposal is allocated to them.
 */
export async function writerContext(db: DbOrTx, userId: number, eventId: number, proposalId: number) {
  const rows = await db
    .select({
      subscriptionId: subscriptions.id,
      anonymousId: subscriptions.anonymousId,
      role: subscriptions.role,
      status: catalystIds.status,
      rbacRegStatus: catalystIds.rbacRegStatus,
      catalystId: catalystIds.catalystId,
      allocated: sql<boolean>`exists (select 1 from ${proposalAllocations} a where a.subscription_id = ${subscriptions.id} and a.proposal_id = ${proposalId})`,
    })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .innerJoin(catalystIds, eq(catalystIds.id, users.catalystIdRef))
    .where(and(eq(subscriptions.userId, userId), activeReviewerSubscription(eventId)))
    .limit(1);
  return rows[0];
}
