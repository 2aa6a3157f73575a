import {
  appealMessages,
  type AppealDecisionFields,
  type AppealPublic,
  type AppealState,
  type NewAppeal,
  type AppealsConfig,
} from '@cr/contract/appeals';
import type { PageQuery } from '@cr/contract/common';
import { ReviewRanking } from '@cr/contract/reviews';
import type { Db, DbOrTx } from '../../db/client';
import { uniqueViolation } from '../../db/errors';
import { appealOutcome } from '../../domain/appeal-allocation';
import { isAdmin } from '../../domain/rules';
import { conflict, forbidden, notFound } from '../../errors';
import type { AuthUser } from '../../domain/auth-user';
import { findConfig } from '../../db/config-records';
import { appealsConfigValue } from '../events/event-config.service';
import { shareRunLock } from '../runs/runs.service';
import { recordAudit } from '../system/audit.service';
import * as repo from './appeals.repository';

const DAY_MS = 24 * 60 * 60 * 1000;
const EXCLUDED: readonly number[] = [ReviewRanking.excluded_moderation, ReviewRanking.excluded_threshold];
const DECIDED = ['upheld', 'rejected', 'closed'];

/** Where an event's appeal window stands for a review (pure; `now` given so the rule is testable). */
export function appealWindow(input: {
  ranking: number;
  config: AppealsConfig;
  outcomesAt: Date | undefined;
  scoresRan: boolean;
  now: Date;
}): { window: AppealState['window']; endsAt: Date | null } {
  const endsAt =
    input.outcomesAt && input.config.appeals_enabled ? new Date(input.outcomesAt.getTime() + input.config.window_days * DAY_MS) : null;
  if (!EXCLUDED.includes(input.ranking)) return { window: 'not_excluded', endsAt };
  if (!input.config.appeals_enabled) return { window: 'disabled', endsAt };
  if (!input.outcomesAt) return { window: 'not_open_yet', endsAt };
  if (input.scoresRan) return { window: 'scores_ran', endsAt };
  if (input.now >= endsAt!) return { window: 'ended', endsAt };
  return { window: 'open', endsAt };
}

const windowErrors: Record<Exclude<AppealState['window'], 'open'>, string> = {
  not_excluded: appealMessages.notExcluded,
  disabled: appealMessages.disabled,
  not_open_yet: appealMessages.notOpenYet,
  ended: appealMessages.windowEnded,
  scores_ran: appealMessages.scoresRan,
};

const decisionPublic = (row: typeof import('../../db/schema/index').appealDecisions.$inferSelect) => ({
  decision: row.decision,
  rationale: row.rationale,
  predefined_reason: row.predefinedReason,
  custom_rationale: row.customRationale,
  updated_at: row.updatedAt.toISOString(),
});

/**
 * Appeals (issue 28 item 2): the author of an excluded review appeals it once within the event's window; the
 * moderators allocated to an appeal decide it, each editing their decision until a majority decides it; an upheld
 * appeal includes the review (its author's figures follow, being computed from the rankings: review-history). Every
 * write is audited. Who sees an appeal: its author, its moderators and admins; anyone else gets 404.
 */
export function createAppealsService(deps: {
  db: Db;
  /** After a decided appeal changed a ranking: what caches the event's figures forgets them. */
  onDecided?: (eventId: number) => void;
  now?: () => Date;
}) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  /** Appeals as the viewer sees them: the viewer's allocations and the decisions read once for all the rows. */
  async function toPublicMany(viewer: AuthUser, rows: repo.AppealRow[]): Promise<AppealPublic[]> {
    const ids = rows.map((row) => row.appeal.id);
    const allocations = new Map((await repo.allocationsOf(db, viewer.id, ids)).map((item) => [item.appealId, item]));
    const showDecisions = (row: repo.AppealRow) =>
      isAdmin(viewer) || (DECIDED.includes(row.appeal.status) && row.authorUserId === viewer.id);
    const shown = rows.filter(showDecisions).map((row) => row.appeal.id);
    const decisions = new Map<number, Awaited<ReturnType<typeof repo.decisionsOf>>>();
    for (const decision of await repo.decisionsOf(db, shown)) {
      decisions.set(decision.appealId, [...(decisions.get(decision.appealId) ?? []), decision]);
    }
    return rows.map((row) => {
      const { appeal } = row;
      const allocation = allocations.get(appeal.id);
      return {
        row_id: appeal.id,
        review_id: appeal.reviewId,
        event_id: appeal.eventId,
        proposal_title: row.proposalTitle,
        status: appeal.status,
        rationale: appeal.rationale,
        ranking_before: appeal.rankingBefore,
        ranking: row.ranking,
        created_at: appeal.createdAt.toISOString(),
        decided_at: appeal.decidedAt?.toISOString() ?? null,
        decisions_needed: row.needed,
        upholds: row.upholds,
        rejects: row.rejects,
        my_decision: allocation?.decision ? decisionPublic(allocation.decision) : null,
        decisions: showDecisions(row) ? (decisions.get(appeal.id) ?? []).map(decisionPublic) : null,
      };
    });
  }

  const toPublic = async (viewer: AuthUser, row: repo.AppealRow) => (await toPublicMany(viewer, [row]))[0]!;

  /** The appeal if the viewer may see it (author, allocated moderator, admin), else 404. */
  async function visible(viewer: AuthUser, id: number) {
    const row = await repo.findAppeal(db, { id });
    if (!row) throw notFound(appealMessages.notFound);
    if (isAdmin(viewer) || row.authorUserId === viewer.id || (await repo.allocationOf(db, viewer.id, id))) return row;
    throw notFound(appealMessages.notFound);
  }

  /**
   * The window for a review of the event, and the event's appeal settings. In a transaction (`lock`) it first waits
   * for an admin run of the event in progress (the shared run lock), so it reads what that run wrote.
   */
  async function stateOf(source: DbOrTx, ranking: number, eventId: number, lock: boolean) {
    if (lock) await shareRunLock(source, eventId);
    const flags = await repo.runFlags(source, eventId);
    const outcomesAt = await repo.outcomesRanAt(source, eventId);
    const config = appealsConfigValue((await findConfig(source, 'appeals', eventId))?.value);
    const scoresRan = flags.proposal_scores_generated === true;
    return { config, ...appealWindow({ ranking, config, outcomesAt, scoresRan, now: now() }) };
  }

  const pageAnswer = async (viewer: AuthUser, found: { rows: repo.AppealRow[]; total: number }, query: PageQuery) => ({
    data: await toPublicMany(viewer, found.rows),
    page: { total: found.total, size: query.size, page: query.page },
  });

  return {
    /** The appeal window for the caller's review and its appeal, if any: its author and admins. */
    async state(viewer: AuthUser, reviewId: number): Promise<AppealState> {
      const review = await repo.findReview(db, reviewId);
      if (!review || (review.authorUserId !== viewer.id && !isAdmin(viewer))) throw notFound(appealMessages.reviewNotFound);
      const appeal = await repo.findAppeal(db, { reviewId });
      const ranking = appeal ? appeal.appeal.rankingBefore : review.ranking;
      const { window, endsAt } = await stateOf(db, ranking, review.eventId, false);
      return {
        review_id: reviewId,
        window,
        ends_at: endsAt?.toISOString() ?? null,
        can_appeal: window === 'open' && !appeal && review.authorUserId === viewer.id,
        appeal: appeal ? await toPublic(viewer, appeal) : null,
      };
    },

    async create(user: AuthUser, input: NewAppeal): Promise<AppealPublic> {
      const review = await repo.findReview(db, input.review_id);
      if (!review) throw notFound(appealMessages.reviewNotFound);
      if (review.authorUserId !== user.id) throw forbidden(appealMessages.notYours);
      try {
        await db.transaction(async (tx) => {
          const { window, config } = await stateOf(tx, review.ranking, review.eventId, true);
          if (window !== 'open') throw (window === 'not_excluded' ? forbidden : conflict)(windowErrors[window]);
          const appeal = await repo.insertAppeal(tx, {
            eventId: review.eventId,
            reviewId: review.id,
            subscriptionId: review.subscriptionId,
            rationale: input.rationale,
            rankingBefore: review.ranking,
            decisionsNeeded: config.decisions_needed,
          });
          await recordAudit(tx, {
            actorUserId: user.id,
            action: 'appeals.create',
            entity: 'appeal',
            entityId: String(appeal.id),
            eventId: review.eventId,
            before: null,
            after: { review_id: review.id, ranking_before: review.ranking },
          });
        });
      } catch (error) {
        if (uniqueViolation(error) === 'appeals_review_key') throw conflict(appealMessages.already);
        throw error;
      }
      return toPublic(user, (await repo.findAppeal(db, { reviewId: review.id }))!);
    },

    async get(viewer: AuthUser, id: number): Promise<AppealPublic> {
      return toPublic(viewer, await visible(viewer, id));
    },

    /**
     * A moderator's decision (new or changed) while the appeal is undecided. When it makes a majority the appeal is
     * decided in the same transaction: upheld includes the review (ranking 1); rejected leaves it as it is.
     */
    async decide(user: AuthUser, id: number, input: AppealDecisionFields): Promise<AppealPublic> {
      const row = await visible(user, id);
      const allocation = await repo.allocationOf(db, user.id, id);
      if (!allocation) throw forbidden(appealMessages.notAllocated);
      if (!allocation.active) throw forbidden(appealMessages.notModerator);
      const eventId = row.appeal.eventId;
      let decided = false;
      await db.transaction(async (tx) => {
        await shareRunLock(tx, eventId);
        const flags = await repo.runFlags(tx, eventId);
        const status = await repo.lockAppeal(tx, id);
        if (flags.proposal_scores_generated || status === 'closed') throw conflict(appealMessages.scoresRan);
        if (status && DECIDED.includes(status)) throw conflict(appealMessages.decided);
        const before = allocation.decision ? decisionPublic(allocation.decision) : null;
        await repo.upsertDecision(tx, {
          appealId: id,
          subscriptionId: allocation.subscriptionId,
          decision: input.decision,
          rationale: input.rationale,
          predefinedReason: input.predefined_reason,
          customRationale: input.predefined_reason === 'other' ? input.custom_rationale : null,
        });
        await recordAudit(tx, {
          actorUserId: user.id,
          action: 'appeals.decision',
          entity: 'appeal',
          entityId: String(id),
          eventId,
          before,
          after: { decision: input.decision, predefined_reason: input.predefined_reason },
        });
        const counts = await repo.countDecisions(tx, id);
        const outcome = appealOutcome(counts.needed, counts.upholds, counts.rejects);
        if (outcome === 'pending') return;
        decided = true;
        await repo.setStatus(tx, id, outcome, true);
        if (outcome === 'upheld') await repo.setReviewRanking(tx, row.appeal.reviewId, ReviewRanking.included);
        await recordAudit(tx, {
          actorUserId: user.id,
          action: 'appeals.decided',
          entity: 'appeal',
          entityId: String(id),
          eventId,
          before: { status, ranking: row.ranking },
          after: {
            status: outcome,
            ranking: outcome === 'upheld' ? ReviewRanking.included : row.ranking,
            decisions_needed: counts.needed,
            upholds: counts.upholds,
            rejects: counts.rejects,
          },
        });
      });
      if (decided) deps.onDecided?.(eventId);
      return toPublic(user, (await repo.findAppeal(db, { id }))!);
    },

    /** The caller's own appeals (profile). */
    async mine(user: AuthUser, query: PageQuery) {
      return pageAnswer(user, await repo.appealsOfAuthor(db, user.id, query), query);
    },

    /** The appeals allocated to the caller. */
    async allocated(user: AuthUser, query: PageQuery) {
      return pageAnswer(user, await repo.appealsAllocatedTo(db, user.id, query), query);
    },

    /** An event's appeals (admins). */
    async ofEvent(user: AuthUser, eventId: number, query: PageQuery) {
      return pageAnswer(user, await repo.appealsOfEvent(db, eventId, query), query);
    },
  };
}
export type AppealsService = ReturnType<typeof createAppealsService>;
