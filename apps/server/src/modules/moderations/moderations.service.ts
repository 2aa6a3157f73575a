import { switchActive } from '@cr/contract/events';
import type { ModerationFields, ModerationPublic } from '@cr/contract/moderations';
import { moderationVersionContent, type ModerationVersionsOfReview } from '@cr/contract/history';
import { AccountStatus, RegistrationStatus } from '@cr/contract/users';
import type { Db } from '../../db/client';
import type { ReviewModerationRow } from '../../db/review-moderation';
import { uniqueViolation } from '../../db/errors';
import { authoredInObjective } from '../../db/rules';
import { catalystKey } from '../../domain/proposal-document';
import { isAdmin } from '../../domain/rules';
import { conflict, forbidden, notFound, ValidationFailure } from '../../errors';
import type { AuthUser } from '../../domain/auth-user';
import type { EventConfigService } from '../events/event-config.service';
import type { ReviewModeration } from '../reviews/reviews.service';
import { eventIdsWithRunFlag } from '../runs/runs.service';
import * as repo from './moderations.repository';
import * as versions from './moderation-versions.repository';

export const moderationErrors = {
  notFound: 'The moderation you are looking for does not exist.',
  reviewNotFound: 'The review you are looking for does not exist.',
  closed: 'Moderation submission is not open for this event.',
  notModerator: 'You are not an active moderator of this event.',
  notReady: 'Your account must be active and registered on chain before you can moderate.',
  notAllocated: 'This review is not allocated to you for moderation.',
  author: 'You cannot moderate reviews in an objective where you are an author.',
  already: 'You have already moderated this review.',
  notYours: 'You can only change or delete your own moderation.',
  otherReview: 'A moderation stays with the review it was written for.',
  changedMeanwhile: 'The moderation was changed at the same moment; load it again and retry.',
};

/** A lost race between two writes of one moderation (the same next version number): 409, not 500. */
function versionRace(error: unknown): never {
  if (uniqueViolation(error) === 'moderation_versions_moderation_version_key') throw conflict(moderationErrors.changedMeanwhile);
  throw error;
}

/** The run flag the review-outcomes run sets; once it is set and moderation is closed, moderations are public. */
export const OUTCOMES_FLAG = 'review_outcomes_generated';

const toFields = (input: ModerationFields) => ({
  classification: input.classification,
  rationale: input.rationale,
  predefinedReason: input.predefined_reason,
  customRationale: input.predefined_reason === 'other' ? input.custom_rationale : null,
});

const toModerationPublic = ({ moderation, publicContact }: repo.ModerationRow): ModerationPublic => ({
  row_id: moderation.id,
  review_id: moderation.reviewId,
  classification: moderation.classification,
  rationale: moderation.rationale,
  predefined_reason: moderation.predefinedReason,
  custom_rationale: moderation.customRationale,
  public_contact: publicContact,
});

/**
 * Moderations (DOMAIN.md "Moderation"): an active LV2 moderator of the review's event (decision 5) writes one
 * moderation per review allocated to them while moderation submission is on; only its author edits or deletes it,
 * under the same conditions. Who sees a moderation (with the moderator's public contact): its author, admins, and
 * everyone once the event's moderation is closed and its outcomes exist; anyone else gets 404.
 */
export function createModerationsService(deps: { db: Db; eventConfig: Pick<EventConfigService, 'eventIdsWhere' | 'switchActive'> }) {
  const { db, eventConfig } = deps;

  /**
   * Of these events, those whose moderations are public: moderation closed and outcomes generated. Both read through
   * the in-process read cache (db/read-cache), as the reviews' own visibility rule reads them.
   */
  async function publicEvents(eventIds: number[]): Promise<Set<number>> {
    if (eventIds.length === 0) return new Set();
    const all = await publicEventIds();
    return new Set(eventIds.filter((id) => all.includes(id)));
  }
  /** Every event whose moderations are public (publicEvents of all events). */
  async function publicEventIds(): Promise<number[]> {
    const [open, withOutcomes] = await Promise.all([
      eventConfig.eventIdsWhere((config) => switchActive(config, 'moderation_submission_enabled')),
      eventIdsWithRunFlag(db, OUTCOMES_FLAG),
    ]);
    return withOutcomes.filter((id) => !open.includes(id));
  }

  /**
   * Read once per request: the viewer object is the request's own (plugins/auth), and a list reads the
   * subscriptions twice, for its page and for its reviews' moderation fields.
   */
  const subscriptionsOf = new WeakMap<AuthUser, Promise<{ all: number[]; active: number[] }>>();

  /** The viewer's LV2 subscriptions: all (their moderations) and the active ones (their allocations). */
  function moderatorSubscriptions(viewer: AuthUser | null): Promise<{ all: number[]; active: number[] }> {
    if (!viewer) return Promise.resolve({ all: [], active: [] });
    let found = subscriptionsOf.get(viewer);
    if (!found) {
      found = repo
        .moderatorSubscriptions(db, viewer.id)
        .then((rows) => ({ all: rows.map((row) => row.id), active: rows.filter((row) => row.active).map((row) => row.id) }));
      subscriptionsOf.set(viewer, found);
    }
    return found;
  }

  async function mayRead(viewer: AuthUser | null, row: repo.ModerationRow, own: number[]) {
    if (isAdmin(viewer) || own.includes(row.moderation.subscriptionId)) return true;
    return (await publicEvents([row.moderation.eventId])).has(row.moderation.eventId);
  }

  /** The checks every write shares: submission open, the writer an active LV2 moderator with a ready account, the review theirs. */
  async function writer(user: AuthUser, review: { id: number; eventId: number }) {
    if (!(await eventConfig.switchActive(review.eventId, 'moderation_submission_enabled'))) throw forbidden(moderationErrors.closed);
    const context = await repo.moderatorContext(db, user.id, review.eventId, review.id);
    if (!context) throw forbidden(moderationErrors.notModerator);
    if (context.status !== AccountStatus.active || context.rbacRegStatus !== RegistrationStatus.persistent)
      throw forbidden(moderationErrors.notReady);
    if (!context.allocated) throw forbidden(moderationErrors.notAllocated);
    return context;
  }

  /** The caller's own moderation, or 404 when they may not see it and 403 when they see it but did not write it. */
  async function ownModeration(user: AuthUser, id: number) {
    const found = await repo.findModeration(db, id);
    const { all } = await moderatorSubscriptions(user);
    if (!found || !(await mayRead(user, found, all))) throw notFound(moderationErrors.notFound);
    if (!all.includes(found.moderation.subscriptionId)) throw forbidden(moderationErrors.notYours);
    return found;
  }

  /** A page of the caller's allocated or moderated review ids and their total, in one statement. */
  /** What each review answer carries about moderation for this viewer, from its moderation row (reviewModeration). */
  async function moderationFromRows(viewer: AuthUser | null, rows: ReviewModerationRow[]): Promise<Map<number, ReviewModeration>> {
    const othersModerated = rows.filter((row) => row.anyModeration && !row.own).map((row) => row.eventId);
    const seeAll = isAdmin(viewer) ? new Set(rows.map((row) => row.eventId)) : await publicEvents(othersModerated);
    return new Map(
      rows.map((row) => [
        row.id,
        {
          allocated_for_moderation: row.allocated,
          moderated: row.own !== null || (row.anyModeration && seeAll.has(row.eventId)),
          moderation: row.own
            ? { row_id: row.own.id, review_id: row.id, classification: row.own.classification, rationale: row.own.rationale }
            : null,
          next_allocation: row.allocated ? row.nextAllocation : null,
          flags: row.flags,
        },
      ]),
    );
  }

  return {
    async create(user: AuthUser, input: ModerationFields): Promise<ModerationPublic> {
      const review = await repo.findReviewForModeration(db, input.review_id);
      if (!review) throw notFound(moderationErrors.reviewNotFound);
      const context = await writer(user, review);
      if (await authoredInObjective(db, catalystKey(context.catalystId), { ...review, id: review.proposalId }))
        throw forbidden(moderationErrors.author);
      try {
        const moderation = await versions.insertModerationWithVersion(
          db,
          { eventId: review.eventId, reviewId: review.id, subscriptionId: context.subscriptionId, ...toFields(input) },
          user.id,
        );
        return toModerationPublic({ moderation, publicContact: context.publicContact });
      } catch (error) {
        if (uniqueViolation(error) === 'moderations_subscription_review_key') throw conflict(moderationErrors.already);
        throw error;
      }
    },

    async update(user: AuthUser, id: number, input: ModerationFields): Promise<ModerationPublic> {
      const found = await ownModeration(user, id);
      if (input.review_id !== found.moderation.reviewId)
        throw new ValidationFailure([
          { loc: ['body', 'record_update', 'review_id'], msg: moderationErrors.otherReview, type: 'value_error' },
        ]);
      await writer(user, { id: found.moderation.reviewId, eventId: found.moderation.eventId });
      const moderation = await versions.updateModerationWithVersion(db, id, toFields(input), user.id).catch(versionRace);
      return toModerationPublic({ moderation, publicContact: found.publicContact });
    },

    async remove(user: AuthUser, id: number): Promise<{ row_id: number }> {
      const found = await ownModeration(user, id);
      await writer(user, { id: found.moderation.reviewId, eventId: found.moderation.eventId });
      await versions.deleteModerationWithVersion(db, id, user.id).catch(versionRace);
      return { row_id: id };
    },

    async get(viewer: AuthUser | null, id: number): Promise<ModerationPublic> {
      const found = await repo.findModeration(db, id);
      if (!found || !(await mayRead(viewer, found, (await moderatorSubscriptions(viewer)).all))) throw notFound(moderationErrors.notFound);
      return toModerationPublic(found);
    },

    /**
     * The moderations of a review the viewer may see; `eventId` is the review's event when the viewer may see the
     * review (the reviews service answers it), else undefined: 404.
     */
    async byReview(viewer: AuthUser | null, reviewId: number, visibleEvent: Promise<number | undefined>): Promise<ModerationPublic[]> {
      // Read side by side; nothing is answered before the review's visibility to the viewer is known.
      const [eventId, rows, subscriptions] = await Promise.all([
        visibleEvent,
        repo.moderationsOfReview(db, reviewId),
        moderatorSubscriptions(viewer),
      ]);
      if (eventId === undefined) throw notFound(moderationErrors.reviewNotFound);
      if (rows.length === 0) return [];
      const own = subscriptions.all;
      const everything = isAdmin(viewer) || (await publicEvents([eventId])).has(eventId);
      return rows.filter((row) => everything || own.includes(row.moderation.subscriptionId)).map(toModerationPublic);
    },

    /**
     * Issue 28 item 3: the versions of the review's moderations. Admins: all of them, a deleted moderation's and a
     * deleted review's too (404 only when there is none). Anyone else who may see the review: their own moderations
     * still there (often none); a review they may not see is 404.
     */
    async versionsOfReview(
      viewer: AuthUser,
      reviewId: number,
      visibleEvent: Promise<number | undefined>,
    ): Promise<ModerationVersionsOfReview> {
      const [eventId, rows] = await Promise.all([visibleEvent, versions.listModerationVersionsOfReview(db, reviewId)]);
      const admin = isAdmin(viewer);
      if (admin ? eventId === undefined && rows.length === 0 : eventId === undefined) throw notFound(moderationErrors.reviewNotFound);
      const shown = admin ? rows : rows.filter((row) => row.moderatorUserId === viewer.id && !row.deleted);
      const byModeration = new Map<number, typeof shown>();
      for (const row of shown) byModeration.set(row.version.moderationId, [...(byModeration.get(row.version.moderationId) ?? []), row]);
      return {
        review_id: reviewId,
        moderations: [...byModeration.entries()].map(([moderationId, list]) => ({
          moderation_id: moderationId,
          moderator: list[0]!.anonymousId,
          deleted: list[0]!.deleted,
          versions: list.map((row) => ({
            version: row.version.version,
            action: row.version.action,
            created_at: row.version.createdAt.toISOString(),
            actor: admin ? row.actorCatalystId : row.version.actorUserId === viewer.id ? row.anonymousId : null,
            content: moderationVersionContent.parse(row.version.content),
          })),
        })),
      };
    },

    /** The reference API's `…/count/` variants. */
    async allocatedCount(user: AuthUser) {
      return (await repo.allocatedReviewIds(db, user.id, { size: 0, page: 0 })).total;
    },
    async moderatedCount(user: AuthUser) {
      return (await repo.moderatedReviewIds(db, user.id, { size: 0, page: 0 })).total;
    },

    /**
     * What each review answer carries about moderation for this viewer, in one statement whatever the number of
     * reviews (repository `reviewModerationOf`): flags (public), allocated_for_moderation (allocated to the viewer's
     * active LV2 subscription), moderation (the viewer's own), moderated (a moderation the viewer may see exists: their
     * own, or any for an admin or once the event's moderations are public), next_allocation (the viewer's next review
     * allocated in the same event and not yet moderated by them, after this one in review order, wrapping round; null
     * when none).
     */
    async reviewModeration(viewer: AuthUser | null, reviewIds: number[]): Promise<Map<number, ReviewModeration>> {
      return moderationFromRows(viewer, await repo.reviewModerationOf(db, reviewIds, viewer?.id ?? null));
    },

    /**
     * Who sees whether others moderated a review (a review answer's `moderated`): an admin every event's, anyone the
     * events whose moderations are public. For the review lists, which write their answers in SQL (reviews.repository).
     */
    async moderationSight(viewer: AuthUser | null): Promise<{ all: boolean; publicEvents: number[] }> {
      return isAdmin(viewer) ? { all: true, publicEvents: [] } : { all: false, publicEvents: await publicEventIds() };
    },
  };
}
export type ModerationsService = ReturnType<typeof createModerationsService>;
