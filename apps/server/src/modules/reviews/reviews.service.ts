import { reviewsVisible } from '@cr/contract/events';
import {
  overallScore,
  type NewProposalReview,
  type ReviewFields,
  type ReviewPublic,
  type ReviewsCountQuery,
  type ReviewsFilterQuery,
} from '@cr/contract/reviews';
import { reviewVersionContent, type ReviewVersions } from '@cr/contract/history';
import { AccountStatus, RegistrationStatus } from '@cr/contract/users';
import type { Db } from '../../db/client';
import { uniqueViolation } from '../../db/errors';
import { authoredInObjective } from '../../db/rules';
import { isAdmin, reviewVisibility, type ReviewVisibility } from '../../domain/rules';
import { catalystKey } from '../../domain/proposal-document';
import { conflict, forbidden, notFound } from '../../errors';
import type { AuthUser } from '../../domain/auth-user';
import type { EventConfigService } from '../events/event-config.service';
import type { LookupsService } from '../lookups/lookups.service';
import { createCountCache } from '../../lib/count-cache';
import { pagedJson } from '../../lib/json-text';
import { eventIdsWithRunFlag } from '../runs/runs.service';
import * as repo from './reviews.repository';
import * as versions from './review-versions.repository';

export const reviewErrors = {
  notFound: 'The review you are looking for does not exist.',
  proposalNotFound: 'The proposal you are looking for does not exist.',
  closed: 'Review submission is not open for this event.',
  notReviewer: 'You are not an active reviewer of this event.',
  notReady: 'Your account must be active and registered on chain before you can review.',
  author: 'You cannot review proposals in an objective where you are an author.',
  already: 'You have already reviewed this proposal.',
  notYours: 'You can only change or delete your own review.',
  changedMeanwhile: 'The review was changed at the same moment; load it again and retry.',
  versionsNotYours: "Only the review's author and admins may read its versions.",
};

function toFields(input: ReviewFields) {
  return {
    impactRating: input.impact_alignment_rating_given,
    impactNote: input.impact_alignment_note,
    feasibilityRating: input.feasibility_rating_given,
    feasibilityNote: input.feasibility_note,
    auditabilityRating: input.auditability_rating_given,
    auditabilityNote: input.auditability_note,
  };
}

/** What a review answer says about moderation for one viewer; nothing until the moderations module tells. */
export type ReviewModeration = Pick<ReviewPublic, 'allocated_for_moderation' | 'moderated' | 'moderation' | 'next_allocation' | 'flags'>;
const NO_MODERATION: ReviewModeration = {
  allocated_for_moderation: false,
  moderated: false,
  moderation: null,
  next_allocation: null,
  flags: [],
};

/**
 * A review's answer, its fields in the contract's order (`reviewPublic`): JSON.stringify of it is the text the
 * response schema's serializer writes, which the hot lists send without checking it again (routes, sendJsonText).
 */
export function toReviewPublic(row: repo.ReviewRow, moderation: ReviewModeration = NO_MODERATION): ReviewPublic {
  const { review } = row;
  const fields = {
    impact_alignment_rating_given: review.impactRating,
    impact_alignment_note: review.impactNote,
    feasibility_rating_given: review.feasibilityRating,
    feasibility_note: review.feasibilityNote,
    auditability_rating_given: review.auditabilityRating,
    auditability_note: review.auditabilityNote,
  };
  return {
    row_id: review.id,
    proposal_id: review.proposalId,
    proposal: {
      row_id: review.proposalId,
      pr_id: row.proposalPrId,
      title: row.proposalTitle,
      url: row.proposalUrl,
      category: row.categoryTitle,
      objective_title: row.categoryTitle,
      event_id: review.eventId,
    },
    assessor: row.assessor,
    assessor_level: row.assessorLevel,
    allocated: row.allocated,
    allocated_for_moderation: moderation.allocated_for_moderation,
    next_allocation: moderation.next_allocation,
    ranking: review.ranking,
    moderation: moderation.moderation,
    moderated: moderation.moderated,
    flags: moderation.flags,
    ...fields,
    overall_score: overallScore(fields),
    event: review.eventId,
    created_at: review.createdAt.toISOString(),
    updated_at: review.updatedAt.toISOString(),
  };
}

/**
 * Reviews (DOMAIN.md "Reviews"): an active LV0/LV1 reviewer of the proposal's event, with a ready account, writes one
 * review per proposal while review submission is enabled, never in an objective they authored in; only the author
 * edits or deletes it, and only while submission is enabled. Visibility: own reviews always; all reviews of an event
 * while its review visibility or moderation is on, or once its outcomes exist; admins see all.
 */
export function createReviewsService(deps: {
  db: Db;
  eventConfig: Pick<EventConfigService, 'eventIdsWhere' | 'switchActive'>;
  lookups: Pick<LookupsService, 'subscriptionIdsOf' | 'subscriptionsOf'>;
  /** The moderation fields of these reviews for this viewer, in one query for any number (moderations service). */
  moderationOf?: (viewer: AuthUser | null, reviewIds: number[]) => Promise<Map<number, ReviewModeration>>;
  /**
   * Who sees whether others moderated a review, for the lists that write their answers in SQL with their moderation
   * fields (repository `…Json`; moderations service). Without it, only an admin sees others' moderations there.
   */
  moderationSight?: (viewer: AuthUser | null) => Promise<repo.ModerationSight>;
  /**
   * Issue 28 item 3: every write keeps a version of the review. Off only for the bench's baseline (bench
   * review-versions.bench.ts measures what the version adds to a submit); never off in the app.
   */
  writeVersions?: boolean;
}) {
  const { db, eventConfig, lookups } = deps;
  const writeVersions = deps.writeVersions ?? true;

  /** The moderation fields of these reviews, batched for the whole list (no query per review). */
  const moderationOf = (viewer: AuthUser | null, ids: number[]) =>
    deps.moderationOf && ids.length > 0 ? deps.moderationOf(viewer, ids) : Promise.resolve(new Map<number, ReviewModeration>());

  /** The rows as answers, with their moderation fields. */
  async function answers(viewer: AuthUser | null, rows: repo.ReviewRow[]): Promise<ReviewPublic[]> {
    const moderation = await moderationOf(
      viewer,
      rows.map((row) => row.review.id),
    );
    return rows.map((row) => toReviewPublic(row, moderation.get(row.review.id)));
  }
  const answer = async (viewer: AuthUser | null, row: repo.ReviewRow) => (await answers(viewer, [row]))[0]!;
  /** The viewer and what they see of others' moderations, for the statements that write answers (repository `…Json`). */
  const wireViewer = async (viewer: AuthUser | null) => ({
    id: viewer?.id ?? null,
    sight: deps.moderationSight ? await deps.moderationSight(viewer) : { all: isAdmin(viewer), publicEvents: [] },
  });
  // Totals of the reviews list lag by at most 15 s; the rows are always current.
  const totals = createCountCache(15_000, undefined, undefined, 'review_totals');

  /** `own`: the viewer's subscriptions with their events, when the caller has them already. */
  async function visibilityFor(viewer: AuthUser | null, own?: { id: number; eventId: number }[]): Promise<ReviewVisibility> {
    if (isAdmin(viewer)) return reviewVisibility(viewer, [], []); // an admin needs no look-ups
    return reviewVisibility(viewer, await openEventIds(), viewer ? (own ?? (await lookups.subscriptionsOf(viewer.id))) : []);
  }
  // DOMAIN.md "Reviews": an event's reviews are public while its switches say so, and for good once its review
  // outcomes exist (the run flag review_outcomes_generated).
  const openEventIds = async () => [
    ...(await eventConfig.eventIdsWhere((config) => reviewsVisible(config))),
    ...(await eventIdsWithRunFlag(db, 'review_outcomes_generated')),
  ];
  /** visibilityFor, with the viewer's own subscriptions left to the statement (repository ViewerVisibility). */
  async function viewerVisibilityFor(viewer: AuthUser | null): Promise<repo.ViewerVisibility> {
    if (isAdmin(viewer)) return { all: true, eventIds: [], signedIn: true };
    return { all: false, eventIds: await openEventIds(), signedIn: viewer !== null };
  }

  /**
   * The checks every write shares, in two queries: submission open for the event, and in one query the writer's
   * active LV0/LV1 subscription with a ready account (active, persistently registered on chain).
   */
  async function writer(user: AuthUser, eventId: number, proposalId: number) {
    if (!(await eventConfig.switchActive(eventId, 'review_submission_enabled'))) throw forbidden(reviewErrors.closed);
    const context = await repo.writerContext(db, user.id, eventId, proposalId);
    if (!context) throw forbidden(reviewErrors.notReviewer);
    if (context.status !== AccountStatus.active || context.rbacRegStatus !== RegistrationStatus.persistent)
      throw forbidden(reviewErrors.notReady);
    return context;
  }

  /** The caller's own review; someone else's answers 403 only when the caller may see it, else 404 like a missing one. */
  async function ownReview(user: AuthUser, id: number) {
    const own = await lookups.subscriptionsOf(user.id);
    const found = await repo.findReview(db, id, await visibilityFor(user, own));
    if (!found) throw notFound(reviewErrors.notFound);
    if (!own.some((subscription) => subscription.id === found.review.subscriptionId)) throw forbidden(reviewErrors.notYours);
    return found;
  }

  /** The filters of a list or count query; the reference API's names (`assessor`, `rankings_included`) add to ours. */
  async function filterOf(viewer: AuthUser | null, query: ReviewsCountQuery): Promise<repo.ReviewFilter> {
    const asked = [...(query.rankings ?? []), ...(query.rankings_included ?? [])];
    const rankings = asked.length > 0 ? [...new Set([...asked, ...(query.include_pending ? [0] : [])])] : undefined;
    const assessors = [...(query.assessors ?? []), ...(query.assessor ?? [])];
    return {
      proposalId: query.proposal_id,
      proposalTitle: query.proposal,
      objective: typeof query.objective === 'number' ? query.objective : undefined,
      objectiveTitle: typeof query.objective === 'string' ? query.objective : undefined,
      eventId: query.event_id,
      assessors: assessors.length > 0 ? assessors : undefined,
      rankings,
      subscriptionIds: query.my_reviews ? (viewer ? await lookups.subscriptionIdsOf(viewer.id) : []) : undefined,
    };
  }

  return {
    /** Submitting is the hot path of the last hour: five queries, and the answer built from what they returned. */
    async create(user: AuthUser, input: NewProposalReview): Promise<ReviewPublic> {
      const proposal = await repo.findProposalForReview(db, input.proposal_id);
      if (!proposal) throw notFound(reviewErrors.proposalNotFound);
      const context = await writer(user, proposal.eventId, proposal.id);
      if (await authoredInObjective(db, catalystKey(context.catalystId), proposal)) throw forbidden(reviewErrors.author);
      try {
        const values = {
          eventId: proposal.eventId,
          proposalId: proposal.id,
          categoryId: proposal.categoryId,
          subscriptionId: context.subscriptionId,
          ...toFields(input),
        };
        const review = writeVersions ? await versions.insertReviewWithVersion(db, values, user.id) : await repo.insertReview(db, values);
        return toReviewPublic({
          review,
          proposalTitle: proposal.title,
          proposalPrId: proposal.prId,
          proposalUrl: proposal.url,
          categoryTitle: proposal.categoryTitle,
          assessor: context.anonymousId,
          assessorLevel: context.role,
          allocated: context.allocated,
        });
      } catch (error) {
        if (uniqueViolation(error) === 'reviews_subscription_proposal_key') throw conflict(reviewErrors.already);
        throw error;
      }
    },

    async update(user: AuthUser, id: number, input: ReviewFields): Promise<ReviewPublic> {
      const found = await ownReview(user, id);
      await writer(user, found.review.eventId, found.review.proposalId);
      try {
        await versions.updateReviewWithVersion(db, id, toFields(input), user.id);
      } catch (error) {
        if (uniqueViolation(error) === 'review_versions_review_version_key') throw conflict(reviewErrors.changedMeanwhile);
        throw error;
      }
      return answer(user, (await repo.findReview(db, id))!);
    },

    async remove(user: AuthUser, id: number): Promise<{ row_id: number }> {
      const found = await ownReview(user, id);
      await writer(user, found.review.eventId, found.review.proposalId);
      try {
        await versions.deleteReviewWithVersion(db, id, user.id);
      } catch (error) {
        if (uniqueViolation(error)?.endsWith('_version_key')) throw conflict(reviewErrors.changedMeanwhile);
        throw error;
      }
      return { row_id: id };
    },

    /**
     * One review the viewer may see, as the detail's JSON text: the wire answer, how many times it was edited and, for
     * a moderator of it, whether it changed after their moderation (issue 28 item 3). One statement (repository).
     */
    async getJson(viewer: AuthUser | null, id: number): Promise<string> {
      const [visibility, wire] = await Promise.all([viewerVisibilityFor(viewer), wireViewer(viewer)]);
      const found = await repo.findReviewJson(db, id, visibility, wire);
      if (found === undefined) throw notFound(reviewErrors.notFound);
      return found;
    },

    /**
     * Issue 28 item 3: a review's versions, oldest first. Admins read any review's, a deleted one's too; its author
     * reads their own while it exists, where the actor shows as the review's anonymous id; anyone else gets 403.
     */
    async versions(viewer: AuthUser, id: number): Promise<ReviewVersions> {
      const rows = await versions.listReviewVersions(db, id);
      if (rows.length === 0) throw notFound(reviewErrors.notFound);
      const deleted = rows[rows.length - 1]!.version.action === 'delete';
      const admin = isAdmin(viewer);
      if (!admin && (deleted || rows[0]!.authorUserId !== viewer.id)) {
        // Someone who may not see the review (deleted, or of a closed event) learns nothing of it: 404 as for none.
        if (deleted || !(await repo.findReview(db, id, await visibilityFor(viewer)))) throw notFound(reviewErrors.notFound);
        throw forbidden(reviewErrors.versionsNotYours);
      }
      return {
        review_id: id,
        deleted,
        versions: rows.map((row) => {
          const byAuthor = row.version.actorUserId !== null && row.version.actorUserId === row.authorUserId;
          return {
            version: row.version.version,
            action: row.version.action,
            created_at: row.version.createdAt.toISOString(),
            actor: admin ? row.actorCatalystId : byAuthor ? row.anonymousId : null,
            by_author: byAuthor,
            content: reviewVersionContent.parse(row.version.content),
          };
        }),
      };
    },

    /** The review's event when the viewer may see the review (the moderations of a review). */
    async visibleEventOf(viewer: AuthUser | null, id: number): Promise<number | undefined> {
      return (await repo.findReview(db, id, await visibilityFor(viewer)))?.review.eventId;
    },

    /**
     * Spec §2.14 (F-008, F-010): a page of the reviews allocated to the viewer for moderation, or of those they
     * moderated, in review order, as the JSON array of their answers (text), and the list's total.
     */
    async moderatorPageJson(
      viewer: AuthUser,
      which: 'allocated' | 'moderated',
      page: { size: number; page: number },
    ): Promise<{ data: string; total: number }> {
      const { id, sight } = await wireViewer(viewer);
      return repo.findModeratorPageJson(db, which, { id: id!, sight }, page);
    },

    /** The viewer's own review of a proposal, or 404 (which the client treats as 'none yet'). */
    async submittedReview(user: AuthUser, proposalId: number): Promise<ReviewPublic> {
      const found = await repo.findOwnReview(db, proposalId, await lookups.subscriptionIdsOf(user.id));
      if (!found) throw notFound(reviewErrors.notFound);
      return answer(user, found);
    },

    /** These reviews that the viewer may see, in id order, as the JSON array of their answers (text). */
    async byIdsJson(viewer: AuthUser | null, ids: number[]): Promise<string> {
      const [visibility, wire] = await Promise.all([viewerVisibilityFor(viewer), wireViewer(viewer)]);
      return repo.findReviewsByIdsJson(db, ids, visibility, wire);
    },

    /** Spec §2.13: a page of the reviews the filters find, as the paged answer's JSON text. */
    async filteredJson(viewer: AuthUser | null, query: ReviewsFilterQuery): Promise<string> {
      const [visibility, filter, wire] = await Promise.all([visibilityFor(viewer), filterOf(viewer, query), wireViewer(viewer)]);
      const { data, total } = await repo.listReviewsJson(db, filter, visibility, query, wire, (key, load, options) =>
        totals.get(key, load, options),
      );
      return pagedJson(data, total, query);
    },

    /** How many reviews the filters find (the reference API's `…/count/`). */
    async count(viewer: AuthUser | null, query: ReviewsCountQuery): Promise<number> {
      const visibility = await visibilityFor(viewer);
      const filter = await filterOf(viewer, query);
      return repo.countReviews(db, filter, visibility, (key, load, options) => totals.get(key, load, options));
    },
  };
}
export type ReviewsService = ReturnType<typeof createReviewsService>;
