import { useMutation, type QueryClient, type QueryKey, type UseMutationOptions } from '@tanstack/react-query';
import { familyKeys, queryRoots, sharedKeys } from './query-keys';
import { useSession, type SessionState } from './session';

/**
 * What each write makes stale (issue 26 items 10, 16): one table, from the kind of write to the prefixes of the query
 * keys whose figures it changes, so that no screen shows figures from before a write of this session once the write
 * is done (the cache keeps answers 30 s). A screen on show fetches again at once; one visited later fetches when it
 * mounts. Every mutation hook is built with `useInvalidatingMutation` and names its kind here (a test keeps it so).
 *
 * Families: reviews (community list, a proposal's reviews, a review), proposals (lists with has_reviewed, a proposal
 * with its score), moderations (a moderator's lists, a review's moderations), me (the profile: subscriptions, current
 * and historic stats), userProfiles (an admin's view of a user's profile), dashboards (the Overview), events, the
 * event configurations, categories, the mail queue.
 */
const { reviews, proposals, moderations, events, categories, appeals } = queryRoots;
const { me } = sharedKeys;
const {
  dashboards,
  userProfiles,
  reviewsConfigs,
  levelQualifiers,
  runFlags,
  status,
  remindersConfigs,
  appealsConfigs,
  notificationPreferences,
  unsubscribeStates,
  mailQueue,
  apiTokens,
  openData,
} = familyKeys;

/** A reviewer's figures: what their reviews, allocations and outcomes count in, seen by them or by an admin. */
const reviewerFigures = [me, userProfiles] as const;

export const invalidations = {
  // A reviewer's review: the lists, has_reviewed, the profile's current stats, the round's review counts.
  saveReview: [reviews, proposals, ...reviewerFigures, dashboards],
  deleteReview: [reviews, proposals, ...reviewerFigures, dashboards],
  // An offline review file's real run (issue 29): reviews created and updated, as many saves at once.
  uploadReviewFile: [reviews, proposals, ...reviewerFigures, dashboards],
  // A moderator's verdict: their lists, the review's state, their moderation count, the round's moderation progress.
  changeModeration: [moderations, reviews, ...reviewerFigures, dashboards],
  // Subscriptions: the profile's subscriptions table, the round's subscribers.
  subscribe: [...reviewerFigures, dashboards],
  answerInvitation: [...reviewerFigures, dashboards, moderations],
  invite: [userProfiles, dashboards],
  // The admin's runs (real ones; a dry run changes nothing): the section's run flags and the figures each writes.
  importProposals: [proposals, categories, reviews, dashboards],
  allocateProposals: [runFlags, proposals, reviews, ...reviewerFigures, dashboards],
  allocateModeration: [runFlags, reviews, moderations, dashboards],
  // A coverage top-up (issue 28): more allocations, the moderators' lists, the coverage figures (moderations root).
  topUpModeration: [runFlags, reviews, moderations, dashboards],
  computeFlags: [runFlags, reviews, moderations],
  importFlags: [reviews, moderations],
  generateOutcomes: [runFlags, reviews, moderations, ...reviewerFigures, dashboards],
  // Scores also close the undecided appeals (issue 28 item 2) and publish the round's open data (issue 48).
  generateScores: [runFlags, proposals, dashboards, appeals, openData],
  // Configuration: an event's activity decides which rounds' proposals, reviews and current stats show; its switches
  // decide what the lists answer, and its review window shows on the Overview.
  saveEvent: [events, proposals, reviews, moderations, ...reviewerFigures],
  saveEventConfig: [reviewsConfigs, reviews, moderations, dashboards],
  saveLevelQualifiers: [levelQualifiers],
  saveStatus: [status],
  saveReminders: [remindersConfigs],
  // Appeals (issue 28 item 2): the settings; an appeal (its state on the review, the author's list); a decision (a
  // decided appeal changes the review's ranking, its author's figures and the round's); the allocation run.
  saveAppealsConfig: [appealsConfigs, appeals],
  makeAppeal: [appeals],
  decideAppeal: [appeals, reviews, proposals, ...reviewerFigures, dashboards],
  allocateAppeals: [runFlags, appeals],
  // Notifications (issue 27): the profile's switches and the unsubscribe screen read the same opt-outs.
  saveNotificationPreferences: [notificationPreferences, unsubscribeStates],
  unsubscribe: [notificationPreferences, unsubscribeStates],
  resubscribe: [notificationPreferences, unsubscribeStates],
  // API tokens (issue 29): the profile's list.
  createApiToken: [apiTokens],
  revokeApiToken: [apiTokens],
  // Issue 47: a ban or an unban changes the user's row and profile; a ban that withdraws open work changes the
  // round's reviews, allocations and figures.
  banUser: [queryRoots.admin, reviews, proposals, ...reviewerFigures, dashboards],
  unbanUser: [queryRoots.admin],
  // Closing one's own account ends the session: nothing of it is shown again.
  closeAccount: [],
  // Failed mails queued again: the queue's counts and failures.
  retryFailedMails: [mailQueue],
  // The account: what the profile shows of it.
  register: [],
  activate: [...reviewerFigures],
  verifyEmail: [...reviewerFigures],
  requestPasswordReset: [],
  resetPassword: [],
  updatePassword: [...reviewerFigures],
  // Nothing changes until the new address is verified (verifyEmail).
  changeEmail: [],
  // The interface language kept with the account (issue 31): the profile shows it.
  saveLanguage: [me],
} as const satisfies Record<string, readonly QueryKey[]>;

export type MutationKind = keyof typeof invalidations;

/** Whether a write of this kind makes the query with this key stale: the key starts with one of the kind's prefixes. */
export function isStaleAfter(kind: MutationKind, queryKey: QueryKey): boolean {
  return invalidations[kind].some((prefix: QueryKey) => prefix.every((part, index) => queryKey[index] === part));
}

/** Marks stale what a write of this kind changed, except the keys `keep` names; resolves once those on show are fetched. */
export function invalidateAfter(client: QueryClient, kind: MutationKind, keep: (queryKey: QueryKey) => boolean = () => false) {
  return client.invalidateQueries({ predicate: ({ queryKey }) => isStaleAfter(kind, queryKey) && !keep(queryKey) });
}

export interface InvalidatingOptions<TData, TVariables> {
  /** An answer that changed nothing on the server (a dry run): the cache stays. */
  changedNothing?: (data: TData, variables: TVariables) => boolean;
  /** Keys the hook's own onSuccess already set from the answer (and must not fetch again). */
  keep?: (queryKey: QueryKey, variables: TVariables) => boolean;
}

/**
 * `useMutation` whose success makes stale what the table names for its kind, after the hook's own onSuccess (which
 * may first put the answer into the cache, or clear a draft before anything renders from the new cache).
 */
export function useInvalidatingMutation<TData, TVariables = void, TError = Error, TOnMutateResult = unknown>(
  kind: MutationKind,
  options: UseMutationOptions<TData, TError, TVariables, TOnMutateResult> & InvalidatingOptions<TData, TVariables>,
) {
  const { changedNothing, keep, onSuccess, ...rest } = options;
  return useMutation<TData, TError, TVariables, TOnMutateResult>({
    ...rest,
    mutationKey: [kind],
    onSuccess: async (data, variables, onMutateResult, context) => {
      await onSuccess?.(data, variables, onMutateResult, context);
      if (changedNothing?.(data, variables)) return;
      await invalidateAfter(context.client, kind, (queryKey) => keep?.(queryKey, variables) ?? false);
    },
  });
}

/**
 * The server's answers depend on who asks (an admin reads every status message, a visitor only the active ones; which
 * reviews one may see): when the signed-in account changes (a login or logout, in this tab or another), no answer read
 * as someone else is kept. Answers the unsubscribe.
 */
export function resetReadsWhenAccountChanges(client: QueryClient): () => void {
  const signedInAs = (state: SessionState) => (state.logged ? (state.localUser?.catalyst_id ?? '') : null);
  let readsBelongTo = signedInAs(useSession.getState());
  return useSession.subscribe((state) => {
    const now = signedInAs(state);
    if (now === readsBelongTo) return;
    readsBelongTo = now;
    // Signed out: what no screen shows goes; the screen on show is left as it is while the app leaves it (read
    // again now, its signed-in reads would be refused). Signed in: everything is read afresh, as the new account.
    if (now === null) client.removeQueries({ type: 'inactive' });
    else void client.resetQueries();
  });
}
