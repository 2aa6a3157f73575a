import { AccountStatus, UserRole } from '@cr/contract/users';
import { DEFAULT_REVIEWS_CONFIG } from '@cr/contract/events';
import type { Db, Tx } from './db/client';
import { ensureCategories, findEventByName, insertEvent, upsertConfig } from './modules/events/events.repository';
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

const DAY = 24 * 60 * 60 * 1000;

/** The demo round: a current event open for subscription and review, a past one, and the current one's categories. */
export const DEMO_EVENT = {
  name: 'Fund 15 (demo)',
  description: 'A demonstration funding round: reviewers subscribe and review the proposals of its categories.',
  categories: [
    'Cardano Use Cases: Partners & Products',
    'Cardano Use Cases: Concept',
    'Cardano Use Cases: Product',
    'Cardano Open: Developers',
    'Cardano Open: Ecosystem',
  ],
};
const PAST_EVENT = { name: 'Fund 14 (demo)', description: 'A past demonstration round, kept for the reviewers\' history.' };

async function seedDemoEvents(tx: Tx): Promise<void> {
  if (await findEventByName(tx, DEMO_EVENT.name)) return;
  const now = Date.now();
  if (!(await findEventByName(tx, PAST_EVENT.name))) {
    await insertEvent(tx, { ...PAST_EVENT, active: false, startTime: new Date(now - 200 * DAY), endTime: new Date(now - 100 * DAY) });
  }
  const event = await insertEvent(tx, { name: DEMO_EVENT.name, description: DEMO_EVENT.description, active: true, startTime: new Date(now - 7 * DAY), endTime: new Date(now + 90 * DAY) });
  await upsertConfig(tx, 'reviews', event.id, {
    ...DEFAULT_REVIEWS_CONFIG,
    user_registration_enabled: true,
    reviewer_subscription_enabled: true,
    review_visibility_enabled: true,
    review_submission_enabled: true,
    reviewer_subscription_starts_at: new Date(now - 7 * DAY).toISOString(),
    reviewer_subscription_ends_at: new Date(now + 60 * DAY).toISOString(),
  });
  await ensureCategories(tx, event.id, DEMO_EVENT.categories.map((title) => ({ title })));
}

/** Creates the demo accounts and the demo round that don't exist yet; returns how many accounts were created. */
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
    await seedDemoEvents(tx);
  });
  return created;
}
