import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import type { CachedTotal } from '../../lib/count-cache';
import { nameOfText, perDatabase, preparedRows } from '../../db/named-statements';
import {
  mineCte,
  moderationCtes,
  moderationLateral,
  moderatorReviews,
  ownModerationLateral,
  wireModerationColumns,
} from '../../db/review-moderation';
import { isoText } from '../../db/iso-text';
import { activeReviewerSubscription, reviewVisibleTo } from '../../db/rules';
import type { ReviewVisibility } from '../../domain/rules';
import {
  catalystIds,
  categories,
  moderationAllocations,
  moderations,
  proposalAllocations,
  proposals,
  reviews,
  reviewVersions,
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

const rowJoins = sql`join ${proposals} p on p.id = r.proposal_id join ${subscriptions} s on s.id = r.subscription_id
  left join ${categories} c on c.id = p.category_id`;

/**
 * The wire answer of review `r` for the viewer (contract `reviewPublic`, its fields in its order, as reviews.service
 * `toReviewPublic` and the moderations service's `moderationFromRows` make it for one review) as columns: row_to_json of
 * a row of them is the answer's text. `overall_score` is the contract's `overallScore` (a mean of three ratings rounded
 * to a tenth), as a double so that it is written as JavaScript writes the number. Needs `rowJoins`, the moderation
 * CTEs and laterals (db/review-moderation), and the `seeAll` and `publicEvents` placeholders.
 */
const wireModeration = wireModerationColumns(
  sql`(${sql.placeholder('seeAll')}::boolean or r.event_id = any(${sql.placeholder('publicEvents')}::int[]))`,
);
const wireReviewColumns = sql`r.id as row_id, r.proposal_id,
  (select row_to_json(pr) from (select p.id as row_id, p.pr_id, p.title, p.url, c.title as category, c.title as objective_title,
    r.event_id) pr) as proposal,
  s.anonymous_id as assessor, s.role as assessor_level,
  exists (select 1 from ${proposalAllocations} a where a.subscription_id = r.subscription_id and a.proposal_id = r.proposal_id)
    as allocated,
  ${wireModeration.allocatedForModeration}, ${wireModeration.nextAllocation}, r.ranking, ${wireModeration.moderation},
  ${wireModeration.moderated}, ${wireModeration.flags},
  r.impact_alignment_rating_given, r.impact_alignment_note, r.feasibility_rating_given, r.feasibility_note,
  r.auditability_rating_given, r.auditability_note,
  (round((r.impact_alignment_rating_given + r.feasibility_rating_given + r.auditability_rating_given) * 10 / 3.0) / 10)::float8
    as overall_score,
  r.event_id as event, ${isoText(sql`r.created_at`)} as created_at, ${isoText(sql`r.updated_at`)} as updated_at`;

/** Who sees whether others moderated a review: an admin everything, anyone the events whose moderations are public. */
export interface ModerationSight {
  all: boolean;
  publicEvents: number[];
}

/**
 * A statement answering the wire answers of reviews (`wireReviewColumns`) for the `viewer` placeholder as one JSON
 * array (text), built once and run by name: its text is not built again per request, nor parsed and planned again per
 * connection, and the server neither parses the rows nor serialises them again (as the proposals list, issue 30 item
 * 6). `page`: a common table expression `page` the rows come from; `isListed`: which reviews the moderation part reads;
 * `descending`: the answers newest first, else in id order; `columns`: more fields after the wire answer's own.
 */
function wireStatement(
  db: DbOrTx,
  name: string,
  parts: { page?: SQL; from: SQL; where?: SQL; descending: boolean; isListed: (id: SQL) => SQL; columns?: SQL },
) {
  const run = preparedRows<{ data: string }>(
    db,
    name,
    sql`with ${mineCte(sql.placeholder('viewer'))}, ${parts.page ? sql`page as materialized (${parts.page}), ` : sql``}
    ${moderationCtes(parts.isListed)}
    select coalesce(array_to_json(array_agg(w order by w.row_id ${parts.descending ? sql`desc` : sql`asc`})), '[]')::text as data
    from (select ${wireReviewColumns}${parts.columns ? sql`, ${parts.columns}` : sql``}
      from ${parts.from} ${rowJoins} ${moderationLateral} ${ownModerationLateral}
      ${parts.where ? sql`where ${parts.where}` : sql``}) w`,
  );
  return async (values: Record<string, unknown>, sight: ModerationSight) =>
    (await run({ ...values, seeAll: sight.all, publicEvents: sight.publicEvents }))[0]?.data ?? '[]';
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
const statements = perDatabase(() => new Map<string, ReturnType<typeof wireStatement>>());
function statementOf(db: DbOrTx, prefix: string, shape: object, build: () => Parameters<typeof wireStatement>[2]) {
  const key = `${prefix} ${JSON.stringify(shape)}`;
  const built = statements(db);
  let statement = built.get(key);
  if (!statement) built.set(key, (statement = wireStatement(db, nameOfText(prefix, key), build())));
  return statement;
}

/**
 * A page of reviews, newest first by id, as the JSON array of their wire answers for the viewer (`viewerId`, null:
 * anonymous), in one statement; and the total (spec §2.13), kept by `cachedTotal`. The page's ids come first from the
 * reviews alone (a narrow index scan, however deep the page), then only those are joined.
 */
export async function listReviewsJson(
  db: DbOrTx,
  filter: ReviewFilter,
  visibility: ReviewVisibility,
  page: { size: number; page: number },
  viewer: { id: number | null; sight: ModerationSight },
  cachedTotal: CachedTotal = (_key, load) => load(),
): Promise<{ data: string; total: number }> {
  const shape = { filter: filterShape(filter), visibility: visibilityShape(visibility) };
  const statement = statementOf(db, 'reviews_page_json', shape, () => {
    const where = [visibilitySql(shape.visibility), ...filterSql(shape.filter)].filter((part): part is SQL => part !== undefined);
    return {
      page: sql`select r.id from ${reviews} r ${where.length > 0 ? sql`where ${sql.join(where, sql` and `)}` : sql``}
        order by r.id desc limit ${sql.placeholder('limit')} offset ${sql.placeholder('offset')}`,
      from: sql`page join ${reviews} r on r.id = page.id`,
      descending: true,
      isListed: (id) => sql`${id} in (select page.id from page)`,
    };
  });
  const [data, total] = await Promise.all([
    page.size === 0
      ? Promise.resolve('[]')
      : statement(
          {
            ...filterValues(filter),
            ...visibilityValues(visibility),
            limit: page.size,
            offset: page.size * page.page,
            viewer: viewer.id ?? 0,
          },
          viewer.sight,
        ),
    countReviews(db, filter, visibility, cachedTotal),
  ]);
  return { data, total };
}

/** How many reviews the filter finds under the visibility, kept by `cachedTotal`. */
export function countReviews(
  db: DbOrTx,
  filter: ReviewFilter,
  visibility: ReviewVisibility,
  cachedTotal: CachedTotal = (_key, load) => load(),
) {
  // One reviewer's own reviews (`my_reviews`): a few entries of the subscription index, whatever the round's size.
  const bounded = filter.subscriptionIds !== undefined;
  return cachedTotal(
    JSON.stringify({ filter, visibility }),
    async () => {
      const where = and(reviewVisibleTo(visibility), ...filterWhere(filter));
      return (await db.select({ total: count() }).from(reviews).where(where))[0]?.total ?? 0;
    },
    { bounded },
  );
}

/** One review; with a visibility, only when the viewer may see it. */
export async function findReview(db: DbOrTx, id: number, visibility?: ReviewVisibility) {
  const rows = await joined(db)
    .where(and(eq(reviews.id, id), visibility && reviewVisibleTo(visibility)))
    .limit(1);
  return rows[0];
}

/**
 * These reviews that the viewer may see, in id order, as the JSON array of their wire answers for the viewer: one
 * statement, which reads the viewer's own subscriptions itself (ViewerVisibility).
 */
export async function findReviewsByIdsJson(
  db: DbOrTx,
  ids: number[],
  visibility: ViewerVisibility,
  viewer: { id: number | null; sight: ModerationSight },
): Promise<string> {
  if (ids.length === 0) return '[]';
  const shape = viewerVisibilityShape(visibility);
  const statement = statementOf(db, 'reviews_by_ids_json', shape, () => ({
    from: sql`${reviews} r`,
    where: sql`r.id = any(${sql.placeholder('ids')}::int[])${shape.all ? sql`` : sql` and ${visibilitySql(shape)}`}`,
    descending: false,
    isListed: (id) => sql`${id} = any(${sql.placeholder('ids')}::int[])`,
  }));
  return statement({ ids, ...visibilityValues(visibility), viewer: viewer.id ?? 0 }, viewer.sight);
}

/**
 * The detail's fields after the wire answer's (issue 28 item 3): how many times the review was edited, and for a
 * moderator of it whether it changed after their moderation (null for anyone else: left out of the answer).
 */
const detailColumns = sql`(select count(*)::int from ${reviewVersions} v where v.review_id = r.id and v.action = 'edit') as edit_count,
  (select max(v.created_at) from ${reviewVersions} v where v.review_id = r.id)
    > (select max(m.updated_at) from ${moderations} m join ${subscriptions} sm on sm.id = m.subscription_id
       where m.review_id = r.id and sm.user_id = ${sql.placeholder('viewer')}) as changed_after_moderation`;
const NO_CHANGE_FACT = ',"changed_after_moderation":null}';

/**
 * One review that the viewer may see, as its detail's JSON text for the viewer (the wire answer, `edit_count` and, for
 * its moderators, `changed_after_moderation`), or undefined: one named statement, which reads the viewer's own
 * subscriptions itself (issue 45 item 13: three statements and a mapped row before).
 */
export async function findReviewJson(
  db: DbOrTx,
  id: number,
  visibility: ViewerVisibility,
  viewer: { id: number | null; sight: ModerationSight },
): Promise<string | undefined> {
  const shape = viewerVisibilityShape(visibility);
  const statement = statementOf(db, 'review_detail_json', shape, () => ({
    from: sql`${reviews} r`,
    where: sql`r.id = ${sql.placeholder('id')}${shape.all ? sql`` : sql` and ${visibilitySql(shape)}`}`,
    descending: false,
    isListed: (listed) => sql`${listed} = ${sql.placeholder('id')}`,
    columns: detailColumns,
  }));
  const array = await statement({ id, ...visibilityValues(visibility), viewer: viewer.id ?? 0 }, viewer.sight);
  if (array === '[]') return undefined;
  const answer = array.slice(1, -1);
  return answer.endsWith(NO_CHANGE_FACT) ? `${answer.slice(0, -NO_CHANGE_FACT.length)}}` : answer;
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
 * those they moderated) in review order, as the JSON array of their wire answers, and the list's total: two
 * statements, the page's ids and total, then the answers. (One statement doing both cost PostgreSQL more: planned anew
 * on every run, it was slower than the two together.)
 */
export async function findModeratorPageJson(
  db: DbOrTx,
  which: 'allocated' | 'moderated',
  viewer: { id: number; sight: ModerationSight },
  page: { size: number; page: number },
): Promise<{ data: string; total: number }> {
  const [head] = await moderatorIdsStatements(db)[which]({ viewer: viewer.id, limit: page.size, offset: page.size * page.page });
  const ids = head?.ids ?? [];
  const total = head?.total ?? 0;
  if (ids.length === 0) return { data: '[]', total };
  const statement = statementOf(db, 'reviews_listed_json', {}, () => ({
    from: sql`${reviews} r`,
    where: sql`r.id = any(${sql.placeholder('ids')}::int[])`,
    descending: false,
    isListed: (id) => sql`${id} = any(${sql.placeholder('ids')}::int[])`,
  }));
  return { data: await statement({ ids, viewer: viewer.id }, viewer.sight), total };
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
