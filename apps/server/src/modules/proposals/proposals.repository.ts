import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { activeReviewerSubscription } from '../../db/rules';
import { cachedRead } from '../../db/read-cache';
import { perDatabase, preparedRows } from '../../db/named-statements';
import { AccountStatus, RegistrationStatus } from '@cr/contract/users';
import {
  catalystIds,
  categories,
  events,
  proposalAllocations,
  proposalAuthors,
  proposals,
  proposalScores,
  reviews,
  subscriptions,
  users,
} from '../../db/schema/index';

export type ProposalInsert = typeof proposals.$inferInsert;

/** `%`, `_` and `\` in a user's filter match themselves. */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export interface ProposalFilter {
  eventIds?: number[] | undefined;
  title?: string | undefined;
  category?: number | undefined;
}

function filterWhere(filter: ProposalFilter): SQL | undefined {
  const parts: SQL[] = [];
  if (filter.eventIds) parts.push(filter.eventIds.length === 0 ? sql`false` : inArray(proposals.eventId, filter.eventIds));
  if (filter.title) parts.push(sql`lower(${proposals.title}) like ${likePattern(filter.title)}`);
  if (filter.category) parts.push(eq(proposals.categoryId, filter.category));
  return parts.length > 0 ? and(...parts) : undefined;
}

/**
 * The page statement of one filter shape (which events, and whether it has a title and a category), with
 * placeholders: built once and run as a named statement, which each pooled connection parses and plans once (its
 * planning costs more than its run). The page's ids come first from a narrow index-only scan, so a deep offset never
 * reads the rows it skips; only the 25 found are joined with their category. PostgreSQL answers the page as the wire's
 * JSON array (contract `proposalRow`, fields in its order, compact as JSON.stringify writes it): the server neither
 * parses 25 rows nor serialises them again — that was most of a list request's own CPU (issue 16). `has_reviewed` is
 * the viewer's (any subscription of theirs reviewed the proposal), false without a viewer.
 */
function pageStatement(db: DbOrTx, shape: PageShape) {
  const where: SQL[] = [];
  // One event (the usual case) as an equality: the (event, id) index then yields the page in id order, where
  // `= any(array)` would read and sort every match first.
  if (shape.events === 'one') where.push(sql`event_id = ${sql.placeholder('event')}`);
  if (shape.events === 'some') where.push(sql`event_id = any(${sql.placeholder('events')}::int[])`);
  if (shape.title) where.push(sql`lower(title) like ${sql.placeholder('title')}`);
  if (shape.category) where.push(sql`category_id = ${sql.placeholder('category')}`);
  const name = `proposals_page_json_${shape.events}${shape.title ? '_title' : ''}${shape.category ? '_category' : ''}`;
  return preparedRows<{ data: string }>(
    db,
    name,
    sql`select ${wireRowsJson(sql`
      select id from ${proposals} ${where.length > 0 ? sql`where ${and(...where)}` : sql``}
      order by id limit ${sql.placeholder('limit')} offset ${sql.placeholder('offset')}`)} as data`,
    // A title pattern's selectivity decides the plan (named-statements `planEachRun`).
    { planEachRun: shape.title },
  );
}

/**
 * The JSON array (text) of the wire rows (contract `proposalRow`, its fields in its order, compact as JSON.stringify
 * writes them) of the proposals whose ids `pageIds` selects, in id order; `has_reviewed` for the `viewer` placeholder.
 */
function wireRowsJson(pageIds: SQL) {
  const viewer = sql`${sql.placeholder('viewer')}::int`;
  return sql`(select coalesce(array_to_json(array_agg(page_row order by page_row.row_id)), '[]')::text from (
      select p.id as row_id, p.pr_id, p.title, p.category_id as objective, c.title as objective_title,
        c.title as category, p.funds, p.currency, p.proposer_name, p.summary, p.url, p.event_id,
        (${viewer} is not null and exists (
          select 1 from ${reviews} r
          where r.proposal_id = p.id and r.subscription_id in (select s.id from ${subscriptions} s where s.user_id = ${viewer})
        )) as has_reviewed
      from (${pageIds}) page_ids
      join ${proposals} p on p.id = page_ids.id
      left join ${categories} c on c.id = p.category_id
    ) page_row)`;
}

const allocatedStatement = perDatabase((db) =>
  preparedRows<{ data: string; total: number }>(
    db,
    'proposals_allocated_json',
    sql`select ${wireRowsJson(sql`
      select proposal_id as id from ${proposalAllocations}
      where subscription_id = any(${sql.placeholder('subscriptions')}::int[])
      order by proposal_id limit ${sql.placeholder('limit')} offset ${sql.placeholder('offset')}`)} as data,
      (select count(*)::int from ${proposalAllocations}
        where subscription_id = any(${sql.placeholder('subscriptions')}::int[])) as total`,
  ),
);

/**
 * A page of the proposals allocated to any of these subscriptions (the viewer's), in id order, as the JSON array of
 * its wire rows, and their total: one statement.
 */
export async function listAllocatedJson(
  db: DbOrTx,
  subscriptionIds: number[],
  page: { size: number; page: number },
  viewerId: number,
): Promise<{ data: string; total: number }> {
  if (subscriptionIds.length === 0) return { data: '[]', total: 0 };
  const [row] = await allocatedStatement(db)({
    subscriptions: subscriptionIds,
    limit: page.size,
    offset: page.size * page.page,
    viewer: viewerId,
  });
  return { data: row?.data ?? '[]', total: Number(row?.total ?? 0) };
}

type PageShape = { events: 'one' | 'some' | 'any'; title: boolean; category: boolean };
const pageStatements = perDatabase(() => new Map<string, ReturnType<typeof pageStatement>>());

/** A page of proposals in id order (spec §2.11), as the JSON array of its wire rows. */
export async function listProposalsJson(
  db: DbOrTx,
  filter: ProposalFilter,
  page: { size: number; page: number },
  viewerId: number | undefined,
): Promise<string> {
  const events = filter.eventIds === undefined ? 'any' : filter.eventIds.length === 1 ? 'one' : 'some';
  const shape: PageShape = { events, title: Boolean(filter.title), category: Boolean(filter.category) };
  const key = JSON.stringify(shape);
  const statements = pageStatements(db);
  let statement = statements.get(key);
  if (!statement) statements.set(key, (statement = pageStatement(db, shape)));
  const [row] = await statement({
    event: filter.eventIds?.[0],
    events: filter.eventIds ?? [],
    title: filter.title ? likePattern(filter.title) : undefined,
    category: filter.category,
    limit: page.size,
    offset: page.size * page.page,
    viewer: viewerId ?? null,
  });
  return row?.data ?? '[]';
}

export async function countProposals(db: DbOrTx, filter: ProposalFilter) {
  const rows = await db.select({ total: count() }).from(proposals).where(filterWhere(filter));
  return rows[0]?.total ?? 0;
}

/**
 * One proposal's wire answer (contract `proposalPublic`, its fields in its order) for the viewer, as JSON text written
 * by PostgreSQL in one named statement: the row with its category, `has_reviewed`, the authors' count and the score
 * (null until the proposal scores run wrote all four figures). The server neither maps nor serialises the row: a
 * single read's own CPU went mostly to building three statements and mapping their rows (issue 45 item 13). `extra`
 * is the stored JSON document as PostgreSQL writes jsonb (the same value, with a space after `:` and `,`).
 */
const proposalStatement = perDatabase((db) =>
  preparedRows<{ data: string }>(
    db,
    'proposal_detail_json',
    sql`select row_to_json(d)::text as data from (
      select p.id as row_id, p.pr_id, p.title, p.category_id as objective, c.title as objective_title,
        c.title as category, p.funds, p.currency, p.proposer_name, p.summary, p.url, p.event_id,
        (${sql.placeholder('viewer')}::int is not null and exists (
          select 1 from ${reviews} r
          where r.proposal_id = p.id and r.subscription_id in (
            select s.id from ${subscriptions} s where s.user_id = ${sql.placeholder('viewer')}::int)
        )) as has_reviewed,
        p.solution,
        (select count(*)::int from ${proposalAuthors} pa where pa.proposal_id = p.id) as authors_count,
        p.extra,
        (select row_to_json(sc) from (
          select ps.overall, ps.impact, ps.feasibility, ps.value_for_money from ${proposalScores} ps
          where ps.proposal_id = p.id and ps.overall is not null and ps.impact is not null
            and ps.feasibility is not null and ps.value_for_money is not null) sc) as score
      from ${proposals} p left join ${categories} c on c.id = p.category_id
      where p.id = ${sql.placeholder('id')}) d`,
  ),
);

/** The proposal's wire answer for the viewer (JSON text), or undefined when there is none. */
export async function findProposalJson(db: DbOrTx, id: number, viewerId: number | undefined): Promise<string | undefined> {
  const [row] = await proposalStatement(db)({ id, viewer: viewerId ?? null });
  return row?.data;
}

export async function activeEventIds(db: DbOrTx) {
  const rows = await db.select({ id: events.id }).from(events).where(eq(events.active, true));
  return rows.map((row) => row.id);
}

/** activeEventIds through the in-process read cache (db/read-cache), for the list. */
export const cachedActiveEventIds = (db: DbOrTx) => cachedRead(db, 'active-event-ids', () => activeEventIds(db));

/** The event's proposals by document id, with what the import needs to tell new, changed and unchanged apart. */
export async function existingByPrId(db: DbOrTx, eventId: number) {
  const rows = await db
    .select({ id: proposals.id, prId: proposals.prId, contentHash: proposals.contentHash })
    .from(proposals)
    .where(eq(proposals.eventId, eventId));
  return new Map(rows.map((row) => [row.prId, row]));
}

export async function insertProposals(db: DbOrTx, values: ProposalInsert[]) {
  if (values.length === 0) return [];
  return db.insert(proposals).values(values).returning({ id: proposals.id, prId: proposals.prId });
}

export async function updateProposal(db: DbOrTx, id: number, values: Partial<ProposalInsert>) {
  await db
    .update(proposals)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(proposals.id, id));
}

/**
 * Rows (or ids) per author statement (issue 26 item 3): an import writes up to 500 proposals' authors at once, and one
 * statement of them all could pass PostgreSQL's 65,535 bind parameters or overflow the query builder's stack.
 */
const AUTHOR_ROWS_PER_STATEMENT = 2_000;

export async function replaceAuthors(db: DbOrTx, proposalIds: number[], rows: { proposalId: number; catalystKey: string }[]) {
  for (let start = 0; start < proposalIds.length; start += AUTHOR_ROWS_PER_STATEMENT) {
    const batch = proposalIds.slice(start, start + AUTHOR_ROWS_PER_STATEMENT);
    await db.delete(proposalAuthors).where(inArray(proposalAuthors.proposalId, batch));
  }
  for (let start = 0; start < rows.length; start += AUTHOR_ROWS_PER_STATEMENT) {
    await db
      .insert(proposalAuthors)
      .values(rows.slice(start, start + AUTHOR_ROWS_PER_STATEMENT))
      .onConflictDoNothing();
  }
}

// ---------- allocation ----------

/**
 * The allocation's reviewers: the event's active LV0/LV1 subscriptions of accounts that may review (active, and
 * persistently registered on chain), with their Catalyst IDs.
 */
export async function allocationReviewers(db: DbOrTx, eventId: number) {
  return db
    .select({
      id: subscriptions.id,
      role: subscriptions.role,
      preferred: subscriptions.preferredCategories,
      catalystId: catalystIds.catalystId,
    })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .innerJoin(catalystIds, eq(catalystIds.id, users.catalystIdRef))
    .where(
      and(
        activeReviewerSubscription(eventId),
        eq(catalystIds.status, AccountStatus.active),
        eq(catalystIds.rbacRegStatus, RegistrationStatus.persistent),
      ),
    )
    .orderBy(asc(subscriptions.id));
}

export async function allocationProposals(db: DbOrTx, eventId: number) {
  return db
    .select({ id: proposals.id, category: proposals.categoryId })
    .from(proposals)
    .where(eq(proposals.eventId, eventId))
    .orderBy(asc(proposals.id));
}

export async function deleteAllocations(db: DbOrTx, eventId: number) {
  await db.delete(proposalAllocations).where(eq(proposalAllocations.eventId, eventId));
}

/** Writes allocation pairs in chunks through unnest (one statement per 20,000 rows, whatever the driver). */
export async function insertAllocations(db: DbOrTx, eventId: number, subscriptionIds: Int32Array, proposalIds: Int32Array) {
  const chunk = 20_000;
  for (let start = 0; start < subscriptionIds.length; start += chunk) {
    const s = Array.from(subscriptionIds.subarray(start, start + chunk));
    const p = Array.from(proposalIds.subarray(start, start + chunk));
    await db.execute(
      sql`insert into ${proposalAllocations} (event_id, subscription_id, proposal_id) select ${eventId}, s, p from unnest(${`{${s.join(',')}}`}::int[], ${`{${p.join(',')}}`}::int[]) as t(s, p)`,
    );
  }
}
