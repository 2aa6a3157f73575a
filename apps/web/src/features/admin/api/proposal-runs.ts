import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AllocationParams, AllocationStats, ImportOptions, ImportResult } from '@cr/contract/proposals';
import { api } from '../../../lib/api-client';
import { queryRoots, sharedKeys } from '../../../lib/query-keys';

/**
 * Query keys this feature's runs make stale. They belong to other features (events: categories and the allocation
 * flags; proposals: every list), which this feature may not import, so they come from the shared roots of
 * lib/query-keys; the keys go from general to specific, so a prefix is enough.
 */
const staleAfter = {
  categories: sharedKeys.categories,
  allocationFlags: sharedKeys.allocationFlags,
  proposals: queryRoots.proposals,
};

/** `POST proposals/import/{eventId}` (spec §7): reads proposals from the chosen source; a dry run saves nothing. */
export function importProposals(eventId: number, options: ImportOptions) {
  return api<ImportResult>(`proposals/import/${eventId}`, { method: 'POST', body: { import_options: options } });
}

export function useImportProposals(eventId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (options: ImportOptions) => importProposals(eventId, options),
    onSuccess: async (result) => {
      if (result.dry_run) return;
      await Promise.all([
        client.invalidateQueries({ queryKey: staleAfter.categories(eventId) }),
        client.invalidateQueries({ queryKey: staleAfter.proposals }),
      ]);
    },
  });
}

/** `POST proposal-reviews/generate-allocations` (spec §7); 409 while another real run on the event is in progress. */
export function generateProposalAllocation(params: AllocationParams) {
  return api<AllocationStats>('proposal-reviews/generate-allocations', { method: 'POST', body: { allocation_params: params } });
}

export function useGenerateProposalAllocation(eventId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (params: AllocationParams) => generateProposalAllocation(params),
    onSuccess: async (stats) => {
      if (stats.dry_run) return;
      await Promise.all([
        client.invalidateQueries({ queryKey: staleAfter.allocationFlags(eventId) }),
        client.invalidateQueries({ queryKey: staleAfter.proposals }),
      ]);
    },
  });
}
