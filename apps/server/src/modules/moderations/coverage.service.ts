import {
  coverageMessages,
  type CoverageModerator,
  type CoverageReview,
  type CoverageReviewKind,
  type CoverageSummary,
  type TopUpParams,
  type TopUpStats,
} from '@cr/contract/coverage';
import type { Paged } from '@cr/contract/common';
import { MODERATION_ALLOCATION_DEFAULTS } from '@cr/contract/moderations';
import { topUpModerations, type TopUpInput, type TopUpResult } from '../../domain/moderation-top-up';
import { catalystKey } from '../../domain/proposal-document';
import { conflictsByAuthor, NO_OBJECTIVE } from '../../domain/rules';
import type { Db, DbOrTx } from '../../db/client';
import { authoredObjectives } from '../../db/rules';
import { conflict } from '../../errors';
import type { AdminRun, RunsService } from '../runs/runs.service';
import { readRunFlags } from '../runs/runs.service';
import * as coverage from './coverage.repository';
import { allocationModerators } from '../../db/rules';

/** The moderations per review the allocation asked for: its run's parameter, else the default (rows an operator wrote). */
async function perReviewOf(db: DbOrTx, eventId: number) {
  const fromRun = await coverage.allocationPerReview(db, eventId);
  return { perReview: fromRun ?? MODERATION_ALLOCATION_DEFAULTS.nr_of_moderations_per_review, fromRun: fromRun !== null };
}

function histogram(values: ArrayLike<number>): [number, number][] {
  const counts = new Map<number, number>();
  for (let i = 0; i < values.length; i += 1) counts.set(values[i]!, (counts.get(values[i]!) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => a[0] - b[0]);
}

interface Loaded {
  perReview: number;
  input: TopUpInput;
  /** Moderator user id → their LV2 subscription (the allocation rows name the subscription). */
  subscriptionOf: Map<number, number>;
}

interface Written {
  result: TopUpResult;
  subscriptionOf: Map<number, number>;
}

/**
 * The coverage top-up (issue 28 item 1) as an admin run that may run several times, each real run once (the run
 * flags' lock: a concurrent one gets 409): the reviews still short of the allocation's moderations per review (done
 * moderations, less the earlier top-ups' allocations not done yet) and, with `break_ties`, each tie one more, get
 * moderators by the pure rule (domain/moderation-top-up.ts) among the event's active LV2 moderators with a ready
 * account, the moderation allocation's conflict rules. A real run adds the rows to moderation_allocations and records
 * them in moderation_top_ups under its audit entry. Before the moderation allocation, or once outcomes exist: 409.
 */
export const moderationTopUpRun: AdminRun<TopUpParams, Loaded, Written, TopUpStats> = {
  action: coverage.TOP_UP_ACTION,
  flag: 'moderation_top_up_generated',
  once: false,

  async load(tx, params) {
    const eventId = params.event_id;
    const flags = await readRunFlags(tx, eventId);
    if (!flags.value.moderation_allocation_generated) throw conflict(coverageMessages.allocationFirst);
    if (flags.value.review_outcomes_generated) throw conflict(coverageMessages.outcomesGenerated);
    const { perReview } = await perReviewOf(tx, eventId);
    const rows = await coverage.topUpReviews(tx, { eventId, perReview, breakTies: params.break_ties });
    const moderators = await allocationModerators(tx, eventId);
    // Excluded moderators by user: a subscription outside the pool (no longer active) excludes nobody who could be picked.
    const userOf = new Map(moderators.map((moderator) => [moderator.subscriptionId, moderator.userId]));
    const reviews = rows.map((row) => ({ ...row, excluded: row.excluded.flatMap((id) => userOf.get(id) ?? []) }));
    const unfinished = new Map((await coverage.unfinishedPerSubscription(tx, eventId)).map((row) => [row.subscription_id, row.n]));
    const conflictsOf = conflictsByAuthor(await authoredObjectives(tx, { eventId }));
    return {
      perReview,
      input: {
        reviews,
        moderators: moderators.map((moderator) => ({
          id: moderator.userId,
          conflicts: (conflictsOf.get(catalystKey(moderator.catalystId)) ?? []).map((objective) =>
            objective === NO_OBJECTIVE ? null : objective,
          ),
          unfinished: unfinished.get(moderator.subscriptionId) ?? 0,
        })),
        seed: params.top_up_seed,
      },
      subscriptionOf: new Map(moderators.map((moderator) => [moderator.userId, moderator.subscriptionId])),
    };
  },

  compute(loaded, params) {
    const result = topUpModerations(loaded.input);
    const { per_review: perReviewAdded, ...stats } = result.stats;
    return {
      result: { result, subscriptionOf: loaded.subscriptionOf },
      stats: {
        event_id: params.event_id,
        per_review: loaded.perReview,
        ...stats,
        per_review_added: perReviewAdded,
        histograms: { per_moderator: histogram(result.perModerator) },
        dry_run: params.dry_run,
      },
    };
  },

  async write(tx, written, params) {
    const subscriptionIds = Array.from(written.result.moderatorIds, (userId) => written.subscriptionOf.get(userId)!);
    await coverage.insertTopUps(tx, params.event_id, written.result.reviewIds, subscriptionIds);
  },

  audited: (tx, auditId, params) => coverage.linkTopUpsToAudit(tx, params.event_id, auditId),

  auditedStats: ({ histograms: _histograms, ...summary }) => summary,
};

/** The coverage figures and lists (admins only, the routes), and the top-up run. */
export function createCoverageService(deps: { db: Db; runs: RunsService; events: { get(eventId: number): Promise<unknown> } }) {
  const { db } = deps;
  const ruleOf = async (eventId: number) => ({ eventId, breakTies: true, ...(await perReviewOf(db, eventId)) });

  return {
    async summary(eventId: number): Promise<CoverageSummary> {
      await deps.events.get(eventId);
      const rule = await ruleOf(eventId);
      const counts = await coverage.coverageCounts(db, rule);
      const unfinished = await coverage.unfinishedCounts(db, eventId);
      const topUps = await coverage.topUpCounts(db, eventId);
      return {
        event_id: eventId,
        per_review: rule.perReview,
        per_review_from_run: rule.fromRun,
        ...counts,
        moderators_unfinished: unfinished.moderators,
        unfinished_allocations: unfinished.allocations,
        top_up_runs: topUps.runs,
        topped_up_allocations: topUps.allocations,
      };
    },

    async reviews(eventId: number, kind: CoverageReviewKind, page: { size: number; page: number }): Promise<Paged<CoverageReview>> {
      await deps.events.get(eventId);
      const { rows, total } = await coverage.coverageReviews(db, await ruleOf(eventId), kind, page);
      return { data: rows, page: { total, ...page } };
    },

    async moderators(eventId: number, page: { size: number; page: number }): Promise<Paged<CoverageModerator>> {
      await deps.events.get(eventId);
      const { rows, total } = await coverage.unfinishedModerators(db, eventId, page);
      return { data: rows, page: { total, ...page } };
    },

    topUp: (actorUserId: number, params: TopUpParams): Promise<TopUpStats> => deps.runs.execute(actorUserId, moderationTopUpRun, params),
  };
}
export type CoverageService = ReturnType<typeof createCoverageService>;
