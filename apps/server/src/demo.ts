import { AccountStatus, UserRole } from '@cr/contract/users';
import type { Db } from './db/client';
import { findAccountById, insertAccount, isCatalystIdTaken, updateCatalystId, updateUser } from './modules/accounts/accounts.repository';
import { hashPassword } from './lib/secrets';

/** The demo accounts the README lists. One password for all: easy to try, never for production. */
export const DEMO_PASSWORD = 'Demo-pass1';
export const demoAccounts = [
  { catalystId: 'cardano/demo-admin', email: 'admin@demo.local', role: UserRole.admin, status: AccountStatus.active },
  { catalystId: 'cardano/demo-reviewer', email: 'reviewer@demo.local', role: UserRole.user, status: AccountStatus.active },
  { catalystId: 'cardano/demo-moderator', email: 'moderator@demo.local', role: UserRole.user, status: AccountStatus.active },
  { catalystId: 'cardano/demo-newcomer', email: 'newcomer@demo.local', role: UserRole.user, status: AccountStatus.inactive },
  // Must choose a new password at first login: shows the forced-reset guard (spec §2.2).
  { catalystId: 'cardano/demo-reset', email: 'reset@demo.local', role: UserRole.user, status: AccountStatus.active, forceReset: true },
] as const satisfies readonly { catalystId: string; email: string; role: number; status: number; forceReset?: boolean }[];

/** Creates the demo accounts that don't exist yet; returns how many were created. */
export async function seedDemo(db: Db): Promise<number> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  let created = 0;
  await db.transaction(async (tx) => {
    for (const account of demoAccounts) {
      if (await isCatalystIdTaken(tx, account.catalystId)) continue;
      const userId = await insertAccount(tx, { catalystId: account.catalystId, email: account.email, passwordHash, role: account.role, rbacRegStatus: 3 });
      const row = await findAccountById(tx, userId);
      if (account.status !== AccountStatus.inactive) {
        await updateCatalystId(tx, row!.catalystIdRef, { status: account.status, emailVerifiedAt: new Date() });
      }
      if ('forceReset' in account && account.forceReset) await updateUser(tx, userId, { forceReset: true });
      created += 1;
    }
  });
  return created;
}
