import { createCountCache } from '../../lib/count-cache';
import type { CatalystIdPublic, UserInfo } from '@cr/contract/users';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { events, proposalAllocations, reviews, subscriptions, users } from '../../db/schema/index';
import { notFound } from '../../errors';
import type { AuthUser } from '../../domain/auth-user';
import { displayCatalystId, normalizeCatalystId } from '@cr/contract/rules';
import { MAX_ROW_ID } from '@cr/contract/common';
import { RegistrationStatus } from '@cr/contract/users';
import type { CatalystRegistry } from '../../adapters/catalyst-registry';
import { unknownUserMessage, type LookupsService } from '../lookups/lookups.service';
import type { SubscriptionsService } from '../subscriptions/subscriptions.service';
import {
  findAccountByCatalystId,
  findAccountById,
  listAccounts,
  prepareSessionAccount,
  updateCatalystId,
  type AccountRow,
} from './accounts.repository';

export { unknownUserMessage };

/**
 * A user's username: the stored one, else the `username@` part of their Catalyst ID
 * (`id.catalyst://alice@cardano/…`), else none.
 */
export function usernameOf(account: { username: string | null; catalystId: string }): string | null {
  if (account.username) return account.username;
  const id = normalizeCatalystId(account.catalystId).id;
  const at = id.indexOf('@');
  const slash = id.indexOf('/');
  return at > 0 && (slash < 0 || at < slash) ? id.slice(0, at) : null;
}

export function toCatalystIdPublic(account: AccountRow): CatalystIdPublic {
  return {
    id: account.catalystId,
    email: account.email,
    email_verified: account.emailVerifiedAt !== null,
    username: usernameOf(account),
    status: account.status,
    rbac_reg_status: account.rbacRegStatus,
  };
}

const NO_HISTORY: UserInfo['extra']['historic_stats'] = {
  reviews: { active_funds: 0, submitted: 0, blank: 0, valid: 0, approval_rate: 0 },
  moderations: { active_funds: 0, submitted: 0 },
};

/**
 * The user info of spec §3. Subscriptions, the historic stats (past rounds' outcomes, the figures the level decision
 * reads) and objectives are filled by the modules that own them; the current event stats are counted here.
 */
export function createUserInfoService(
  db: Db,
  options: {
    /** The user's subscriptions (spec §3 `extra.subscriptions`). */
    subscriptions?: Pick<SubscriptionsService, 'ofUser' | 'historicStats'>;
    /** The objectives they authored in (`extra.unique_objectives_as_author`). */
    lookups?: Pick<LookupsService, 'objectivesAuthoredBy'>;
    registry?: CatalystRegistry;
    registryRecheckMs?: number;
  } = {},
) {
  const sessionAccount = prepareSessionAccount(db);
  /**
   * A registration short of persistent is looked up again when its owner loads their info, at most once per
   * `registryRecheckMs`, so the 'registration pending' bar goes away once the chain confirms it (spec §2.3).
   */
  async function refreshRegistration(account: AccountRow): Promise<AccountRow> {
    const { registry, registryRecheckMs = 60_000 } = options;
    if (!registry || account.rbacRegStatus === RegistrationStatus.persistent) return account;
    if (account.rbacCheckedAt && Date.now() - account.rbacCheckedAt.getTime() < registryRecheckMs) return account;
    const rbacRegStatus = await registry.registrationStatus(account.catalystId);
    const rbacCheckedAt = new Date();
    await updateCatalystId(db, account.catalystIdRef, { rbacRegStatus, rbacCheckedAt });
    return { ...account, rbacRegStatus, rbacCheckedAt };
  }

  // Totals of the admin's user list (all users, or a search's matches), kept 10 s and served stale while one count
  // refreshes them; dropped as soon as an account is created here (`accountsChanged`), so within one instance the
  // total counts every registration at once, and elsewhere within 10 s. The rows are always current.
  const accountTotals = createCountCache(10_000, undefined, undefined, 'account_totals');

  const service = {
    /** A new account exists: the list's totals are counted again. */
    accountsChanged: () => accountTotals.clear(),

    /** The admin's Users tab: newest first, optionally filtered by part of a Catalyst ID, username or e-mail. */
    async list(options: { size: number; page: number; search?: string | undefined }) {
      const { rows, total } = await listAccounts(db, options, (key, load) => accountTotals.get(key, load));
      return {
        data: rows.map((row) => ({
          id: row.userId,
          catalyst_id: displayCatalystId(row.catalystId),
          username: usernameOf(row),
          email: row.email,
          registered_at: row.registeredAt.toISOString(),
          status: row.status,
          role: row.role,
        })),
        page: { total, size: options.size, page: options.page },
      };
    },

    /** Any user's info for an admin, by Catalyst ID (with or without its scheme) or by numeric user id. */
    async userInfoFor(identifier: string): Promise<UserInfo> {
      // A number beyond the integer column's range is nobody (querying it would fail with a 500).
      const account = /^\d+$/.test(identifier)
        ? Number(identifier) <= MAX_ROW_ID
          ? await findAccountById(db, Number(identifier))
          : undefined
        : await findAccountByCatalystId(db, normalizeCatalystId(identifier).id);
      if (!account) throw notFound(unknownUserMessage);
      return service.userInfo(account.userId);
    },

    /** The caller of a request, if their session is still on (one statement: see `prepareSessionAccount`). */
    async sessionUser(userId: number, sessionId: string): Promise<AuthUser | null> {
      return (await sessionAccount(userId, sessionId)) ?? null;
    },

    async catalystId(userId: number): Promise<CatalystIdPublic> {
      const account = await findAccountById(db, userId);
      if (!account) throw notFound(unknownUserMessage);
      return toCatalystIdPublic(account);
    },

    /** The caller's own info (`users/me/`), with their on-chain registration looked up again when due. */
    async me(userId: number): Promise<UserInfo> {
      const account = await findAccountById(db, userId);
      if (!account) throw notFound(unknownUserMessage);
      return infoOf(await refreshRegistration(account));
    },

    async userInfo(userId: number): Promise<UserInfo> {
      const account = await findAccountById(db, userId);
      if (!account) throw notFound(unknownUserMessage);
      return infoOf(account);
    },
  };

  /**
   * The user's reviewing in the current (active) events (spec §3 "Reviewer stats"): proposals allocated to their
   * subscriptions, reviews they submitted, and how many of those were of a proposal allocated to them.
   */
  async function currentReviewStats(userId: number) {
    const [row] = await db
      .select({
        allocations: sql<number>`(select count(*)::int from ${proposalAllocations} a
          join ${subscriptions} s on s.id = a.subscription_id join ${events} e on e.id = a.event_id
          where s.user_id = ${userId} and e.active)`,
        submitted: sql<number>`(select count(*)::int from ${reviews} r
          join ${subscriptions} s on s.id = r.subscription_id join ${events} e on e.id = r.event_id
          where s.user_id = ${userId} and e.active)`,
        allocatedSubmitted: sql<number>`(select count(*)::int from ${reviews} r
          join ${subscriptions} s on s.id = r.subscription_id join ${events} e on e.id = r.event_id
          where s.user_id = ${userId} and e.active and exists (select 1 from ${proposalAllocations} a
            where a.subscription_id = r.subscription_id and a.proposal_id = r.proposal_id))`,
      })
      .from(users)
      .where(eq(users.id, userId));
    return {
      allocations: Number(row?.allocations ?? 0),
      submitted: Number(row?.submitted ?? 0),
      allocated_submitted: Number(row?.allocatedSubmitted ?? 0),
    };
  }

  async function infoOf(account: AccountRow): Promise<UserInfo> {
    return {
      email: account.email,
      username: usernameOf(account),
      catalyst_id: toCatalystIdPublic(account),
      extra: {
        role: account.role,
        force_reset: account.forceReset,
        unique_objectives_as_author: options.lookups ? await options.lookups.objectivesAuthoredBy(account.catalystId) : [],
        subscriptions: options.subscriptions ? await options.subscriptions.ofUser(account.userId) : [],
        due_diligence: { status: account.dueDiligenceStatus, url: account.dueDiligenceUrl },
        language: account.language,
        registered_at: account.registeredAt.toISOString(),
        stats: { reviews: await currentReviewStats(account.userId) },
        historic_stats: options.subscriptions ? await options.subscriptions.historicStats(account.userId) : NO_HISTORY,
      },
    };
  }
  return service;
}
export type UserInfoService = ReturnType<typeof createUserInfoService>;
