import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ComputeFlagsParams, ExternalFlag, FlagRunStats } from '@cr/contract/flags';
import type { ModerationAllocationParams, ModerationAllocationStats } from '@cr/contract/moderations';
import { api } from '../../../lib/api-client';
import { queryRoots, sharedKeys } from '../../../lib/query-keys';

export type FlagRunResult = FlagRunStats & { dry_run: boolean };
export type FlagImportResult = { flags: number; types: number[] };

/** `POST moderations/generate-allocations` (spec §7, F-054); 409 once the event has its moderation allocation. */
export function generateModerationAllocation(params: ModerationAllocationParams) {
  return api<ModerationAllocationStats>('moderations/generate-allocations', {
    method: 'POST',
    body: { allocation_params: params },
  });
}

export function useGenerateModerationAllocation(eventId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (params: ModerationAllocationParams) => generateModerationAllocation(params),
    onSuccess: async (stats) => {
      if (stats.dry_run) return;
      await Promise.all([
        client.invalidateQueries({ queryKey: sharedKeys.allocationFlags(eventId) }),
        client.invalidateQueries({ queryKey: queryRoots.reviews }),
      ]);
    },
  });
}

/** `POST flags/compute` (issue 14 item 1): a dry run answers the counts per type and writes nothing. */
export function computeFlags(params: ComputeFlagsParams) {
  return api<FlagRunResult>('flags/compute', { method: 'POST', body: { compute_params: params } });
}

export function useComputeFlags() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (params: ComputeFlagsParams) => computeFlags(params),
    onSuccess: async (stats) => {
      if (!stats.dry_run) await client.invalidateQueries({ queryKey: queryRoots.reviews });
    },
  });
}

/** `POST flags/import`: an outside tool's flags, replacing the event's flags of each type the file holds. */
export function importFlags(eventId: number, flags: ExternalFlag[]) {
  return api<FlagImportResult>('flags/import', { method: 'POST', body: { event_id: eventId, flags } });
}

export function useImportFlags(eventId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (flags: ExternalFlag[]) => importFlags(eventId, flags),
    onSuccess: () => client.invalidateQueries({ queryKey: queryRoots.reviews }),
  });
}
