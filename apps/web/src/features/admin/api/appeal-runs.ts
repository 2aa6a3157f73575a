import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { AppealAllocationParams, AppealAllocationStats, AppealPublic, AppealsConfig } from '@cr/contract/appeals';
import type { PageInfo } from '@cr/contract/common';
import { api } from '../../../lib/api-client';
import { useInvalidatingMutation } from '../../../lib/invalidations';
import { familyKeys, queryRoots } from '../../../lib/query-keys';

/** An event's appeals as the admin handles them (issue 28 item 2): the settings, the allocation run, the list. */
export const APPEALS_PAGE_SIZE = 25;
export const appealRunKeys = {
  config: (eventId: number) => [...familyKeys.appealsConfigs, eventId] as const,
  ofEvent: (eventId: number, page: number) => [...queryRoots.appeals, 'event', eventId, page] as const,
};

export const eventAppealsQuery = (eventId: number, page: number) =>
  queryOptions({
    queryKey: appealRunKeys.ofEvent(eventId, page),
    queryFn: () =>
      api<{ data: AppealPublic[]; page: PageInfo }>('appeals/', { query: { event_id: eventId, page, size: APPEALS_PAGE_SIZE } }),
    placeholderData: keepPreviousData,
  });

/** `configs/appeals/{eventId}/`, admins only. */
export const appealsConfigQuery = (eventId: number) =>
  queryOptions({
    queryKey: appealRunKeys.config(eventId),
    queryFn: async () => (await api<{ value: AppealsConfig }>(`configs/appeals/${eventId}/`)).value,
  });

export function useSaveAppealsConfig(eventId: number) {
  return useInvalidatingMutation('saveAppealsConfig', {
    mutationFn: (value: AppealsConfig) =>
      api<{ value: AppealsConfig }>(`configs/appeals/${eventId}/`, { method: 'PUT', body: { record_update: value } }),
  });
}

/** `POST appeals/generate-allocations`: the admin run (a dry run changes nothing). */
export function useAllocateAppeals(_eventId?: number) {
  return useInvalidatingMutation('allocateAppeals', {
    mutationFn: (params: AppealAllocationParams) =>
      api<AppealAllocationStats>('appeals/generate-allocations', { method: 'POST', body: { allocation_params: params } }),
    changedNothing: (stats) => stats.dry_run,
  });
}
