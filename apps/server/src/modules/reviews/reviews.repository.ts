import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import type { CachedTotal } from '../../lib/count-cache';
import { nameOfText, perDatabase, preparedRows } from '../../db/named-statements';
import {
  mineCte,
  moderationCtes,
  moderationLateral,
  moderatorReviews,
  reviewModerationColumns,
  type ReviewModerationRow,
} from '../../db/review-moderation';
import { activeReviewerSubscription, reviewVisibleTo } from '../../db/rules';
import type { ReviewVisibility } from '../../domain/rules';
import {
  catalystIds,
  categories,
  moderationAllocations,
  proposalAllocations,
  proposals,
  reviews,
  subscriptions,
  users,
} from '../../db/schema/index';

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

/**
 * The columns of a review answer's row (ReviewRow) from `r` (reviews) and `rowJoins`, under the names `toReviewRow`
 * reads; `proposalAllocated` is ReviewRow's `allocated` (the moderation columns have an `allocated` of their own).
 */
const rowColumns = sql`r.id, r.event_id as "eventId", r.proposal_id as "proposalId", r.subscription_id as "subscriptionId",
  r.category_id as "categoryId", r.impact_alignment_rating_given as "impactRating", r.impact_alignment_note as "impactNote",
  r.feasibility_rating_given as "feasibilityRating", r.feasibility_note as "feasibilityNote",
  r.auditability_rating_given as "auditabilityRating", r.auditability_note as "auditabilityNote", r.ranking,
  r.created_at as "createdAt", r.updated_at as "updatedAt", p.title as "proposalTitle", p.pr_id as "proposalPrId",
  p.url as "proposalUrl", c.title as "categoryTitle", s.anonymous_id as assessor, s.role as "assessorLevel",
  exists (select 1 from ${proposalAllocations} a where a.subscription_id = r.subscription_id and a.proposal_id = r.proposal_id)
    as "proposalAllocated"`;
const rowJoins = sql`join ${proposals} p on p.id = r.proposal_id join ${subscriptions} s on s.id = r.subscription_id
  left join ${categories} c on c.id = p.category_id`;

/** A row of rowColumns and reviewModerationColumns, as the driver gives it (timestamps as PostgreSQL's text). */
type RawRow = Omit<ReviewRow['review'], 'createdAt' | 'updatedAt'> &
  Omit<ReviewRow, 'review' | 'allocated'> &
  Omit<ReviewModerationRow, 'id' | 'eventId'> & { createdAt: string; updatedAt: string; proposalAllocated: boolean; total?: number };

/** A review's row and what it carries about moderation for the viewer, read in one statement. */
export interface ReviewWithModeration {
  row: ReviewRow;
  moderation: ReviewModerationRow;
}

/** The raw row as ReviewRow (as drizzle maps the same columns: timestamps with their zone to Date) and its moderation. */
function toReviewWithModeration(raw: RawRow): ReviewWithModeration {
  return {
    row: {
      review: {
        id: raw.id,
        eventId: raw.eventId,
        proposalId: raw.proposalId,
        subscriptionId: raw.subscriptionId,
        categoryId: raw.categoryId,
        impactRating: raw.impactRating,
        impactNote: raw.impactNote,
        feasibilityRating: raw.feasibilityRating,
        feasibilityNote: raw.feasibilityNote,
        auditabilityRating: raw.auditabilityRating,
        auditabilityNote: raw.auditabilityNote,
        ranking: raw.ranking,
        createdAt: new Date(raw.createdAt),
        updatedAt: new Date(raw.updatedAt),
      },
      proposalTitle: raw.proposalTitle,
      proposalPrId: raw.proposalPrId,
      proposalUrl: raw.proposalUrl,
      categoryTitle: raw.categoryTitle,
      assessor: raw.assessor,
      assessorLevel: raw.assessorLevel,
      allocated: raw.proposalAllocated,
    },
    moderation: {
      id: raw.id,
      eventId: raw.eventId,
      flags: raw.flags,
      allocated: raw.allocated,
      own: raw.own,
      anyModeration: raw.anyModeration,
      nextAllocation: raw.nextAllocation,
    },
  };
}

/**
 * A statement answering review rows with their moderation fields for the `viewer` placeholder (db/review-moderation),
 * built once and run by name: its text is not built again per request, nor parsed and planned again per connection.
 * `page`: a common table expression `page` the rows come from; `isListed`: which reviews the moderation part reads.
 */
function withModeration(
  db: DbOrTx,
  name: string,
  parts: { page?: SQL; from: SQL; where?: SQL; orderBy?: SQL; isListed: (id: SQL) => SQL; total?: SQL },
) {
  const run = preparedRows<RawRow>(
    db,
    name,
    sql`with ${mineCte(sql.placeholder('viewer'))}, ${parts.page ? sql`page as materialized (${parts.page}), ` : sql``}
    ${moderationCtes(parts.isListed)}
    select ${rowColumns}, ${reviewModerationColumns}${parts.total ? sql`, ${parts.total} as total` : sql``}
    from ${parts.from} ${rowJoins} ${moderationLateral}
    ${parts.where ? sql`where ${parts.where}` : sql``} ${parts.orderBy ? sql`order by ${parts.orderBy}` : sql``}`,
  );
  return async (values: Record<string, unknown>) => {
    const rows = await run(values);
    return { rows: rows.map(toReviewWithModeration), total: rows[0]?.total };
  };
}

/**
 * Which conditions a list or by-ids statement has: one statement (and one name) per shape. One value as an equality,
 * several as `= any(array)`: with one event, the (event, id) index yields the page in id order, where `= any` of an
 * array would read and sort every match first.
 */
type Many = 'none' | 'empty' | 'one' | 'some';
const many = (values: unknown[] | undefined): Many =>
  values === undefined ? 'none' : values.length === 0 ? 'empty' : values.length === 1 ? 'one' : 'some';

/**
 * A visibility whose own part (the viewer's subscriptions to events not open to all: domain/rules `reviewVisibility`)
 * is read by the statement itself from the `viewer` placeholder, instead of by a statement of its own before it.
 */
export interface ViewerVisibility {
  all: boolean;
  /** The events whose reviews are open to all. */
  eventIds: number[];
  /** Whether there is a viewer whose own reviews and moderation allocations count. */
  signedIn: boolean;
}

interface VisibilityShape {
  all: boolean;
  events: Many;
  /** The own subscriptions: none, given (`own`), or the viewer's read in SQL (ViewerVisibility). */
  own: 'none' | 'ids' | 'viewer';
}
const visibilityShape = (visibility: ReviewVisibility): VisibilityShape => ({
  all: visibility.all,
  events: many(visibility.eventIds),
  own: visibility.ownSubscriptionIds.length > 0 ? 'ids' : 'none',
});
const viewerVisibilityShape = (visibility: ViewerVisibility): VisibilityShape => ({
  all: visibility.all,
  events: many(visibility.eventIds),
  own: visibility.signedIn ? 'viewer' : 'none',
});

/** db/rules.ts `reviewVisibleTo` with placeholders (`visibleEvent(s)`, `own` or `viewer`) on `r`. */
function visibilitySql(shape: VisibilityShape): SQL | undefined {
  if (shape.all) return undefined;
  const parts: SQL[] = [];
  if (shape.events === 'one') parts.push(sql`r.event_id = ${sql.placeholder('visibleEvent')}`);
  if (shape.events === 'some') parts.push(sql`r.event_id = any(${sql.placeholder('visibleEvents')}::int[])`);
  if (shape.own !== 'none') {
    const own =
      shape.own === 'ids'
        ? sql`${sql.placeholder('own')}::int[]`
        : sql`array(select so.id from ${subscriptions} so
            where so.user_id = ${sql.placeholder('viewer')} and so.event_id <> all(${sql.placeholder('visibleEvents')}::int[]))`;
    parts.push(sql`r.subscription_id = any(${own})`);
    parts.push(sql`r.id in (select ma.review_id from ${moderationAllocations} ma where ma.subscription_id = any(${own}))`);
  }
  return parts.length > 0 ? sql`(${sql.join(parts, sql` or `)})` : sql`false`;
}
const visibilityValues = (visibility: { eventIds: number[]; ownSubscriptionIds?: number[] }) => ({
  visibleEvent: visibility.eventIds[0],
  visibleEvents: visibility.eventIds,
  own: visibility.ownSubscriptionIds,
});

interface FilterShape {
  proposalId: boolean;
  eventId: boolean;
  subscriptionIds: Many;
  rankings: Many;
  assessors: boolean;
  objective: boolean;
  objectiveTitle: boolean;
  proposalTitle: boolean;
}
const filterShape = (filter: ReviewFilter): FilterShape => ({
  proposalId: Boolean(filter.proposalId),
  eventId: Boolean(filter.eventId),
  subscriptionIds: many(filter.subscriptionIds),
  rankings: many(filter.rankings),
  assessors: Boolean(filter.assessors && filter.assessors.length > 0),
  objective: Boolean(filter.objective),
  objectiveTitle: Boolean(filter.objectiveTitle),
  proposalTitle: Boolean(filter.proposalTitle),
});

/** `filterWhere` with placeholders on `r`. */
function filterSql(shape: FilterShape): SQL[] {
  const parts: SQL[] = [];
  if (shape.proposalId) parts.push(sql`r.proposal_id = ${sql.placeholder('proposalId')}`);
  if (shape.eventId) parts.push(sql`r.event_id = ${sql.placeholder('eventId')}`);
  if (shape.subscriptionIds === 'empty') parts.push(sql`false`);
  if (shape.subscriptionIds === 'one' || shape.subscriptionIds === 'some')
    parts.push(sql`r.subscription_id = any(${sql.placeholder('subscriptionIds')}::int[])`);
  if (shape.rankings === 'one') parts.push(sql`r.ranking = ${sql.placeholder('ranking')}`);
  if (shape.rankings === 'some') parts.push(sql`r.ranking = any(${sql.placeholder('rankings')}::int[])`);
  if (shape.assessors)
    parts.push(
      sql`r.subscription_id in (select sa.id from ${subscriptions} sa where sa.anonymous_id = any(${sql.placeholder('assessors')}::text[]))`,
    );
  if (shape.objective) parts.push(sql`r.category_id = ${sql.placeholder('objective')}`);
  if (shape.objectiveTitle)
    parts.push(sql`r.category_id in (select co.id from ${categories} co where lower(co.title) = ${sql.placeholder('objectiveTitle')})`);
  if (shape.proposalTitle)
    parts.push(sql`r.proposal_id in (select pt.id from ${proposals} pt where lower(pt.title) like ${sql.placeholder('proposalTitle')})`);
  return parts;
}
const filterValues = (filter: ReviewFilter) => ({
  proposalId: filter.proposalId,
  eventId: filter.eventId,
  subscriptionIds: filter.subscriptionIds,
  ranking: filter.rankings?.[0],
  rankings: filter.rankings,
  assessors: filter.assessors,
  objective: filter.objective,
  objectiveTitle: filter.objectiveTitle?.toLowerCase(),
  proposalTitle: filter.proposalTitle === undefined ? undefined : likePattern(filter.proposalTitle),
});

/** The statements built so far per database, by shape. */
const statements = perDatabase(() => new Map<string, ReturnType<typeof withModeration>>());
function statementOf(db: DbOrTx, prefix: string, shape: object, build: () => Parameters<typeof withModeration>[2]) {
  const key = `${prefix} ${JSON.stringify(shape)}`;
  const built = statements(db);
  let statement = built.get(key);
  if (!statement) built.set(key, (statement = withModeration(db, nameOfText(prefix, key), build())));
  return statement;
}

/**
 * A page of reviews, newest first by id, with their moderation fields for the viewer (`viewerId`, null: anonymous),
 * in one statement; and the total (spec §2.13), kept by `cachedTotal`. The page's ids come first from the reviews
 * alone (a narrow index scan, however deep the page), then only those are joined.
 */
export async function listReviews(
  db: DbOrTx,
  filter: ReviewFilter,
  visibility: ReviewVisibility,
  page: { size: number; page: number },
  viewerId: number | null,
  cachedTotal: CachedTotal = (_key, load) => load(),
) {
  const shape = { filter: filterShape(filter), visibility: visibilityShape(visibility) };
  const statement = statementOf(db, 'reviews_page', shape, () => {
    const where = [visibilitySql(shape.visibility), ...filterSql(shape.filter)].filter((part): part is SQL => part !== undefined);
    return {
      page: sql`select r.id from ${reviews} r ${where.length > 0 ? sql`where ${sql.join(where, sql` and `)}` : sql``}
        order by r.id desc limit ${sql.placeholder('limit')} offset ${sql.placeholder('offset')}`,
      from: sql`page join ${reviews} r on r.id = page.id`,
      orderBy: sql`r.id desc`,
      isListed: (id) => sql`${id} in (select page.id from page)`,
    };
  });
  const [{ rows }, total] = await Promise.all([
    page.size === 0
      ? Promise.resolve({ rows: [] })
      : statement({
          ...filterValues(filter),
          ...visibilityValues(visibility),
          limit: page.size,
          offset: page.size * page.page,
          viewer: viewerId ?? 0,
        }),
    countReviews(db, filter, visibility, cachedTotal),
  ]);
  return { rows, total };
}

/** How many reviews the filter finds under the visibility, kept by `cachedTotal`. */
export function countReviews(
  db: DbOrTx,
  filter: ReviewFilter,
  visibility: ReviewVisibility,
  cachedTotal: CachedTotal = (_key, load) => load(),
) {
  return cachedTotal(JSON.stringify({ filter, visibility }), async () => {
    const where = and(reviewVisibleTo(visibility), ...filterWhere(filter));
    return (await db.select({ total: count() }).from(reviews).where(where))[0]?.total ?? 0;
  });
}

/** One review; with a visibility, only when the viewer may see it. */
export async function findReview(db: DbOrTx, id: number, visibility?: ReviewVisibility) {
  const rows = await joined(db)
    .where(and(eq(reviews.id, id), visibility && reviewVisibleTo(visibility)))
    .limit(1);
  return rows[0];
}

/**
 * These reviews that the viewer may see, in id order, with their moderation fields for the viewer: one statement, which
 * reads the viewer's own subscriptions itself (ViewerVisibility).
 */
export async function findReviewsByIds(db: DbOrTx, ids: number[], visibility: ViewerVisibility, viewerId: number | null) {
  if (ids.length === 0) return [];
  const shape = viewerVisibilityShape(visibility);
  const statement = statementOf(db, 'reviews_by_ids', shape, () => ({
    from: sql`${reviews} r`,
    where: sql`r.id = any(${sql.placeholder('ids')}::int[])${shape.all ? sql`` : sql` and ${visibilitySql(shape)}`}`,
    orderBy: sql`r.id`,
    isListed: (id) => sql`${id} = any(${sql.placeholder('ids')}::int[])`,
  }));
  return (await statement({ ids, ...visibilityValues(visibility), viewer: viewerId ?? 0 })).rows;
}

/** The moderator's page of review ids and the list's total (moderations repository's page statement, by name here). */
const moderatorIdsStatements = perDatabase((db) => {
  const build = (which: 'allocated' | 'moderated') =>
    preparedRows<{ total: number; ids: number[] }>(
      db,
      `reviews_moderator_ids_${which}`,
      sql`with ${mineCte(sql.placeholder('viewer'))}
      select (select count(*)::int from ${moderatorReviews(which)}) as total,
        array(select t.review_id from ${moderatorReviews(which)}
          order by t.review_id limit ${sql.placeholder('limit')} offset ${sql.placeholder('offset')}) as ids`,
    );
  return { allocated: build('allocated'), moderated: build('moderated') };
});

/**
 * A page of the moderator's list (db/review-moderation `moderatorReviews`: the reviews allocated to the viewer, or
 * those they moderated) in review order, with the moderation fields, and the list's total: two statements, the page's
 * ids and total, then the rows with their moderation fields. (One statement doing both cost PostgreSQL more: planned
 * anew on every run, it was slower than the two together.)
 */
export async function findModeratorPage(
  db: DbOrTx,
  which: 'allocated' | 'moderated',
  viewerId: number,
  page: { size: number; page: number },
): Promise<{ rows: ReviewWithModeration[]; total: number }> {
  const [head] = await moderatorIdsStatements(db)[which]({ viewer: viewerId, limit: page.size, offset: page.size * page.page });
  const ids = head?.ids ?? [];
  const total = head?.total ?? 0;
  if (ids.length === 0) return { rows: [], total };
  const statement = statementOf(db, 'reviews_listed', {}, () => ({
    from: sql`${reviews} r`,
    where: sql`r.id = any(${sql.placeholder('ids')}::int[])`,
    orderBy: sql`r.id`,
    isListed: (id) => sql`${id} = any(${sql.placeholder('ids')}::int[])`,
  }));
  return { rows: (await statement({ ids, viewer: viewerId })).rows, total };
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
