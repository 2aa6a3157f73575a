import { queryOptions } from '@tanstack/react-query';
import { DASHBOARD_TTL_SECONDS, type Dashboard } from '@cr/contract/dashboard';
import { api } from '../../../lib/api-client';
import { familyKeys } from '../../../lib/query-keys';

export const dashboardKeys = {
  event: (eventId: number) => [...familyKeys.dashboards, eventId] as const,
};

/**
 * `GET events/{id}/dashboard/` (issue 15 item 5): the round's figures, a snapshot the server recounts every
 * DASHBOARD_TTL_SECONDS; the Overview asks again at twice that while it is open.
 */
export const eventDashboardQuery = (eventId: number) =>
  queryOptions({
    queryKey: dashboardKeys.event(eventId),
    queryFn: () => api<Dashboard>(`events/${eventId}/dashboard/`),
    refetchInterval: 2 * DASHBOARD_TTL_SECONDS * 1000,
    retry: false,
  });
