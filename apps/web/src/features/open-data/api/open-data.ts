import { queryOptions } from '@tanstack/react-query';
import type { OpenDataInfo } from '@cr/contract/open-data';
import { api, buildUrl } from '../../../lib/api-client';

/** Issue 48: a round's open data — what its page shows, and the archive's address (a plain download, public). */
export const openDataInfoQuery = (eventId: number) =>
  queryOptions({
    queryKey: ['open-data', eventId] as const,
    queryFn: () => api<OpenDataInfo>(`events/${eventId}/open-data/info`),
  });

export const openDataUrl = (eventId: number) => buildUrl(`events/${eventId}/open-data`);
