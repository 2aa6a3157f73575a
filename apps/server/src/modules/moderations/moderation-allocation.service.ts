import { AI_GENERATED_THRESHOLD_DEFAULT, SIMILARITY_THRESHOLD_DEFAULT } from '@cr/contract/flags';
import type { ModerationAllocationParams, ModerationAllocationStats } from '@cr/contract/moderations';
import type { FlagResult } from '../../domain/flags/compute-flags';
import { allocateModerations, type ModerationAllocationInput, type ModerationAllocationResult } from '../../domain/moderation-allocation';
import { catalystKey } from '../../domain/proposal-document';
import { conflictsByAuthor, NO_OBJECTIVE } from '../../domain/rules';
import { allocationModerators, authoredObjectives } from '../../db/rules';
import { flaggedReviewIds, loadAndComputeFlags, replaceComputedFlags } from '../flags/flags.service';
import type { DbOrTx } from '../../db/client';
import type { AdminRun, RunsService } from '../runs/runs.service';
import { readRunFlags } from '../runs/runs.service';
import * as repo from './moderation-allocation.repository';

/** [value, how many have it], ascending: the statistics modal's histograms. */
function histogram(values: ArrayLike<number>): [number, number][] {
  const counts = new Map<number, number>();
  for (let i = 0; i < values.length; i += 1) counts.set(values[i]!, (counts.get(values[i]!) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => a[0] - b[0]);
}

interface Loaded {
  input: ModerationAllocationInput;
  /** Moderator user id → their LV2 subscription id (the allocation rows name the subscription). */
  subscriptionOf: Map<number, number>;
  /** Flags computed by this run because none were computed before (written with the allocation). */
  computedFlags: FlagResult | null;
  flagged: number;
}

interface Written {
  allocation: ModerationAllocationResult;
  subscriptionOf: Map<number, number>;
  computedFlags: FlagResult | null;
}

/**
 * Moderation allocation (DOMAIN.md "Moderation allocation", spec §2.17, §7 `POST moderations/generate-allocations`)
 * as an irreversible admin run: flags are computed first if the event has none yet (with the default thresholds),
 * the flagged reviews and the spot checks are allocated to the event's active moderators, never to one with a
 * conflict of interest; a real run writes the allocations (and those flags) and sets moderation_allocation_generated.
 */
export const moderationAllocationRun: AdminRun<ModerationAllocationParams, Loaded, Written, ModerationAllocationStats> = {
  action: 'moderations.allocate',
  flag: 'moderation_allocation_generated',
  once: true,

  async load(tx, params) {
    const eventId = params.event_id;
    const runFlags = await readRunFlags(tx, eventId);
    let computedFlags: FlagResult | null = null;
    let flaggedIds: Set<number>;
    if (runFlags.value.flags_computed) flaggedIds = await flaggedReviewIds(tx, eventId);
    else {
      computedFlags = (
        await loadAndComputeFlags(tx, eventId, { similarity: SIMILARITY_THRESHOLD_DEFAULT, aiGenerated: AI_GENERATED_THRESHOLD_DEFAULT })
      ).result;
      // Flags loaded from a file before any computation count too.
      flaggedIds = new Set([...(await flaggedReviewIds(tx, eventId)), ...computedFlags.flags.keys()]);
    }
    const reviews = await repo.allocationReviews(tx, eventId);
    const moderators = await allocationModerators(tx, eventId);
    const conflictsOf = conflictsByAuthor(await authoredObjectives(tx, { eventId }));
    return {
      input: {
        reviews: reviews.map((review) => ({ ...review, flagged: flaggedIds.has(review.id) })),
        moderators: moderators.map((moderator) => ({
          id: moderator.userId,
          conflicts: (conflictsOf.get(catalystKey(moderator.catalystId)) ?? []).map((objective) =>
            objective === NO_OBJECTIVE ? null : objective,
          ),
        })),
        perReview: params.nr_of_moderations_per_review,
        minSpotChecks: params.min_spot_check_per_reviewer,
        seed: params.moderation_seed,
      },
      subscriptionOf: new Map(moderators.map((moderator) => [moderator.userId, moderator.subscriptionId])),
      computedFlags,
      flagged: reviews.filter((review) => flaggedIds.has(review.id)).length,
    };
  },

  compute(loaded, params) {
    const allocation = allocateModerations(loaded.input);
    return {
      result: { allocation, subscriptionOf: loaded.subscriptionOf, computedFlags: loaded.computedFlags },
      stats: {
        ...allocation.stats,
        selected: { flagged: loaded.flagged, spot_checks: allocation.spotChecks },
        histograms: { per_moderator: histogram(allocation.perModerator), per_review: histogram(allocation.perReview) },
        dry_run: params.dry_run,
      },
    };
  },

  async write(tx, written, params) {
    if (written.computedFlags) await replaceComputedFlags(tx, params.event_id, written.computedFlags);
    const subscriptionIds = Array.from(written.allocation.moderatorIds, (userId) => written.subscriptionOf.get(userId)!);
    await repo.insertModerationAllocations(tx, params.event_id, written.allocation.reviewIds, subscriptionIds);
  },

  auditedStats: ({ histograms: _histograms, ...summary }) => summary,
};

/** `POST moderations/generate-allocations`. */
export function createModerationAllocationService(deps: {
  runs: RunsService;
  /** Mails each moderator their allocated reviews (issue 27), in the run's transaction. */
  notifications?: { moderationAllocationDone(tx: DbOrTx, eventId: number): Promise<unknown> };
}) {
  const { notifications } = deps;
  const run: typeof moderationAllocationRun = notifications
    ? { ...moderationAllocationRun, notify: (tx, params) => notifications.moderationAllocationDone(tx, params.event_id) }
    : moderationAllocationRun;
  return {
    generate: (actorUserId: number, params: ModerationAllocationParams): Promise<ModerationAllocationStats> =>
      deps.runs.execute(actorUserId, run, params),
  };
}
export type ModerationAllocationService = ReturnType<typeof createModerationAllocationService>;
