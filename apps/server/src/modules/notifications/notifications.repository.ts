import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { AccountStatus } from '@cr/contract/users';
import { SubscriptionStatus } from '@cr/contract/subscriptions';
import type { Language } from '@cr/contract/languages';
import type { NotificationKind } from '@cr/contract/notifications';
import type { DbOrTx } from '../../db/client';
import { catalystIds, notificationOptOuts, reminderRuns, users } from '../../db/schema/index';
import { rowsOf } from '../../db/rows';

/*
 * The notifications' SQL. Bulk notifications are queued by one INSERT … SELECT each (a reminder to 100,000 reviewers
 * is one statement): a row per person with `params` for the template and no bodies, keyed by `dedupe_key` so that a
 * repeated run queues nothing twice (ON CONFLICT DO NOTHING). The params hold the recipient's `language` (issue 31:
 * users.language, null when they chose none), the language the mail is rendered in at delivery. Only people who can act get one: an active account (not
 * inactive, not banned) with an e-mail address, an active subscription, and no opt-out of the kind.
 */

/** How many rows a `with queued as (insert … returning 1) select count(*)` statement inserted. */
async function countInserted(db: DbOrTx, insert: SQL): Promise<number> {
  const rows = rowsOf<{ queued: number | string }>(
    await db.execute(sql`with queued as (${insert} returning 1) select count(*)::int as queued from queued`),
  );
  return Number(rows[0]?.queued ?? 0);
}

/** Who may get a notification of this kind: joins `s` (a subscription) to its account `ci`, filters the rest out. */
const recipientOf = (kind: NotificationKind) => sql`
  join users u on u.id = s.user_id
  join catalyst_ids ci on ci.id = u.catalyst_id_ref
  where ci.status = ${AccountStatus.active} and ci.email is not null and s.status = ${SubscriptionStatus.active}
    and not exists (select 1 from notification_opt_outs o where o.user_id = s.user_id and o.kind = ${kind})`;

export interface BulkContext {
  eventId: number;
  eventName: string;
  /** The window's end the mail names (ISO), or null when none is set. */
  windowEnd: string | null;
}

/**
 * After a real proposal allocation: one mail per reviewer with their count of allocated proposals. The key holds a
 * digest of the reviewer's allocated proposals, so a run that gives them the same allocation again mails nothing
 * and one that changes it mails the new one.
 */
export function queueReviewAllocations(db: DbOrTx, context: BulkContext): Promise<number> {
  return countInserted(
    db,
    sql`insert into outbox (recipient, kind, user_id, event_id, params, dedupe_key)
      select ci.email, 'review_allocation', s.user_id, ${context.eventId},
        jsonb_build_object('event_name', ${context.eventName}::text, 'count', count(*), 'window_end', ${context.windowEnd}::text, 'language', u.language),
        'review_allocation:' || ${context.eventId}::int || ':' || s.user_id || ':' || md5(string_agg(a.proposal_id::text, ',' order by a.proposal_id))
      from proposal_allocations a
      join subscriptions s on s.id = a.subscription_id
      ${recipientOf('review_allocation')} and a.event_id = ${context.eventId}
      group by s.id, s.user_id, ci.email, u.language
      on conflict (dedupe_key) do nothing`,
  );
}

/** After the (irreversible) moderation allocation: one mail per moderator with their count of reviews to moderate. */
export function queueModerationAllocations(db: DbOrTx, context: BulkContext): Promise<number> {
  return countInserted(
    db,
    sql`insert into outbox (recipient, kind, user_id, event_id, params, dedupe_key)
      select ci.email, 'moderation_allocation', s.user_id, ${context.eventId},
        jsonb_build_object('event_name', ${context.eventName}::text, 'count', count(*), 'window_end', ${context.windowEnd}::text, 'language', u.language),
        'moderation_allocation:' || ${context.eventId}::int || ':' || s.user_id
      from moderation_allocations a
      join subscriptions s on s.id = a.subscription_id
      ${recipientOf('moderation_allocation')} and a.event_id = ${context.eventId}
      group by s.id, s.user_id, ci.email, u.language
      on conflict (dedupe_key) do nothing`,
  );
}

/**
 * After the review outcomes: one mail per reviewer of the round (who submitted a review), with their own figures and
 * the moderators' reasons for the reviews excluded by moderation.
 */
export function queueReviewOutcomes(db: DbOrTx, context: Omit<BulkContext, 'windowEnd'>): Promise<number> {
  return countInserted(
    db,
    sql`insert into outbox (recipient, kind, user_id, event_id, params, dedupe_key)
      select ci.email, 'review_outcomes', s.user_id, ${context.eventId},
        jsonb_build_object(
          'event_name', ${context.eventName}::text,
          'language', u.language,
          'submitted', count(*),
          'valid', count(*) filter (where r.ranking = 1),
          'excluded_moderation', count(*) filter (where r.ranking = 2),
          'excluded_threshold', count(*) filter (where r.ranking = 3),
          'reasons', (
            select coalesce(jsonb_object_agg(reason, n), '{}'::jsonb) from (
              select coalesce(m.predefined_reason, 'other') as reason, count(*) as n
              from reviews r2 join moderations m on m.review_id = r2.id and m.classification = 0
              where r2.subscription_id = s.id and r2.ranking = 2
              group by 1
            ) as reasons
          )
        ),
        'review_outcomes:' || ${context.eventId}::int || ':' || s.user_id
      from reviews r
      join subscriptions s on s.id = r.subscription_id
      ${recipientOf('review_outcomes')} and r.event_id = ${context.eventId}
      group by s.id, s.user_id, ci.email, u.language
      on conflict (dedupe_key) do nothing`,
  );
}

export interface ReminderContext extends BulkContext {
  windowEnd: string;
  hoursBefore: number;
}

const reminderKey = (kind: NotificationKind, context: ReminderContext) =>
  sql`${`${kind}:${context.eventId}:${Date.parse(context.windowEnd) / 1000}:${context.hoursBefore}:`}::text || s.user_id`;

const reminderParams = (context: ReminderContext) => sql`jsonb_build_object(
  'event_name', ${context.eventName}::text, 'done', count(x.id), 'total', count(*),
  'window_end', ${context.windowEnd}::text, 'hours_before', ${context.hoursBefore}::int, 'language', u.language)`;

/** A review-window reminder: one mail per reviewer with allocated proposals not yet reviewed ("7 of 20 reviewed"). */
export function queueReviewReminders(db: DbOrTx, context: ReminderContext): Promise<number> {
  return countInserted(
    db,
    sql`insert into outbox (recipient, kind, user_id, event_id, params, dedupe_key)
      select ci.email, 'review_reminder', s.user_id, ${context.eventId}, ${reminderParams(context)}, ${reminderKey('review_reminder', context)}
      from proposal_allocations a
      join subscriptions s on s.id = a.subscription_id
      left join reviews x on x.subscription_id = a.subscription_id and x.proposal_id = a.proposal_id
      ${recipientOf('review_reminder')} and a.event_id = ${context.eventId}
      group by s.id, s.user_id, ci.email, u.language
      having count(x.id) < count(*)
      on conflict (dedupe_key) do nothing`,
  );
}

/** A moderation-window reminder: one mail per moderator with allocated reviews not yet moderated. */
export function queueModerationReminders(db: DbOrTx, context: ReminderContext): Promise<number> {
  return countInserted(
    db,
    sql`insert into outbox (recipient, kind, user_id, event_id, params, dedupe_key)
      select ci.email, 'moderation_reminder', s.user_id, ${context.eventId}, ${reminderParams(context)}, ${reminderKey('moderation_reminder', context)}
      from moderation_allocations a
      join subscriptions s on s.id = a.subscription_id
      left join moderations x on x.subscription_id = a.subscription_id and x.review_id = a.review_id
      ${recipientOf('moderation_reminder')} and a.event_id = ${context.eventId}
      group by s.id, s.user_id, ci.email, u.language
      having count(x.id) < count(*)
      on conflict (dedupe_key) do nothing`,
  );
}

// ---------- one person ----------

/**
 * The account's e-mail address and chosen language (null: none chosen) when it may get a notification of this kind
 * (active, not opted out), else null.
 */
export async function notifiableRecipient(
  db: DbOrTx,
  userId: number,
  kind: NotificationKind,
): Promise<{ email: string; language: Language | null } | null> {
  const [row] = await db
    .select({ email: catalystIds.email, language: users.language })
    .from(users)
    .innerJoin(catalystIds, eq(catalystIds.id, users.catalystIdRef))
    .where(
      and(
        eq(users.id, userId),
        eq(catalystIds.status, AccountStatus.active),
        sql`not exists (select 1 from notification_opt_outs o where o.user_id = ${userId} and o.kind = ${kind})`,
      ),
    );
  return row?.email ? { email: row.email, language: row.language } : null;
}

export async function userExists(db: DbOrTx, userId: number): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  return row !== undefined;
}

export async function optedOutKinds(db: DbOrTx, userId: number): Promise<string[]> {
  const rows = await db.select({ kind: notificationOptOuts.kind }).from(notificationOptOuts).where(eq(notificationOptOuts.userId, userId));
  return rows.map((row) => row.kind);
}

export async function optOut(db: DbOrTx, userId: number, kinds: NotificationKind[]): Promise<void> {
  if (kinds.length === 0) return;
  await db
    .insert(notificationOptOuts)
    .values(kinds.map((kind) => ({ userId, kind })))
    .onConflictDoNothing();
}

export async function optIn(db: DbOrTx, userId: number, kinds: NotificationKind[]): Promise<void> {
  if (kinds.length === 0) return;
  await db.delete(notificationOptOuts).where(and(eq(notificationOptOuts.userId, userId), inArray(notificationOptOuts.kind, kinds)));
}

// ---------- reminder runs ----------

export interface ReminderRunKey {
  eventId: number;
  window: 'review' | 'moderation';
  hoursBefore: number;
  windowEnd: Date;
}

/**
 * Records a reminder as sent or skipped; answers false when it was recorded before (by this instance or another):
 * the primary key makes each reminder fire once. While the inserting transaction is open, another instance's insert
 * of the same row waits for it and then does nothing.
 */
export async function claimReminder(db: DbOrTx, key: ReminderRunKey, status: 'sent' | 'skipped'): Promise<boolean> {
  const rows = await db
    .insert(reminderRuns)
    .values({ ...key, status })
    .onConflictDoNothing()
    .returning({ eventId: reminderRuns.eventId });
  return rows.length > 0;
}

export async function setReminderQueued(db: DbOrTx, key: ReminderRunKey, queued: number): Promise<void> {
  await db
    .update(reminderRuns)
    .set({ queued })
    .where(
      and(
        eq(reminderRuns.eventId, key.eventId),
        eq(reminderRuns.window, key.window),
        eq(reminderRuns.hoursBefore, key.hoursBefore),
        eq(reminderRuns.windowEnd, key.windowEnd),
      ),
    );
}
