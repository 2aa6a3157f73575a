import type { AllocationParams, AllocationStats } from '@cr/contract/proposals';
import type { Db } from '../../db/client';
import { allocateProposals, NO_CATEGORY, type AllocationReviewer } from '../../domain/proposal-allocation';
import { catalystKey } from '../../domain/proposal-document';
import type { EventsService } from '../events/events.service';
import { recordAudit } from '../system/audit.service';
import * as repo from './proposals.repository';

/** [value, how many have it], ascending: the statistics modal's histograms. */
function histogram(values: Int32Array): [number, number][] {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => a[0] - b[0]);
}

/**
 * Proposal allocation runs (DOMAIN.md "Proposal allocation", spec §2.17): the inputs are loaded, the pure algorithm
 * allocates, and a real run replaces the event's allocations in one transaction, sets proposal_allocation_generated
 * and is recorded in the audit log. Concurrent real runs on one event take turns on the event's allocation flags.
 */
export function createProposalAllocationService(deps: { db: Db; events: EventsService }) {
  const { db, events } = deps;
  return {
    async generate(actorUserId: number, input: AllocationParams): Promise<AllocationStats> {
      const params = input;
      await events.get(params.event_id);
      const run = async (tx: Db | Parameters<Parameters<Db['transaction']>[0]>[0]) => {
        // One after the other: inside a transaction they share one connection.
        const reviewerRows = await repo.allocationReviewers(tx, params.event_id);
        const proposals = await repo.allocationProposals(tx, params.event_id);
        const authorCategories = await repo.eventAuthorCategories(tx, params.event_id);
        const conflictsOf = new Map<string, number[]>();
        for (const row of authorCategories)
          conflictsOf.set(row.catalystKey, [...(conflictsOf.get(row.catalystKey) ?? []), row.categoryId ?? NO_CATEGORY]);
        const reviewers: AllocationReviewer[] = reviewerRows.map((row) => ({
          id: row.id,
          level: row.role === 1 ? 1 : 0,
          preferred: row.preferred,
          conflicts: conflictsOf.get(catalystKey(row.catalystId)) ?? [],
        }));
        const result = allocateProposals({
          reviewers,
          proposals,
          quotaLv0: params.nr_of_proposals_lv0,
          quotaLv1: params.nr_of_proposals_lv1,
          categories: params.categories,
          seed: params.allocation_seed,
        });
        return {
          result,
          stats: {
            ...result.stats,
            histograms: { per_proposal: histogram(result.perProposal), per_reviewer: histogram(result.perReviewer) },
            dry_run: params.dry_run,
          },
        };
      };

      if (params.dry_run) return (await run(db)).stats;
      await events.ensureAllocationConfig(params.event_id);
      return db.transaction(async (tx) => {
        const flags = await events.lockAllocationConfig(tx, params.event_id);
        const { result, stats } = await run(tx);
        await repo.deleteAllocations(tx, params.event_id);
        await repo.insertAllocations(tx, params.event_id, result.reviewerIds, result.proposalIds);
        await flags.mark('proposal_allocation_generated');
        const { histograms: _histograms, ...summary } = stats;
        await recordAudit(tx, {
          actorUserId,
          action: 'proposals.allocate',
          entity: 'event',
          entityId: String(params.event_id),
          eventId: params.event_id,
          before: flags.value,
          after: { params, stats: summary },
        });
        return stats;
      });
    },
  };
}
export type ProposalAllocationService = ReturnType<typeof createProposalAllocationService>;
