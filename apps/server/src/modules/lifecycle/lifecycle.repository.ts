import { sql, type SQL } from 'drizzle-orm';
import { closedCatalystId } from '@cr/contract/plain';
import { AccountStatus, UserRole } from '@cr/contract/users';
import type { DbOrTx } from '../../db/client';
import { reviewContent } from '../../db/version-content';
import { rowsOf } from '../../db/rows';

/*
 * Issue 47: the SQL of a ban, an unban and a closed account. Each function runs inside the caller's transaction.
 */

const run = async <T>(db: DbOrTx, query: SQL): Promise<T[]> => rowsOf<T>(await db.execute(query));

/**
 * The rounds that are finished: their review outcomes have been generated (as db/review-history reads "past"). What
 * an account wrote there is part of the round's published results; in every other round it is still in review.
 */
export const finishedEventIds = sql`(select c.event_id from configs c where c.kind = 'allocations' and c.event_id is not null
  and (c.value ->> 'review_outcomes_generated') = 'true')`;

export interface LifecycleAccount {
  userId: number;
  catalystIdRef: number;
  catalystId: string;
  email: string | null;
  role: number;
  status: number;
  passwordHash: string;
  bannedReason: string | null;
  bannedAt: string | null;
  statusBeforeBan: number | null;
  closedAt: string | null;
}

const accountSelect = sql`select u.id as "userId", c.id as "catalystIdRef", c.catalyst_id as "catalystId", c.email, u.role, c.status,
  u.password_hash as "passwordHash", u.banned_reason as "bannedReason", u.banned_at as "bannedAt",
  u.status_before_ban as "statusBeforeBan", u.closed_at as "closedAt"
  from users u join catalyst_ids c on c.id = u.catalyst_id_ref`;

/** The account, locked for the change (a ban and a close of one account never interleave). */
export async function lockAccount(tx: DbOrTx, by: { userId: number } | { catalystId: string }): Promise<LifecycleAccount | undefined> {
  const where = 'userId' in by ? sql`u.id = ${by.userId}` : sql`c.catalyst_id = ${by.catalystId}`;
  const [row] = await run<LifecycleAccount>(tx, sql`${accountSelect} where ${where} for update of u, c`);
  return row;
}

/** Administrators who can still act: neither banned nor closed. */
export async function countActingAdmins(tx: DbOrTx): Promise<number> {
  const [row] = await run<{ n: number }>(
    tx,
    sql`select count(*)::int as n from users u join catalyst_ids c on c.id = u.catalyst_id_ref
      where u.role = ${UserRole.admin} and c.status <> ${AccountStatus.banned} and u.closed_at is null`,
  );
  return Number(row?.n ?? 0);
}

/** Ends every session (refresh family) of the user: their access tokens answer 401 at their next request. */
export async function revokeSessions(tx: DbOrTx, userId: number): Promise<void> {
  await tx.execute(sql`update refresh_tokens set revoked_at = now() where user_id = ${userId} and revoked_at is null`);
}

export async function revokeApiTokens(tx: DbOrTx, userId: number): Promise<void> {
  await tx.execute(sql`update api_tokens set revoked_at = now() where user_id = ${userId} and revoked_at is null`);
}

/** E-mailed links (activation, reset, e-mail change) stop working. */
export async function expireOneTimeTokens(tx: DbOrTx, userId: number): Promise<void> {
  await tx.execute(sql`update one_time_tokens set used_at = now() where user_id = ${userId} and used_at is null`);
}

/** Mails still waiting to go to the account (by its id or its address) are kept as failed, with the reason. */
export async function failQueuedMails(tx: DbOrTx, account: { userId: number; email: string | null }, error: string): Promise<number> {
  const rows = await run<{ id: number }>(
    tx,
    sql`update outbox set status = 'failed', claimed_until = null, error = ${error}, next_attempt_at = now()
      where status = 'queued' and (user_id = ${account.userId} or (${account.email}::text is not null and lower(recipient) = lower(${account.email})))
      returning id`,
  );
  return rows.length;
}

export async function setBan(
  tx: DbOrTx,
  account: LifecycleAccount,
  ban: { reason: string; byUserId: number } | null,
): Promise<{ bannedAt: string | null }> {
  if (ban) {
    await tx.execute(sql`update catalyst_ids set status = ${AccountStatus.banned} where id = ${account.catalystIdRef}`);
    const [row] = await run<{ bannedAt: Date | string }>(
      tx,
      sql`update users set banned_reason = ${ban.reason}, banned_at = now(), banned_by = ${ban.byUserId},
        status_before_ban = ${account.status} where id = ${account.userId} returning banned_at as "bannedAt"`,
    );
    return { bannedAt: new Date(row!.bannedAt).toISOString() };
  }
  const status = account.statusBeforeBan ?? AccountStatus.active;
  await tx.execute(sql`update catalyst_ids set status = ${status} where id = ${account.catalystIdRef}`);
  await tx.execute(
    sql`update users set banned_reason = null, banned_at = null, banned_by = null, status_before_ban = null where id = ${account.userId}`,
  );
  return { bannedAt: null };
}

/**
 * The ban's "withdraw" (issue 47): the account's reviews in rounds still in review that no moderator has decided on
 * are deleted, each with a 'delete' version by the admin (as a review's own delete writes); their proposal
 * allocations in those rounds are freed for a re-run of the allocation.
 */
export async function withdrawOpenWork(tx: DbOrTx, userId: number, actorUserId: number) {
  const mine = sql`(select s.id from subscriptions s where s.user_id = ${userId})`;
  const reviews = await run<{ review_id: number }>(
    tx,
    sql`with d as (delete from reviews r where r.subscription_id in ${mine} and r.event_id not in ${finishedEventIds}
        and not exists (select 1 from moderations m where m.review_id = r.id) returning *)
      insert into review_versions (review_id, event_id, proposal_id, subscription_id, version, action, actor_user_id, content, created_at)
      select d.id, d.event_id, d.proposal_id, d.subscription_id,
        coalesce((select max(v.version) from review_versions v where v.review_id = d.id), 0) + 1, 'delete', ${actorUserId}::int,
        ${reviewContent('d')}, now()
      from d returning review_id`,
  );
  const allocations = await run<{ proposal_id: number }>(
    tx,
    sql`delete from proposal_allocations where subscription_id in ${mine} and event_id not in ${finishedEventIds} returning proposal_id`,
  );
  return { withdrawnReviews: reviews.length, freedAllocations: allocations.length };
}

/**
 * Closing an account (issue 47), after its sessions, tokens and mails: what it did in rounds still in review is
 * deleted (its subscriptions there, which take their reviews, moderations, allocations and appeals with them, and the
 * versions of those reviews and moderations); its subscriptions in finished rounds stay, under their anonymous ids,
 * without contact data; every personal column is erased or tombstoned as db/personal-columns.ts says.
 */
export async function eraseAccount(tx: DbOrTx, account: LifecycleAccount): Promise<{ deletedSubscriptions: number }> {
  const { userId } = account;
  const open = sql`(select s.id from subscriptions s where s.user_id = ${userId} and s.event_id not in ${finishedEventIds})`;
  await tx.execute(sql`delete from review_versions where subscription_id in ${open}`);
  await tx.execute(sql`delete from moderation_versions where subscription_id in ${open}`);
  const deleted = await run<{ id: number }>(tx, sql`delete from subscriptions where id in ${open} returning id`);
  await tx.execute(sql`update subscriptions set reward_address = null, public_contact = null, telegram_handle_private = null,
    verification_link = null, verification_ref = null where user_id = ${userId}`);
  for (const table of ['one_time_tokens', 'refresh_tokens', 'api_tokens', 'idempotency_keys', 'notification_opt_outs']) {
    await tx.execute(sql`delete from ${sql.identifier(table)} where user_id = ${userId}`);
  }
  // Mails to the person keep their row (the queue's counts) and nothing that was theirs.
  await tx.execute(sql`update outbox set recipient = 'erased', subject = null, text_body = null, html_body = null, link = null,
      params = null, headers = null, user_id = null,
      error = case when status in ('queued', 'sending') then 'recipient account closed' else error end,
      status = case when status in ('queued', 'sending') then 'failed' else status end, claimed_until = null
    where user_id = ${userId} or (${account.email}::text is not null and lower(recipient) = lower(${account.email}))`);
  // Rate-limit counters are keyed by Catalyst ID or user id (guess-guard, accounts.service).
  const keyed = (part: string) => sql`(right(key, ${part.length + 1}) = ${`:${part}`} or strpos(key, ${`:${part}:`}) > 0)`;
  await tx.execute(
    sql`delete from rate_limits where ${keyed(account.catalystId)} or ${keyed(`user:${userId}`)} or ${keyed(String(userId))}`,
  );
  // The audit log keeps who did what by user id; the words of the person's own entries that name something of theirs
  // (an API token's name, a contact) go, and the entry is marked redacted: its hash chain (issue 48) still verifies
  // and links through it, with its data counted as erased rather than checked. A round's entries (entity 'event') keep
  // their words: they name the round, not the person.
  const personalKeys = sql`array['name', 'email', 'catalyst_id', 'public_contact', 'telegram_handle_private', 'reward_address', 'username']`;
  const holdsPersonal = (column: string) =>
    sql`(jsonb_typeof(${sql.identifier(column)}) = 'object' and ${sql.identifier(column)} ?| ${personalKeys})`;
  await tx.execute(sql`update audit_log set before = case when jsonb_typeof(before) = 'object' then before - ${personalKeys} else before end,
      after = case when jsonb_typeof(after) = 'object' then after - ${personalKeys} else after end, redacted_at = now()
    where (actor_user_id = ${userId} or (entity = 'user' and entity_id = ${String(userId)})) and entity <> 'event'
      and (${holdsPersonal('before')} or ${holdsPersonal('after')})`);
  await tx.execute(sql`update users set password_hash = '!closed', role = ${UserRole.user}, force_reset = false,
      due_diligence_status = 0, due_diligence_url = null, due_diligence_ref = null, language = null,
      banned_reason = null, banned_at = null, banned_by = null, status_before_ban = null, closed_at = now()
    where id = ${userId}`);
  await tx.execute(sql`update catalyst_ids set catalyst_id = ${closedCatalystId(userId)}, email = null, email_verified_at = null,
      username = null, status = ${AccountStatus.inactive}, rbac_reg_status = 0, rbac_checked_at = null
    where id = ${account.catalystIdRef}`);
  return { deletedSubscriptions: deleted.length };
}
