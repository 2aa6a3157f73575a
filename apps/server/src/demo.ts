import { AccountStatus, UserRole } from '@cr/contract/users';
import { DEFAULT_REVIEWS_CONFIG } from '@cr/contract/events';
import { DEFAULT_REMINDERS_CONFIG, type RemindersConfig } from '@cr/contract/notifications';
import type { Db, Tx } from './db/client';
import { upsertConfig } from './db/config-records';
import { findEventByName, insertEvent } from './modules/events/events.repository';
import { allocationProposals, countProposals } from './modules/proposals/proposals.repository';
import { insertReview } from './modules/reviews/reviews.repository';
import { recordMissingReviewVersions, updateReviewWithVersion } from './modules/reviews/review-versions.repository';
import { recordMissingModerationVersions } from './modules/moderations/moderation-versions.repository';
import { findAccountById, insertAccount, isCatalystIdTaken, updateCatalystId, updateUser } from './modules/accounts/accounts.repository';
import { hashPassword } from './lib/secrets';
import { localRegistry } from './adapters/catalyst-registry';
import { createEventsService } from './modules/events/events.service';
import { proposalAllocationRun } from './modules/proposals/proposal-allocation.service';
import { createRunsService } from './modules/runs/runs.service';
import { createProposalImportService } from './modules/proposals/proposal-import.service';
import { moderationRoundImportFile } from './modules/proposals/sample-moderation-round';
import { insertSubscription } from './modules/subscriptions/subscriptions.repository';
import { newAnonymousId } from './modules/subscriptions/anonymous-id';
import { findAccountByCatalystId } from './modules/accounts/accounts.repository';
import { ReviewerLevel, SubscriptionStatus } from '@cr/contract/subscriptions';
import { MODERATION_ALLOCATION_DEFAULTS } from '@cr/contract/moderations';
import { AI_GENERATED_THRESHOLD_DEFAULT, SIMILARITY_THRESHOLD_DEFAULT } from '@cr/contract/flags';
import { computeFlagsRun } from './modules/flags/flags.service';
import { moderationAllocationRun } from './modules/moderations/moderation-allocation.service';
import { createPrng } from './domain/prng';
import { nearDuplicate, syntheticNote } from './lib/note-corpus';
import { asc, eq } from 'drizzle-orm';
import { SCORE_DEFAULTS } from '@cr/contract/outcomes';
import { moderationAllocations, moderations, proposalAllocations } from './db/schema/index';
import type { AuthUser } from './domain/auth-user';
import { reviewOutcomesRun } from './modules/outcomes/review-outcomes.service';
import { proposalScoresRun } from './modules/outcomes/proposal-scores.service';
import { seedPastRoundAppeals } from './demo-appeals';

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
/**
 * The demo round in its moderation stage (issue 14 item 7): reviews written, moderation open, its flags computed and
 * the demo moderator active as LV2 with a moderation allocation, so that a first visitor sees moderation working.
 * A current event (issue 26 item 14): the navigation shows a moderator's links only for a current event with
 * moderation open (spec §2.3), so the site's stage reads moderation open while Fund 15 stays open for review.
 */
export const DEMO_MODERATION_EVENT = {
  name: 'Moderation round (demo)',
  description:
    'A demonstration round whose reviews are being moderated: LV2 moderators include or exclude the flagged and spot-checked reviews.',
};
/**
 * The past demo round (issue 15 item 6): finished and inactive, its reviews moderated, its review outcomes and proposal
 * scores generated, so that a first visitor sees the score widget on its proposals, rankings on its reviews, and the
 * demo reviewer's profile history (their reviews there count as the history the level qualifiers read).
 */
export const DEMO_PAST_EVENT = {
  name: 'Fund 14 (demo)',
  description: "A past demonstration round, kept for the reviewers' history: its review outcomes and proposal scores are out.",
};
const PAST_EVENT = DEMO_PAST_EVENT;

/** The demo's current rounds remind their reviewers and moderators 72 and 24 hours before their windows close. */
export const DEMO_REMINDERS: RemindersConfig = {
  ...DEFAULT_REMINDERS_CONFIG,
  review_reminders_enabled: true,
  moderation_reminders_enabled: true,
};

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
    // A review window's end, so that the deadline reminders (on in the demo, issue 27) have a deadline to remind of.
    review_submission_starts_at: new Date(now - 7 * DAY).toISOString(),
    review_submission_ends_at: new Date(now + 60 * DAY).toISOString(),
  });
  await upsertConfig(tx, 'notifications', event.id, DEMO_REMINDERS);
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
  // Issue 28 item 3: each review has its version 1, as the review service writes it.
  await recordMissingReviewVersions(db, eventId);
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
  await seedDemoModerationRound(db);
  await seedDemoPastRound(db);
  return created;
}

/** Reviews per community reviewer in the moderation round, and the minimum spot checks its allocation asks for. */
const MODERATION_ROUND_REVIEWS = 4;
const MODERATION_ROUND_SPOT_CHECKS = 2;

/**
 * The moderation round: twelve proposals of its own (a current event's proposals are listed with Fund 15's), the six
 * demo community reviewers with four reviews each (realistic notes from the note corpus; two reviews copy another's
 * note almost word for word, one has a profane word), the flags computed and the moderation allocation run for real,
 * as an admin would; the demo moderator is its active LV2 moderator. Only once: nothing happens when the round exists.
 */
async function seedDemoModerationRound(db: Db): Promise<void> {
  if (await findEventByName(db, DEMO_MODERATION_EVENT.name)) return;
  const admin = await findAccountByCatalystId(db, 'cardano/demo-admin');
  const moderator = await findAccountByCatalystId(db, 'cardano/demo-moderator');
  if (!admin || !moderator) return;
  const now = Date.now();
  // A current event, or the moderator's links stay hidden (spec §2.3). The site's stage, derived from every current
  // event, then reads moderation open; Fund 15's reviewers keep their links, which are checked per event.
  const event = await insertEvent(db, {
    ...DEMO_MODERATION_EVENT,
    active: true,
    startTime: new Date(now - 60 * DAY),
    endTime: new Date(now + 30 * DAY),
  });
  await upsertConfig(db, 'reviews', event.id, {
    ...DEFAULT_REVIEWS_CONFIG,
    user_registration_enabled: true,
    review_visibility_enabled: true,
    moderation_submission_enabled: true,
    moderation_submission_starts_at: new Date(now - 2 * DAY).toISOString(),
    moderation_submission_ends_at: new Date(now + 28 * DAY).toISOString(),
  });
  await upsertConfig(db, 'notifications', event.id, DEMO_REMINDERS);
  const events = createEventsService(db);
  await createProposalImportService({ db, events, registry: localRegistry }).import(admin.userId, event.id, {
    source: 'file',
    file: moderationRoundImportFile(),
    dry_run: false,
    categories: [],
    accept_non_existent_users: true,
    accept_non_persistent_users: true,
  });
  const proposals = await allocationProposals(db, event.id);
  if (proposals.length === 0) return;
  await insertSubscription(db, {
    userId: moderator.userId,
    eventId: event.id,
    role: ReviewerLevel.level_2,
    status: SubscriptionStatus.active,
    anonymousId: newAnonymousId(),
    preferredCategories: [],
    publicContact: '@demo-moderator',
  });

  const prng = createPrng(15);
  const written: string[][] = [];
  for (let n = 1; n <= 6; n += 1) {
    const reviewer = await findAccountByCatalystId(db, `cardano/demo-community-${n}`);
    if (!reviewer) continue;
    const subscription = await insertSubscription(db, {
      userId: reviewer.userId,
      eventId: event.id,
      role: n % 3 === 0 ? ReviewerLevel.level_1 : ReviewerLevel.level_0,
      status: SubscriptionStatus.active,
      anonymousId: newAnonymousId(),
      preferredCategories: [],
    });
    for (let k = 0; k < MODERATION_ROUND_REVIEWS; k += 1) {
      const notes = [syntheticNote(prng, 500), syntheticNote(prng, 500), syntheticNote(prng, 500)];
      // Near-duplicates: the first review of reviewers 2 and 4 copies the impact note of reviewer 1's and 3's.
      if (k === 0 && n % 2 === 0 && written.length >= MODERATION_ROUND_REVIEWS)
        notes[0] = nearDuplicate(written[written.length - MODERATION_ROUND_REVIEWS]![0]!, prng);
      // One profane review.
      if (n === 5 && k === 1) notes[1] = `${notes[1]} Frankly, this budget is bullshit.`;
      written.push(notes);
      const proposal = proposals[(n * MODERATION_ROUND_REVIEWS + k) % proposals.length]!;
      await insertReview(db, {
        eventId: event.id,
        proposalId: proposal.id,
        categoryId: proposal.category,
        subscriptionId: subscription.id,
        impactRating: 1 + ((n + k) % 5),
        impactNote: notes[0]!,
        feasibilityRating: 1 + ((n * 2 + k) % 5),
        feasibilityNote: notes[1]!,
        auditabilityRating: 1 + ((n + k * 3) % 5),
        auditabilityNote: notes[2]!,
      });
    }
  }
  await recordMissingReviewVersions(db, event.id);

  const runs = createRunsService({ db, events });
  await runs.execute(admin.userId, computeFlagsRun, {
    event_id: event.id,
    similarity_threshold: SIMILARITY_THRESHOLD_DEFAULT,
    ai_generated_threshold: AI_GENERATED_THRESHOLD_DEFAULT,
    dry_run: false,
  });
  await runs.execute(admin.userId, moderationAllocationRun, {
    event_id: event.id,
    ...MODERATION_ALLOCATION_DEFAULTS,
    min_spot_check_per_reviewer: MODERATION_ROUND_SPOT_CHECKS,
    dry_run: false,
  });
}

/** The parameters the past round's runs were generated with (the programme's rules: a simple majority, 0.8/0.2). */
export const DEMO_PAST_OUTCOME_PARAMS = { validity_threshold: 0.5, acceptance_threshold: 0.5, minimum_sample: 10 } as const;

/**
 * Who reviews in the past round and how their reviews fare with the two moderators, review by review (k): both
 * include ('in'), both exclude ('out'), or one each ('tie', included at validity 0.5). The demo reviewer ends with
 * 6 submitted, 5 valid (83 %); demo-community-1 writes 12 mostly poor reviews, 10 or more of them moderated, and is
 * excluded by the approval threshold; demo-community-5 and -6 are the round's LV2 moderators.
 */
const PAST_ROUND_REVIEWERS: {
  catalystId: string;
  level: 0 | 1;
  allocated: number;
  extra: number;
  verdict: (k: number) => 'in' | 'out' | 'tie';
}[] = [
  { catalystId: 'cardano/demo-reviewer', level: 0, allocated: 6, extra: 0, verdict: (k) => (k === 1 ? 'out' : k === 3 ? 'tie' : 'in') },
  { catalystId: 'cardano/demo-community-1', level: 0, allocated: 6, extra: 6, verdict: (k) => (k % 3 === 0 ? 'in' : 'out') },
  { catalystId: 'cardano/demo-community-2', level: 0, allocated: 4, extra: 0, verdict: (k) => (k === 2 ? 'out' : 'in') },
  { catalystId: 'cardano/demo-community-3', level: 1, allocated: 4, extra: 1, verdict: (k) => (k === 4 ? 'tie' : 'in') },
  { catalystId: 'cardano/demo-community-4', level: 0, allocated: 4, extra: 0, verdict: () => 'in' },
];
const PAST_ROUND_MODERATORS = ['cardano/demo-community-5', 'cardano/demo-community-6'];

/**
 * Fills the past round as its admin would have, through the real import and runs: the sample proposals imported,
 * the proposal allocation run, the reviews, the flags and the moderation allocation runs, a moderation by each
 * allocated moderator, then every switch off and the review outcomes and proposal scores runs. The reviews and
 * moderations are written as their services write them (the rows only: going through the services' checks review by
 * review would add seconds to every fresh start) and obey their rules by construction: reviews by the round's active
 * LV0/LV1 reviewers, outside any category they authored; moderations only of the reviews allocated to the moderator.
 * Only once: nothing happens when the round has proposals. Seeded (PRNG 14, allocation seed 14), so every start gives
 * the same notes, allocations and verdicts.
 */
async function seedDemoPastRound(outer: Db): Promise<void> {
  // One transaction: the few hundred small writes are committed (and synced to disk) once, and a failure leaves the
  // round empty, to be filled on the next start. The import and the runs work on it as on the database (their own
  // transactions become savepoints).
  await outer.transaction((tx) => fillPastRound(tx as unknown as Db));
}

async function fillPastRound(db: Db): Promise<void> {
  const event = await findEventByName(db, PAST_EVENT.name);
  const admin = await findAccountByCatalystId(db, 'cardano/demo-admin');
  if (!event || !admin || (await countProposals(db, { eventIds: [event.id] })) > 0) return;
  const accountOf = async (catalystId: string) => {
    const account = await findAccountByCatalystId(db, catalystId);
    return account && { id: account.userId, role: account.role, status: AccountStatus.active, forceReset: false };
  };
  const reviewers = [];
  for (const plan of PAST_ROUND_REVIEWERS) {
    const user = await accountOf(plan.catalystId);
    if (user) reviewers.push({ ...plan, user });
  }
  const moderators: (AuthUser & { contact: string })[] = [];
  for (const catalystId of PAST_ROUND_MODERATORS) {
    const user = await accountOf(catalystId);
    if (user) moderators.push({ ...user, contact: `@${catalystId.slice('cardano/'.length)}` });
  }
  if (reviewers.length === 0 || moderators.length === 0) return;

  const events = createEventsService(db);
  const runs = createRunsService({ db, events });

  await createProposalImportService({ db, events, registry: localRegistry }).import(admin.userId, event.id, {
    source: 'sample',
    dry_run: false,
    categories: [],
    accept_non_existent_users: true,
    accept_non_persistent_users: true,
  });
  const proposals = await allocationProposals(db, event.id);
  if (proposals.length === 0) return;
  const subscriptionOf = new Map<number, number>();
  for (const { user, level } of reviewers) {
    const row = await insertSubscription(db, {
      userId: user.id,
      eventId: event.id,
      role: level,
      status: SubscriptionStatus.active,
      anonymousId: newAnonymousId(),
      preferredCategories: [],
    });
    subscriptionOf.set(user.id, row.id);
  }
  for (const user of moderators)
    await insertSubscription(db, {
      userId: user.id,
      eventId: event.id,
      role: ReviewerLevel.level_2,
      status: SubscriptionStatus.active,
      anonymousId: newAnonymousId(),
      preferredCategories: [],
      publicContact: user.contact,
    });
  await runs.execute(admin.userId, proposalAllocationRun, {
    event_id: event.id,
    allocation_seed: 14,
    nr_of_proposals_lv0: 6,
    nr_of_proposals_lv1: 6,
    categories: [],
    dry_run: false,
  });

  // Each reviewer reviews their allocated proposals first, then some others (the rows the review service writes).
  const prng = createPrng(14);
  const verdictOf = new Map<number, 'in' | 'out' | 'tie'>();
  const categoryOf = new Map(proposals.map((proposal) => [proposal.id, proposal.category]));
  let edited: { id: number; userId: number; values: Parameters<typeof insertReview>[1] } | undefined;
  for (const plan of reviewers) {
    const subscriptionId = subscriptionOf.get(plan.user.id)!;
    const allocated = (
      await db
        .select({ proposalId: proposalAllocations.proposalId })
        .from(proposalAllocations)
        .where(eq(proposalAllocations.subscriptionId, subscriptionId))
    )
      .map((row) => row.proposalId)
      .sort((a, b) => a - b);
    const others = proposals.map((proposal) => proposal.id).filter((id) => !allocated.includes(id));
    const chosen = [...allocated.slice(0, plan.allocated), ...others.filter((_, i) => i % 3 === subscriptionId % 3).slice(0, plan.extra)];
    for (const [k, proposalId] of chosen.entries()) {
      const good = plan.verdict(k) !== 'out';
      const values = {
        eventId: event.id,
        proposalId,
        categoryId: categoryOf.get(proposalId) ?? null,
        subscriptionId,
        impactRating: good ? 3 + ((proposalId + k) % 3) : 1 + (k % 2),
        impactNote: syntheticNote(prng, 500),
        feasibilityRating: good ? 2 + ((proposalId * 2 + k) % 4) : 1 + ((k + 1) % 2),
        feasibilityNote: syntheticNote(prng, 500),
        auditabilityRating: good ? 2 + ((proposalId + k * 3) % 4) : 1,
        auditabilityNote: syntheticNote(prng, 500),
      };
      const review = await insertReview(db, values);
      verdictOf.set(review.id, plan.verdict(k));
      if (plan.catalystId === 'cardano/demo-reviewer' && k === 0) edited = { id: review.id, userId: plan.user.id, values };
    }
  }
  await recordMissingReviewVersions(db, event.id);
  // Issue 28 item 3: the demo reviewer edited their first review once (a sentence dropped, one added), so a first
  // visitor sees "edited 1 time" and an admin the diff of its impact note.
  if (edited) await updateReviewWithVersion(db, edited.id, editedDemoReview(edited.values), edited.userId);

  // Flags computed, the moderation allocated (both moderators on each review) and every allocated review moderated.
  await runs.execute(admin.userId, computeFlagsRun, {
    event_id: event.id,
    similarity_threshold: SIMILARITY_THRESHOLD_DEFAULT,
    ai_generated_threshold: AI_GENERATED_THRESHOLD_DEFAULT,
    dry_run: false,
  });
  await runs.execute(admin.userId, moderationAllocationRun, {
    event_id: event.id,
    ...MODERATION_ALLOCATION_DEFAULTS,
    min_spot_check_per_reviewer: 10,
    dry_run: false,
  });
  const allocations = await db
    .select({ reviewId: moderationAllocations.reviewId, subscriptionId: moderationAllocations.subscriptionId })
    .from(moderationAllocations)
    .where(eq(moderationAllocations.eventId, event.id))
    .orderBy(asc(moderationAllocations.reviewId), asc(moderationAllocations.subscriptionId));
  const seen = new Map<number, number>();
  const decisions = allocations.map(({ reviewId, subscriptionId }) => {
    const verdict = verdictOf.get(reviewId) ?? 'in';
    const nth = seen.get(reviewId) ?? 0;
    seen.set(reviewId, nth + 1);
    const classification = verdict === 'in' || (verdict === 'tie' && nth === 0) ? 1 : 0;
    return {
      eventId: event.id,
      reviewId,
      subscriptionId,
      classification,
      rationale:
        classification === 1
          ? 'The ratings follow from the notes, which are the reviewer’s own.'
          : 'The notes do not support the ratings given.',
      predefinedReason: classification === 1 ? 'valid' : 'rationale_does_not_correspond',
      customRationale: null,
    };
  });
  if (decisions.length > 0) await db.insert(moderations).values(decisions);
  await recordMissingModerationVersions(db, event.id);

  // The round is over, every switch off: the outcomes and the scores, as the admin runs them.
  await upsertConfig(db, 'reviews', event.id, DEFAULT_REVIEWS_CONFIG);
  await runs.execute(admin.userId, reviewOutcomesRun, { event_id: event.id, ...DEMO_PAST_OUTCOME_PARAMS, dry_run: false });
  // Issue 28 item 2: one rejected and one upheld appeal, decided before the scores (which then use the upheld review).
  await seedPastRoundAppeals(db, runs, event.id, admin.userId);
  await runs.execute(admin.userId, proposalScoresRun, { event_id: event.id, ...SCORE_DEFAULTS, dry_run: false });
}

/** The demo reviewer's edit of their first past review: the impact note loses its second sentence and gains one. */
export function editedDemoReview(values: Parameters<typeof insertReview>[1]) {
  const sentences = values.impactNote.split('. ');
  const kept = sentences.length > 2 ? [...sentences.slice(0, 1), ...sentences.slice(2)] : sentences;
  return {
    impactRating: values.impactRating,
    impactNote: `${kept.join('. ')} On reflection, the plan's milestones are credible: the team shipped two similar tools before.`,
    feasibilityRating: values.feasibilityRating,
    feasibilityNote: values.feasibilityNote,
    auditabilityRating: values.auditabilityRating,
    auditabilityNote: values.auditabilityNote,
  };
}
