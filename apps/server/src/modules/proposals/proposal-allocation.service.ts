import type { AllocationParams, AllocationStats } from '@cr/contract/proposals';
import { ReviewerLevel } from '@cr/contract/subscriptions';
import { allocateProposals, type AllocationInput, type AllocationResult, type AllocationReviewer } from '../../domain/proposal-allocation';
import { catalystKey } from '../../domain/proposal-document';
import { conflictsByAuthor } from '../../domain/rules';
import { authoredObjectives } from '../../db/rules';
import type { DbOrTx } from '../../db/client';
import type { AdminRun, RunsService } from '../runs/runs.service';
import * as repo from './proposals.repository';

/** [value, how many have it], ascending: the statistics modal's histograms. */
function histogram(values: Int32Array): [number, number][] {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => a[0] - b[0]);
}

/**
 * Proposal allocation (DOMAIN.md "Proposal allocation", spec §2.17) as an admin run: the inputs are loaded, the pure
 * algorithm allocates, and a real run replaces the event's allocations and sets proposal_allocation_generated. It
 * may run again (it replaces), so it is not `once`.
 */
export const proposalAllocationRun: AdminRun<AllocationParams, AllocationInput, AllocationResult, AllocationStats> = {
  action: 'proposals.allocate',
  flag: 'proposal_allocation_generated',
  once: false,

  async load(tx, params) {
    // One after the other: inside a transaction they share one connection.
    const reviewerRows = await repo.allocationReviewers(tx, params.event_id);
    const proposals = await repo.allocationProposals(tx, params.event_id);
    const conflictsOf = conflictsByAuthor(await authoredObjectives(tx, { eventId: params.event_id }));
    const reviewers: AllocationReviewer[] = reviewerRows.map((row) => ({
      id: row.id,
      level: row.role === ReviewerLevel.level_1 ? 1 : 0,
      preferred: row.preferred,
      conflicts: conflictsOf.get(catalystKey(row.catalystId)) ?? [],
    }));
    return {
      reviewers,
      proposals,
      quotaLv0: params.nr_of_proposals_lv0,
      quotaLv1: params.nr_of_proposals_lv1,
      categories: params.categories,
      seed: params.allocation_seed,
    };
  },

  compute(input, params) {
    const result = allocateProposals(input);
    return {
      result,
      stats: {
        ...result.stats,
        histograms: { per_proposal: histogram(result.perProposal), per_reviewer: histogram(result.perReviewer) },
        dry_run: params.dry_run,
      },
    };
  },

  async write(tx, result, params) {
    await repo.deleteAllocations(tx, params.event_id);
    await repo.insertAllocations(tx, params.event_id, result.reviewerIds, result.proposalIds);
  },

  auditedStats: ({ histograms: _histograms, ...summary }) => summary,
};

/** `POST proposal-reviews/generate-allocations`. */
export function createProposalAllocationService(deps: {
  runs: RunsService;
  /** Mails each reviewer their new allocation (issue 27), in the run's transaction. */
  notifications?: { reviewAllocationDone(tx: DbOrTx, eventId: number): Promise<unknown> };
}) {
  const { notifications } = deps;
  const run: typeof proposalAllocationRun = notifications
    ? { ...proposalAllocationRun, notify: (tx, params) => notifications.reviewAllocationDone(tx, params.event_id) }
    : proposalAllocationRun;
  return {
    generate: (actorUserId: number, params: AllocationParams): Promise<AllocationStats> => deps.runs.execute(actorUserId, run, params),
  };
}
export type ProposalAllocationService = ReturnType<typeof createProposalAllocationService>;
