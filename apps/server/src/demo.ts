import { AccountStatus, UserRole } from '@cr/contract/users';
import { DEFAULT_REVIEWS_CONFIG } from '@cr/contract/events';
import type { Db, Tx } from './db/client';
import { findEventByName, insertEvent, upsertConfig } from './modules/events/events.repository';
import { countProposals } from './modules/proposals/proposals.repository';
import { findAccountById, insertAccount, isCatalystIdTaken, updateCatalystId, updateUser } from './modules/accounts/accounts.repository';
import { hashPassword } from './lib/secrets';
import { localRegistry } from './adapters/catalyst-registry';
import { createEventsService } from './modules/events/events.service';
import { createProposalAllocationService } from './modules/proposals/proposal-allocation.service';
import { createProposalImportService } from './modules/proposals/proposal-import.service';
import { insertSubscription } from './modules/subscriptions/subscriptions.repository';
import { newAnonymousId } from './modules/subscriptions/subscriptions.service';
import { findAccountByCatalystId } from './modules/accounts/accounts.repository';

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

/**
 * The demo round: a current event open for subscription and review, with the sample proposals (built from the real
 * Catalyst Voices templates; their categories come with them) allocated to the demo reviewer, and a past round.
 */
export const DEMO_EVENT = {
  name: 'Fund 15 (demo)',
  description: 'A demonstration funding round: reviewers subscribe and review the proposals of its categories.',
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
}

/**
 * The demo round's proposals (the sample import, as an admin would run it) and the demo reviewer's LV0 subscription
 * with an allocation; only while the round has no proposals yet.
 */
async function seedDemoProposals(db: Db): Promise<void> {
  const event = await findEventByName(db, DEMO_EVENT.name);
  const admin = await findAccountByCatalystId(db, 'cardano/demo-admin');
  const reviewer = await findAccountByCatalystId(db, 'cardano/demo-reviewer');
  if (!event || !admin || !reviewer || (await countProposals(db, { eventIds: [event.id] })) > 0) return;
  const events = createEventsService(db);
  await createProposalImportService({ db, events, registry: localRegistry }).import(admin.userId, event.id, {
    source: 'sample',
    dry_run: false,
    categories: [],
    accept_non_existent_users: true,
    accept_non_persistent_users: true,
  });
  await insertSubscription(db, { userId: reviewer.userId, eventId: event.id, role: 0, status: 1, anonymousId: newAnonymousId(), preferredCategories: [] });
  await createProposalAllocationService({ db, events }).generate(admin.userId, {
    event_id: event.id,
    allocation_seed: 1,
    nr_of_proposals_lv0: 20,
    nr_of_proposals_lv1: 60,
    categories: [],
    dry_run: false,
  });
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
  await seedDemoProposals(db);
  return created;
}
