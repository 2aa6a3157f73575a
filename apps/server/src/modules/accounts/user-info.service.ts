import type { CatalystIdPublic, UserInfo } from '@cr/contract/users';
import type { Db } from '../../db/client';
import { notFound } from '../../errors';
import type { AuthUser } from '../../plugins/auth';
import { findAccountById, type AccountRow } from './accounts.repository';

export function toCatalystIdPublic(account: AccountRow): CatalystIdPublic {
  return {
    id: account.catalystId,
    email: account.email,
    email_verified: account.emailVerifiedAt !== null,
    username: account.username,
    status: account.status,
    rbac_reg_status: account.rbacRegStatus,
  };
}

/**
 * The user info of spec §3. Subscriptions, statistics and due diligence are filled by the modules that own them
 * (issue 4 onwards); until a user has any, these are the empty values.
 */
export function createUserInfoService(db: Db) {
  return {
    async loadAuthUser(userId: number): Promise<AuthUser | null> {
      const account = await findAccountById(db, userId);
      return account ? { id: account.userId, role: account.role, status: account.status, forceReset: account.forceReset } : null;
    },

    async catalystId(userId: number): Promise<CatalystIdPublic> {
      const account = await findAccountById(db, userId);
      if (!account) throw notFound('The user you are looking for does not exist or an error occurred.');
      return toCatalystIdPublic(account);
    },

    async userInfo(userId: number): Promise<UserInfo> {
      const account = await findAccountById(db, userId);
      if (!account) throw notFound('The user you are looking for does not exist or an error occurred.');
      return {
        email: account.email,
        username: account.username,
        catalyst_id: toCatalystIdPublic(account),
        extra: {
          role: account.role,
          force_reset: account.forceReset,
          unique_objectives_as_author: [],
          subscriptions: [],
          due_diligence: { status: 0, url: null },
          registered_at: account.registeredAt.toISOString(),
          stats: { reviews: { allocations: 0, submitted: 0, allocated_submitted: 0 } },
          historic_stats: {
            reviews: { active_funds: 0, submitted: 0, blank: 0, valid: 0 },
            moderations: { active_funds: 0, submitted: 0 },
          },
        },
      };
    },
  };
}
export type UserInfoService = ReturnType<typeof createUserInfoService>;
