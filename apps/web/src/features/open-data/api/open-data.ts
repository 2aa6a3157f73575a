import { queryOptions } from '@tanstack/react-query';
import type { OpenDataInfo, OpenDataRound } from '@cr/contract/open-data';
import { api, buildUrl } from '../../../lib/api-client';
import { familyKeys } from '../../../lib/query-keys';

/**
 * Issue 48: the rounds' open data — which rounds are published (the list the home page links to), what a round's page
 * shows, and the archive's address (a plain download, public). A real scores run makes them stale (lib/invalidations).
 */
export const openDataRoundsQuery = queryOptions({
  queryKey: [...familyKeys.openData, 'rounds'] as const,
  queryFn: () => api<OpenDataRound[]>('events/open-data/'),
});

export const openDataInfoQuery = (eventId: number) =>
  queryOptions({
    queryKey: [...familyKeys.openData, eventId] as const,
    queryFn: () => api<OpenDataInfo>(`events/${eventId}/open-data/info`),
  });

export const openDataUrl = (eventId: number) => buildUrl(`events/${eventId}/open-data`);
