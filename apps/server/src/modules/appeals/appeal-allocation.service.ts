import { appealMessages, type AppealAllocationParams, type AppealAllocationStats } from '@cr/contract/appeals';
import { findConfig } from '../../db/config-records';
import type { DbOrTx } from '../../db/client';
import { allocationModerators, authoredObjectives } from '../../db/rules';
import { allocateAppeals, type AppealAllocationInput, type AppealAllocationResult } from '../../domain/appeal-allocation';
import { catalystKey } from '../../domain/proposal-document';
import { conflictsByAuthor, NO_OBJECTIVE } from '../../domain/rules';
import { averages } from '../../domain/stats';
import { conflict } from '../../errors';
import { appealsConfigValue } from '../events/event-config.service';
import type { AdminRun, RunsService } from '../runs/runs.service';
import { recordAudit } from '../system/audit.service';
import * as repo from './appeals.repository';

interface Loaded {
  input: AppealAllocationInput;
  /** Moderator user id → their LV2 subscription id (the allocation rows name the subscription). */
  subscriptionOf: Map<number, number>;
}

interface Allocated {
  allocation: AppealAllocationResult;
  subscriptionOf: Map<number, number>;
}

/**
 * Allocating the open appeals to fresh moderators (issue 28 item 2) as an admin run: a dry run answers the
 * statistics; a real run, in one transaction under the event's run lock, allocates every undecided appeal with fewer
 * moderators in the pool than its N (open → allocated) and is audited. It may run again: each run takes the appeals
 * opened since, those left short when too few moderators were eligible, and those whose moderator left the pool
 * (banned, no longer LV2), so an appeal's missing moderators are allocated by exactly one run. Refused once proposal
 * scores ran (the appeals are closed then).
 */
export const appealAllocationRun: AdminRun<AppealAllocationParams, Loaded, Allocated, AppealAllocationStats> = {
  action: 'appeals.allocate',
  flag: 'appeal_allocation_generated',
  once: false,

  async load(tx, params) {
    const eventId = params.event_id;
    const flags = await repo.runFlags(tx, eventId);
    if (flags.proposal_scores_generated) throw conflict(appealMessages.scoresRan);
    const config = appealsConfigValue((await findConfig(tx, 'appeals', eventId))?.value);
    const appeals = await repo.appealsToAllocate(tx, eventId);
    const moderators = await allocationModerators(tx, eventId);
    const conflictsOf = conflictsByAuthor(await authoredObjectives(tx, { eventId }));
    return {
      input: {
        appeals: appeals.map((appeal) => ({ ...appeal, excluded: appeal.excluded.map(Number) })),
        moderators: moderators.map((moderator) => ({
          id: moderator.userId,
          conflicts: (conflictsOf.get(catalystKey(moderator.catalystId)) ?? []).map((objective) =>
            objective === NO_OBJECTIVE ? null : objective,
          ),
        })),
        perAppeal: config.decisions_needed,
        seed: params.appeal_seed,
      },
      subscriptionOf: new Map(moderators.map((moderator) => [moderator.userId, moderator.subscriptionId])),
    };
  },

  compute(loaded, params) {
    const allocation = allocateAppeals(loaded.input);
    const perAppeal = Array.from(allocation.perAppeal);
    return {
      result: { allocation, subscriptionOf: loaded.subscriptionOf },
      stats: {
        open_appeals: loaded.input.appeals.length,
        allocated_appeals: perAppeal.filter((count) => count > 0).length,
        short_appeals: perAppeal.filter((count, i) => count > 0 && count < (loaded.input.appeals[i]!.need ?? loaded.input.perAppeal))
          .length,
        unallocated_appeals: perAppeal.filter((count) => count === 0).length,
        decisions_needed: loaded.input.perAppeal,
        tot: allocation.appealIds.length,
        nr_of_moderators: loaded.input.moderators.length,
        per_moderator: averages(allocation.perModerator),
        dry_run: params.dry_run,
      },
    };
  },

  async write(tx, allocated) {
    const { allocation, subscriptionOf } = allocated;
    await repo.insertAllocations(
      tx,
      allocation.appealIds.map((appealId, i) => ({ appealId, subscriptionId: subscriptionOf.get(allocation.moderatorIds[i]!)! })),
    );
  },
};

/** `POST appeals/generate-allocations`, and the closing of the appeals when proposal scores run. */
export function createAppealAllocationService(deps: { runs: RunsService }) {
  return {
    generate: (actorUserId: number, params: AppealAllocationParams): Promise<AppealAllocationStats> =>
      deps.runs.execute(actorUserId, appealAllocationRun, params),

    /**
     * In the proposal scores run's transaction: every undecided appeal of the event is closed (its window ends), and
     * the closing is audited when there was any.
     */
    async closeForScores(tx: DbOrTx, eventId: number, actorUserId: number) {
      const closed = await repo.closeUndecided(tx, eventId);
      if (closed.length === 0) return;
      await recordAudit(tx, {
        actorUserId,
        action: 'appeals.close',
        entity: 'event',
        entityId: String(eventId),
        eventId,
        before: null,
        after: { reason: 'proposal_scores', closed_appeals: closed },
      });
    },
  };
}
export type AppealAllocationService = ReturnType<typeof createAppealAllocationService>;
