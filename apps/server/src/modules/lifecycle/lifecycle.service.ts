import { lifecycleMessages, type BanAnswer, type BanBody } from '@cr/contract/lifecycle';
import { normalizeCatalystId } from '@cr/contract/rules';
import { MAX_ROW_ID } from '@cr/contract/common';
import { AccountStatus, UserRole } from '@cr/contract/users';
import type { Db, DbOrTx } from '../../db/client';
import type { AuthUser } from '../../domain/auth-user';
import { badRequest, conflict, forbidden, notFound } from '../../errors';
import type { PasswordHasher } from '../../lib/password-hasher';
import type { RateLimiter } from '../../lib/rate-limit';
import { unknownUserMessage } from '../lookups/lookups.service';
import { recordAudit } from '../system/audit.service';
import * as repo from './lifecycle.repository';

export { lifecycleMessages };

/** Wrong passwords a person may give when closing their account, per window (RATE_LIMIT_WINDOW_SECONDS). */
const CLOSE_ATTEMPTS_PER_WINDOW = 5;

export interface LifecycleDeps {
  db: Db;
  passwords: PasswordHasher;
  rateLimiter: RateLimiter;
  /** Told once an account was banned, unbanned or closed (the admin's user list is counted again). */
  onChanged?: () => void;
}

/**
 * Issue 47: an account's whole life after registration. An admin bans (with a reason the person is shown) and
 * unbans; the person closes their account. Each change is one transaction with its audit entry.
 */
export function createLifecycleService(deps: LifecycleDeps) {
  const { db } = deps;

  async function lockTarget(tx: DbOrTx, identifier: string) {
    const by = /^\d+$/.test(identifier)
      ? Number(identifier) <= MAX_ROW_ID
        ? { userId: Number(identifier) }
        : undefined
      : { catalystId: normalizeCatalystId(identifier).id };
    const account = by && (await repo.lockAccount(tx, by));
    if (!account || account.closedAt) throw notFound(unknownUserMessage);
    return account;
  }

  /** An admin is never the one to take the last acting admin away (by a ban or by closing their own account). */
  async function refuseLastAdmin(tx: DbOrTx, account: repo.LifecycleAccount) {
    if (account.role === UserRole.admin && account.status !== AccountStatus.banned && (await repo.countActingAdmins(tx)) <= 1) {
      throw conflict(lifecycleMessages.lastAdmin);
    }
  }

  return {
    async ban(actor: AuthUser, identifier: string, body: BanBody): Promise<BanAnswer> {
      const answer = await db.transaction(async (tx) => {
        const account = await lockTarget(tx, identifier);
        await refuseLastAdmin(tx, account);
        if (account.userId === actor.id) throw forbidden(lifecycleMessages.cannotBanSelf);
        if (account.status === AccountStatus.banned) throw conflict(lifecycleMessages.alreadyBanned);
        const { bannedAt } = await repo.setBan(tx, account, { reason: body.reason, byUserId: actor.id });
        await repo.revokeSessions(tx, account.userId);
        await repo.revokeApiTokens(tx, account.userId);
        await repo.expireOneTimeTokens(tx, account.userId);
        const failedMails = await repo.failQueuedMails(tx, account, `recipient account banned: ${body.reason}`);
        const withdrawn = body.withdraw_drafts
          ? await repo.withdrawOpenWork(tx, account.userId, actor.id)
          : { withdrawnReviews: 0, freedAllocations: 0 };
        await recordAudit(tx, {
          actorUserId: actor.id,
          action: 'user.ban',
          entity: 'user',
          entityId: String(account.userId),
          eventId: null,
          before: { status: account.status },
          after: {
            status: AccountStatus.banned,
            reason: body.reason,
            withdraw_drafts: body.withdraw_drafts,
            withdrawn_reviews: withdrawn.withdrawnReviews,
            freed_allocations: withdrawn.freedAllocations,
            failed_mails: failedMails,
          },
        });
        return {
          user_id: account.userId,
          status: AccountStatus.banned,
          ban: { reason: body.reason, banned_at: bannedAt! },
          withdrawn_reviews: withdrawn.withdrawnReviews,
          freed_allocations: withdrawn.freedAllocations,
        };
      });
      deps.onChanged?.();
      return answer;
    },

    /** Restores the status the ban replaced; the sessions and tokens the ban revoked stay revoked. */
    async unban(actor: AuthUser, identifier: string): Promise<BanAnswer> {
      const answer = await db.transaction(async (tx) => {
        const account = await lockTarget(tx, identifier);
        if (account.status !== AccountStatus.banned) throw conflict(lifecycleMessages.notBanned);
        await repo.setBan(tx, account, null);
        const status = account.statusBeforeBan ?? AccountStatus.active;
        await recordAudit(tx, {
          actorUserId: actor.id,
          action: 'user.unban',
          entity: 'user',
          entityId: String(account.userId),
          eventId: null,
          before: { status: AccountStatus.banned, reason: account.bannedReason },
          after: { status },
        });
        return { user_id: account.userId, status, ban: null, withdrawn_reviews: 0, freed_allocations: 0 };
      });
      deps.onChanged?.();
      return answer;
    },

    /**
     * The person closes their own account, confirmed with its password: it can no longer log in, and its personal
     * data is erased (lifecycle.repository `eraseAccount`, db/personal-columns.ts). The audit entry names the user id
     * only.
     */
    async close(userId: number, password: string, address: string): Promise<void> {
      await deps.rateLimiter.hit(`close:user:${userId}`, CLOSE_ATTEMPTS_PER_WINDOW);
      const current = await repo.lockAccount(db, { userId });
      if (!current || current.closedAt) throw notFound(unknownUserMessage);
      if (!(await deps.passwords.verify(current.passwordHash, password, { suspect: false, source: address }))) {
        throw badRequest(lifecycleMessages.wrongPassword);
      }
      await db.transaction(async (tx) => {
        const account = await repo.lockAccount(tx, { userId });
        if (!account || account.closedAt) throw notFound(unknownUserMessage);
        await refuseLastAdmin(tx, account);
        const { deletedSubscriptions } = await repo.eraseAccount(tx, account);
        await recordAudit(tx, {
          actorUserId: userId,
          action: 'user.close',
          entity: 'user',
          entityId: String(userId),
          eventId: null,
          before: null,
          after: { closed: true, deleted_subscriptions: deletedSubscriptions },
        });
      });
      deps.onChanged?.();
    },
  };
}
export type LifecycleService = ReturnType<typeof createLifecycleService>;
