import type { AllocationParams, AllocationStats, ImportOptions, ImportResult } from '@cr/contract/proposals';
import { api } from '../../../lib/api-client';
import { useInvalidatingMutation } from '../../../lib/invalidations';

/*
 * What a real run makes stale belongs to other features (events: categories and the run flags; proposals: every
 * list; the profiles' stats; the Overview): lib/invalidations names it. A dry run saves nothing and changes nothing.
 */

/** `POST proposals/import/{eventId}` (spec §7): reads proposals from the chosen source; a dry run saves nothing. */
export function importProposals(eventId: number, options: ImportOptions) {
  return api<ImportResult>(`proposals/import/${eventId}`, { method: 'POST', body: { import_options: options } });
}

export function useImportProposals(eventId: number) {
  return useInvalidatingMutation('importProposals', {
    mutationFn: (options: ImportOptions) => importProposals(eventId, options),
    changedNothing: (result) => result.dry_run,
  });
}

/** `POST proposal-reviews/generate-allocations` (spec §7); 409 while another real run on the event is in progress. */
export function generateProposalAllocation(params: AllocationParams) {
  return api<AllocationStats>('proposal-reviews/generate-allocations', { method: 'POST', body: { allocation_params: params } });
}

/** `_eventId`: what the run form passes; the table's prefixes reach every event, so it is not needed. */
export function useGenerateProposalAllocation(_eventId?: number) {
  return useInvalidatingMutation('allocateProposals', {
    mutationFn: (params: AllocationParams) => generateProposalAllocation(params),
    changedNothing: (stats) => stats.dry_run,
  });
}
