import { createCountCache } from '../../lib/count-cache';
import type { CatalystIdPublic, UserInfo } from '@cr/contract/users';
import type { Db } from '../../db/client';
import { notFound } from '../../errors';
import type { AuthUser } from '../../domain/auth-user';
import { displayCatalystId, normalizeCatalystId } from '@cr/contract/rules';
import { MAX_ROW_ID } from '@cr/contract/common';
import { RegistrationStatus } from '@cr/contract/users';
import type { CatalystRegistry } from '../../adapters/catalyst-registry';
import { unknownUserMessage } from '../lookups/lookups.service';
import {
  findAccountByCatalystId,
  findAccountById,
  listAccounts,
  prepareSessionAccount,
  updateCatalystId,
  type AccountRow,
} from './accounts.repository';
import { findUserInfo, type UserInfoParts } from './user-info.repository';

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

/**
 * The user info of spec §3: the account, its subscriptions, objectives authored, current stats and the historic stats
 * (past rounds' outcomes, the figures the level decision reads), read in one statement (user-info.repository).
 */
export function createUserInfoService(
  db: Db,
  options: {
    registry?: CatalystRegistry;
    registryRecheckMs?: number;
  } = {},
) {
  const sessionAccount = prepareSessionAccount(db);
  /**
   * A registration short of persistent is looked up again when its owner loads their info, at most once per
   * `registryRecheckMs`, so the 'registration pending' bar goes away once the chain confirms it (spec §2.3).
   */
  async function refreshRegistration(account: UserInfoParts): Promise<UserInfoParts> {
    const { registry, registryRecheckMs = 60_000 } = options;
    if (!registry || account.rbacRegStatus === RegistrationStatus.persistent) return account;
    if (account.rbacCheckedAt && Date.now() - Date.parse(account.rbacCheckedAt) < registryRecheckMs) return account;
    const rbacRegStatus = await registry.registrationStatus(account.catalystId);
    const rbacCheckedAt = new Date();
    await updateCatalystId(db, account.catalystIdRef, { rbacRegStatus, rbacCheckedAt });
    return { ...account, rbacRegStatus, rbacCheckedAt: rbacCheckedAt.toISOString() };
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
      const parts = await findUserInfo(db, userId);
      if (!parts) throw notFound(unknownUserMessage);
      return infoOf(await refreshRegistration(parts));
    },

    async userInfo(userId: number): Promise<UserInfo> {
      const parts = await findUserInfo(db, userId);
      if (!parts) throw notFound(unknownUserMessage);
      return infoOf(parts);
    },
  };

  /** The user info of spec §3 from its parts, read in one statement (user-info.repository). */
  function infoOf(parts: UserInfoParts): UserInfo {
    const { history } = parts;
    return {
      email: parts.email,
      username: usernameOf(parts),
      catalyst_id: {
        id: parts.catalystId,
        email: parts.email,
        email_verified: parts.emailVerified,
        username: usernameOf(parts),
        status: parts.status,
        rbac_reg_status: parts.rbacRegStatus,
      },
      extra: {
        role: parts.role,
        force_reset: parts.forceReset,
        unique_objectives_as_author: parts.objectives,
        subscriptions: parts.subscriptions,
        due_diligence: { status: parts.dueDiligenceStatus, url: parts.dueDiligenceUrl },
        language: parts.language,
        registered_at: parts.registeredAt,
        ...(parts.bannedReason && parts.bannedAt ? { ban: { reason: parts.bannedReason, banned_at: parts.bannedAt } } : {}),
        stats: {
          reviews: { allocations: parts.allocations, submitted: parts.submitted, allocated_submitted: parts.allocatedSubmitted },
        },
        historic_stats: {
          reviews: {
            active_funds: history.activeFunds,
            submitted: history.submitted,
            blank: history.blank,
            valid: history.valid,
            approval_rate: history.approvalRate,
          },
          moderations: { active_funds: history.moderationFunds, submitted: history.moderations },
        },
      },
    };
  }
  return service;
}
export type UserInfoService = ReturnType<typeof createUserInfoService>;
