import { AccountStatus, UserRole } from '@cr/contract/users';
import { DEFAULT_REVIEWS_CONFIG } from '@cr/contract/events';
import type { Db, Tx } from './db/client';
import { upsertConfig } from './db/config-records';
import { findEventByName, insertEvent } from './modules/events/events.repository';
import { allocationProposals, countProposals } from './modules/proposals/proposals.repository';
import { insertReview } from './modules/reviews/reviews.repository';
import { findAccountById, insertAccount, isCatalystIdTaken, updateCatalystId, updateUser } from './modules/accounts/accounts.repository';
import { hashPassword } from './lib/secrets';
import { localRegistry } from './adapters/catalyst-registry';
import { createEventsService } from './modules/events/events.service';
import { proposalAllocationRun } from './modules/proposals/proposal-allocation.service';
import { createRunsService } from './modules/runs/runs.service';
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
const PAST_EVENT = { name: 'Fund 14 (demo)', description: "A past demonstration round, kept for the reviewers' history." };

async function seedDemoEvents(tx: Tx): Promise<void> {
  if (await findEventByName(tx, DEMO_EVENT.name)) return;
  const now = Date.now();
  if (!(await findEventByName(tx, PAST_EVENT.name))) {
    await insertEvent(tx, { ...PAST_EVENT, active: false, startTime: new Date(now - 200 * DAY), endTime: new Date(now - 100 * DAY) });
  }
  const event = await insertEvent(tx, {
    name: DEMO_EVENT.name,
    description: DEMO_EVENT.description,
    active: true,
    startTime: new Date(now - 7 * DAY),
    endTime: new Date(now + 90 * DAY),
  });
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
  await insertSubscription(db, {
    userId: reviewer.userId,
    eventId: event.id,
    role: 0,
    status: 1,
    anonymousId: newAnonymousId(),
    preferredCategories: [],
  });
  await seedDemoReviews(db, event.id);
  await createRunsService({ db, events }).execute(admin.userId, proposalAllocationRun, {
    event_id: event.id,
    allocation_seed: 1,
    nr_of_proposals_lv0: 20,
    nr_of_proposals_lv1: 60,
    categories: [],
    dry_run: false,
  });
}

const OPENINGS = [
  'The proposal states a concrete problem and ties it to the goals of its category.',
  'The team explains who benefits and how they will be reached, which makes the impact believable.',
  'The aim is relevant to the category, although the link to measurable outcomes could be sharper.',
  'This is a clear, well-scoped idea with an audience that already exists in the ecosystem.',
];
const MIDDLES = [
  'The milestones are realistic and each one ends with evidence that can be checked by the community.',
  'The budget is broken down by role and month, and the rates look in line with the market for this work.',
  'The plan relies on one key developer, which is a risk the proposal only mentions briefly.',
  'Earlier work by the team is linked, and it shows they have delivered something similar before.',
];
const CLOSINGS = [
  'Overall I would like to see a short risk section, but the proposal is convincing as it stands.',
  'Reporting every month on a public dashboard would make the progress easy to audit.',
  'The value for money is good given the size of the audience and the open-source outputs.',
  'I recommend it, with the caveat that the adoption targets are on the optimistic side.',
];

/** A demo note: three sentences, always well over the 200 characters a note needs. */
const demoNote = (seed: number) => `${OPENINGS[seed % 4]} ${MIDDLES[(seed >> 2) % 4]} ${CLOSINGS[(seed >> 4) % 4]}`;

/** Six demo community reviewers (password Demo-pass1 like every demo account) with five reviews each: a living round. */
async function seedDemoReviews(db: Db, eventId: number) {
  const proposals = await allocationProposals(db, eventId);
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  for (let n = 1; n <= 6; n += 1) {
    const catalystId = `cardano/demo-community-${n}`;
    if (await isCatalystIdTaken(db, catalystId)) continue;
    const userId = await insertAccount(db, {
      catalystId,
      email: `community-${n}@demo.local`,
      passwordHash,
      role: UserRole.user,
      rbacRegStatus: 3,
    });
    const account = await findAccountById(db, userId);
    await updateCatalystId(db, account!.catalystIdRef, { status: AccountStatus.active, emailVerifiedAt: new Date() });
    const subscription = await insertSubscription(db, {
      userId,
      eventId,
      role: n % 3 === 0 ? 1 : 0,
      status: 1,
      anonymousId: newAnonymousId(),
      preferredCategories: [],
    });
    for (let k = 0; k < 5; k += 1) {
      const proposal = proposals[(n * 5 + k * 3) % proposals.length]!;
      const seed = n * 31 + k * 7;
      await insertReview(db, {
        eventId,
        proposalId: proposal.id,
        categoryId: proposal.category,
        subscriptionId: subscription.id,
        impactRating: 2 + (seed % 4),
        impactNote: demoNote(seed),
        feasibilityRating: 1 + ((seed >> 1) % 5),
        feasibilityNote: demoNote(seed + 5),
        auditabilityRating: 2 + ((seed >> 2) % 4),
        auditabilityNote: demoNote(seed + 11),
      });
    }
  }
}

/** Creates the demo accounts and the demo round that don't exist yet; returns how many accounts were created. */
export async function seedDemo(db: Db): Promise<number> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  let created = 0;
  await db.transaction(async (tx) => {
    for (const account of demoAccounts) {
      if (await isCatalystIdTaken(tx, account.catalystId)) continue;
      const userId = await insertAccount(tx, {
        catalystId: account.catalystId,
        email: account.email,
        passwordHash,
        role: account.role,
        rbacRegStatus: 3,
      });
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
