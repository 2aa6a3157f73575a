import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { QueryKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { coverageKeys } from './features/admin/api/coverage';
import { dashboardKeys } from './features/admin/api/dashboard';
import { mailQueueKeys } from './features/admin/api/mail-queue';
import { appealRunKeys } from './features/admin/api/appeal-runs';
import { adminUsersKeys } from './features/admin/api/users';
import { appealsKeys } from './features/appeals/api/appeals';
import { eventsKeys } from './features/events/api/events';
import { remindersKeys } from './features/events/api/reminders';
import { notificationPreferencesKeys } from './features/profile/api/notifications';
import { moderationKeys } from './features/moderation/api/keys';
import { proposalsKeys } from './features/proposals/api/proposals';
import { reviewsKeys } from './features/reviews/api/keys';
import { invalidations, isStaleAfter, type MutationKind } from './lib/invalidations';
import { sharedKeys } from './lib/query-keys';
import { apiTokensQuery } from './features/profile/api/tokens';

/**
 * Issue 26 items 10 and 16: one table says what each write makes stale (lib/invalidations), and every mutation hook
 * uses it. Here, read from the sources: no mutation or invalidation outside the table's hook; each kind named by one
 * hook. Then, with the features' own key factories, each write against the screens whose figures it changes.
 */
const src = import.meta.dirname;
const table = join(src, 'lib', 'invalidations.ts');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [path] : [];
  });
}
const sources = sourceFiles(src)
  .filter((path) => path !== table)
  .map((path) => ({ path: relative(src, path), text: readFileSync(path, 'utf8') }));

describe('every mutation hook uses the invalidations table (issue 26 item 10)', () => {
  it('reads the sources it means to', () => {
    expect(sources.filter(({ text }) => text.includes('useInvalidatingMutation(')).length).toBeGreaterThanOrEqual(8);
  });

  it('builds no mutation with useMutation and marks nothing stale by hand, outside lib/invalidations', () => {
    const offenders = sources
      .filter(({ text }) => /\buseMutation\b|\.(invalidateQueries|resetQueries|removeQueries|refetchQueries)\(/.test(text))
      .map(({ path }) => path);
    expect(offenders).toEqual([]);
  });

  it('names each kind of the table in exactly one hook, and only kinds of the table', () => {
    const named = sources.flatMap(({ text }) => [...text.matchAll(/useInvalidatingMutation(?:<[^>]*>)?\(\s*'(\w+)'/g)].map((m) => m[1]!));
    const calls = sources.reduce((sum, { text }) => sum + (text.match(/useInvalidatingMutation(?:<[^>]*>)?\(/g)?.length ?? 0), 0);
    expect(named).toHaveLength(calls);
    expect([...named].sort()).toEqual(Object.keys(invalidations).sort());
  });
});

const [event, user, proposal, review] = [7, 'id.catalyst://cardano/someone', 11, 13];

/** The screens and their queries, by the features' own key factories. */
const screens = {
  profile: sharedKeys.me,
  adminUserProfile: adminUsersKeys.user(user),
  adminUsersList: adminUsersKeys.page(0, 25, ''),
  overview: dashboardKeys.event(event),
  coverage: coverageKeys.summary(event),
  coverageReviews: coverageKeys.reviews(event, 'short', 0),
  reviewsList: reviewsKeys.list(
    { proposalId: '', includePending: false, proposal: '', objective: '', myReviews: false, assessors: [], rankings: [0] },
    0,
    25,
  ),
  proposalReviews: reviewsKeys.ofProposal(proposal, 0, 25),
  review: reviewsKeys.detail(review),
  ownReview: reviewsKeys.own(proposal),
  proposalsList: proposalsKeys.list({ page: 0, size: 25, title: '' }),
  allocatedProposals: proposalsKeys.allocated(0, 25),
  proposal: proposalsKeys.detail(proposal),
  allocatedReviews: moderationKeys.allocated(0, 25),
  moderatedReviews: moderationKeys.moderated(0, 25),
  reviewModerations: moderationKeys.byReview(review),
  events: eventsKeys.page(0, 25),
  currentEvents: eventsKeys.current,
  eventConfig: eventsKeys.config(event),
  levelQualifiers: eventsKeys.levels(event),
  runFlags: eventsKeys.allocations(event),
  status: eventsKeys.status,
  categories: eventsKeys.categories(event),
  remindersConfig: remindersKeys.config(event),
  notificationPreferences: notificationPreferencesKeys.mine,
  unsubscribeState: notificationPreferencesKeys.unsubscribe('token'),
  mailQueue: mailQueueKeys.overview,
  apiTokens: apiTokensQuery.queryKey,
  appealsConfig: appealRunKeys.config(event),
  eventAppeals: appealRunKeys.ofEvent(event, 0),
  appealState: appealsKeys.byReview(review),
  appeal: appealsKeys.detail(1),
  myAppeals: appealsKeys.mine(0),
  allocatedAppeals: appealsKeys.allocated(0),
} satisfies Record<string, QueryKey>;
type Screen = keyof typeof screens;

/** Each write and the screens showing a figure it changes (the table may name more: whole families). */
const pairs: [MutationKind, Screen[]][] = [
  ['saveReview', ['profile', 'adminUserProfile', 'overview', 'reviewsList', 'proposalReviews', 'allocatedProposals', 'proposal']],
  ['uploadReviewFile', ['profile', 'adminUserProfile', 'overview', 'reviewsList', 'proposalReviews', 'allocatedProposals', 'proposal']],
  ['deleteReview', ['profile', 'adminUserProfile', 'overview', 'reviewsList', 'proposalReviews', 'allocatedProposals', 'proposalsList']],
  [
    'changeModeration',
    ['allocatedReviews', 'moderatedReviews', 'reviewModerations', 'review', 'reviewsList', 'profile', 'overview', 'coverage'],
  ],
  ['subscribe', ['profile', 'adminUserProfile', 'overview']],
  ['answerInvitation', ['profile', 'adminUserProfile', 'overview']],
  ['invite', ['adminUserProfile', 'overview']],
  ['importProposals', ['proposalsList', 'proposal', 'categories', 'overview']],
  ['allocateProposals', ['runFlags', 'allocatedProposals', 'profile', 'adminUserProfile', 'overview', 'review']],
  ['allocateModeration', ['runFlags', 'allocatedReviews', 'review', 'overview', 'coverage']],
  ['topUpModeration', ['runFlags', 'allocatedReviews', 'review', 'overview', 'coverage', 'coverageReviews']],
  ['computeFlags', ['runFlags', 'review', 'allocatedReviews']],
  ['importFlags', ['review', 'allocatedReviews']],
  ['generateOutcomes', ['runFlags', 'reviewsList', 'review', 'profile', 'adminUserProfile', 'overview', 'coverage']],
  ['generateScores', ['runFlags', 'proposal', 'overview', 'appealState', 'eventAppeals', 'myAppeals', 'allocatedAppeals', 'appeal']],
  // Issue 28 item 2: appeals.
  ['saveAppealsConfig', ['appealsConfig', 'appealState']],
  ['makeAppeal', ['appealState', 'myAppeals', 'eventAppeals']],
  [
    'decideAppeal',
    [
      'appeal',
      'allocatedAppeals',
      'appealState',
      'myAppeals',
      'eventAppeals',
      'review',
      'reviewsList',
      'profile',
      'adminUserProfile',
      'overview',
      'proposal',
    ],
  ],
  ['allocateAppeals', ['runFlags', 'eventAppeals', 'allocatedAppeals', 'appealState', 'myAppeals']],
  ['saveEvent', ['events', 'currentEvents', 'proposalsList', 'reviewsList', 'profile']],
  ['saveEventConfig', ['eventConfig', 'reviewsList', 'overview']],
  ['saveLevelQualifiers', ['levelQualifiers']],
  ['saveStatus', ['status']],
  ['saveReminders', ['remindersConfig']],
  ['saveNotificationPreferences', ['notificationPreferences', 'unsubscribeState']],
  ['unsubscribe', ['notificationPreferences', 'unsubscribeState']],
  ['resubscribe', ['notificationPreferences', 'unsubscribeState']],
  ['retryFailedMails', ['mailQueue']],
  // Issue 29: the profile's API tokens.
  ['createApiToken', ['apiTokens']],
  ['revokeApiToken', ['apiTokens']],
  ['activate', ['profile']],
  ['verifyEmail', ['profile']],
  ['updatePassword', ['profile']],
  ['saveLanguage', ['profile']],
  // Issue 47: a ban shows on the Users tab and the profile; withdrawing open work changes the round's lists and figures.
  ['banUser', ['adminUsersList', 'adminUserProfile', 'reviewsList', 'proposalsList', 'overview']],
  ['unbanUser', ['adminUsersList', 'adminUserProfile']],
];

describe('each write against the screens whose figures it changes (issue 26 items 10, 16)', () => {
  it.each(pairs)('%s makes stale what it changes', (kind, stale) => {
    expect(stale.filter((screen) => !isStaleAfter(kind, screens[screen]))).toEqual([]);
  });

  it('spares what a write does not change', () => {
    expect(isStaleAfter('saveStatus', screens.reviewsList)).toBe(false);
    expect(isStaleAfter('saveLevelQualifiers', screens.eventConfig)).toBe(false);
    expect(isStaleAfter('generateScores', screens.profile)).toBe(false);
    expect(isStaleAfter('invite', screens.profile)).toBe(false);
    expect(isStaleAfter('retryFailedMails', screens.overview)).toBe(false);
    for (const kind of ['register', 'requestPasswordReset', 'resetPassword', 'changeEmail', 'closeAccount'] as const)
      expect(invalidations[kind]).toEqual([]);
  });

  it('names every write of the table in the pairs or as changing nothing on screen', () => {
    // Closing one's own account (issue 47) ends the session: nothing of it is shown again.
    const covered = new Set([
      ...pairs.map(([kind]) => kind),
      'register',
      'requestPasswordReset',
      'resetPassword',
      'changeEmail',
      'closeAccount',
    ]);
    expect(Object.keys(invalidations).filter((kind) => !covered.has(kind))).toEqual([]);
  });
});
