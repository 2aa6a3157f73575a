import type { ComputeFlagsParams, ExternalFlag, FlagRunStats } from '@cr/contract/flags';
import type { ModerationAllocationParams, ModerationAllocationStats } from '@cr/contract/moderations';
import { api } from '../../../lib/api-client';
import { useInvalidatingMutation } from '../../../lib/invalidations';

export type FlagRunResult = FlagRunStats & { dry_run: boolean };
export type FlagImportResult = { flags: number; types: number[] };

/** `POST moderations/generate-allocations` (spec §7, F-054); 409 once the event has its moderation allocation. */
export function generateModerationAllocation(params: ModerationAllocationParams) {
  return api<ModerationAllocationStats>('moderations/generate-allocations', {
    method: 'POST',
    body: { allocation_params: params },
  });
}

/**
 * A real run's changes (run flags, reviews allocated for moderation, the moderators' lists, the Overview) are made
 * stale by lib/invalidations. `_eventId`: what the run form passes; the table's prefixes reach every event.
 */
export function useGenerateModerationAllocation(_eventId?: number) {
  return useInvalidatingMutation('allocateModeration', {
    mutationFn: (params: ModerationAllocationParams) => generateModerationAllocation(params),
    changedNothing: (stats) => stats.dry_run,
  });
}

/** `POST flags/compute` (issue 14 item 1): a dry run answers the counts per type and writes nothing. */
export function computeFlags(params: ComputeFlagsParams) {
  return api<FlagRunResult>('flags/compute', { method: 'POST', body: { compute_params: params } });
}

export function useComputeFlags() {
  return useInvalidatingMutation('computeFlags', {
    mutationFn: (params: ComputeFlagsParams) => computeFlags(params),
    changedNothing: (stats) => stats.dry_run,
  });
}

/** `POST flags/import`: an outside tool's flags, replacing the event's flags of each type the file holds. */
export function importFlags(eventId: number, flags: ExternalFlag[]) {
  return api<FlagImportResult>('flags/import', { method: 'POST', body: { event_id: eventId, flags } });
}

export function useImportFlags(eventId: number) {
  return useInvalidatingMutation('importFlags', { mutationFn: (flags: ExternalFlag[]) => importFlags(eventId, flags) });
}
