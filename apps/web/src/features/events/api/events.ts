import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import type { Paged } from '@cr/contract/common';
import { deriveStage } from '@cr/contract/plain';
import type {
  AllocationConfig,
  Category,
  EventInput,
  EventPublic,
  LevelQualifiers,
  ReviewsConfig,
  ReviewsConfigValue,
  StatusMessage,
  StatusMessageInput,
} from '@cr/contract/events';
import { api } from '../../../lib/api-client';
import { useInvalidatingMutation } from '../../../lib/invalidations';
import { notifyError } from '../../../lib/notify';
import { familyKeys, queryRoots, sharedKeys } from '../../../lib/query-keys';

/** Polling of spec §7/§9: current events and their configs every 5 minutes, status messages every 2 minutes. */
export const EVENTS_POLL_MS = 5 * 60_000;
export const STATUS_POLL_MS = 2 * 60_000;

interface ConfigRecord<T> {
  row_id: number;
  id: string;
  id2: string;
  value: T;
}

/** A fetch that fails shows its toast and answers the fallback (spec §8: failed lists are empty with total 0). */
async function orFallback<T>(request: Promise<T>, fallback: T, errorKey: string): Promise<T> {
  try {
    return await request;
  } catch (error) {
    notifyError(error, errorKey);
    return fallback;
  }
}

const emptyPage = <T>(size: number, page: number): Paged<T> => ({ data: [], page: { total: 0, size, page } });

const { events } = queryRoots;

export const eventsKeys = {
  all: events,
  page: (page: number, size: number) => [...events, 'page', page, size] as const,
  current: [...events, 'current'] as const,
  event: (id: number) => [...events, id] as const,
  config: (id: number) => [...familyKeys.reviewsConfigs, id] as const,
  levels: (id: number) => [...familyKeys.levelQualifiers, id] as const,
  allocations: sharedKeys.allocationFlags,
  status: familyKeys.status,
  categories: sharedKeys.categories,
};

/** The admin's events list: 25 a page. */
export const EVENTS_PAGE_SIZE = 25;

export const eventsPageQuery = (page: number, size = EVENTS_PAGE_SIZE) =>
  queryOptions({
    queryKey: eventsKeys.page(page, size),
    queryFn: () =>
      orFallback(api<Paged<EventPublic>>('events/', { query: { size, page } }), emptyPage<EventPublic>(size, page), 'errors.fetchEvents'),
  });

export const currentEventsQuery = queryOptions({
  queryKey: eventsKeys.current,
  queryFn: () => orFallback(api<EventPublic[]>('events/current/'), [], 'errors.fetchCurrentEvents'),
  refetchInterval: EVENTS_POLL_MS,
  staleTime: EVENTS_POLL_MS,
});

export const eventQuery = (id: number) =>
  queryOptions({ queryKey: eventsKeys.event(id), queryFn: () => api<EventPublic>(`events/${id}/`) });

export const eventConfigQuery = (id: number) =>
  queryOptions({
    queryKey: eventsKeys.config(id),
    // A failed fetch toasts (spec §8 'Error fetching configs') and counts as no configuration: every switch off.
    queryFn: () =>
      orFallback(
        api<ConfigRecord<ReviewsConfig>>(`configs/reviews/${id}/`).then((record) => record.value as ReviewsConfig | null),
        null,
        'errors.fetchConfigs',
      ),
    refetchInterval: EVENTS_POLL_MS,
    staleTime: EVENTS_POLL_MS,
  });

export const levelQualifiersQuery = (id: number) =>
  queryOptions({
    queryKey: eventsKeys.levels(id),
    queryFn: async () => (await api<ConfigRecord<LevelQualifiers>>(`configs/reviews-level-qualifiers/${id}/`)).value,
  });

export const allocationConfigQuery = (id: number) =>
  queryOptions({
    queryKey: eventsKeys.allocations(id),
    queryFn: async () => (await api<ConfigRecord<AllocationConfig>>(`configs/allocations/${id}/`)).value,
  });

export const statusQuery = queryOptions({
  queryKey: eventsKeys.status,
  queryFn: async () => (await api<{ value: { messages: StatusMessage[] } }>('configs/status/')).value.messages,
  refetchInterval: STATUS_POLL_MS,
  staleTime: STATUS_POLL_MS,
});

export const categoriesQuery = (eventId: number) =>
  queryOptions({
    queryKey: eventsKeys.categories(eventId),
    queryFn: () => orFallback(api<Category[]>('categories/', { query: { event_id: eventId } }), [], 'errors.fetchCategories'),
  });

/** The current events with their configs, and the stage derived from them (spec §4 "Event stage"). */
export function useCurrentEvents() {
  const events = useQuery(currentEventsQuery);
  const list = events.data ?? [];
  const configs = useQueries({ queries: list.map((event) => eventConfigQuery(event.row_id)) });
  const withConfigs = list.map((event, index) => ({ event, config: configs[index]?.data ?? undefined }));
  return {
    events: withConfigs,
    stage: deriveStage(withConfigs.map((item) => item.config)),
    isLoading: events.isLoading,
    // The events and each one's configuration have answered: the stage is the round's, not a loading default.
    settled: !events.isLoading && configs.every((query) => !query.isLoading),
  };
}

// What each save makes stale (the event lists, which rounds the lists show, the Overview's window…): lib/invalidations.

export function useSaveEvent() {
  return useInvalidatingMutation('saveEvent', {
    mutationFn: ({ id, input }: { id?: number; input: EventInput }) =>
      id === undefined
        ? api<EventPublic>('events/', { method: 'POST', body: { new_event: input } })
        : api<EventPublic>(`events/${id}/`, { method: 'PUT', body: { event_update: input } }),
  });
}

export function useSaveEventConfig(eventId: number) {
  return useInvalidatingMutation('saveEventConfig', {
    mutationFn: (value: ReviewsConfigValue) =>
      api<ConfigRecord<ReviewsConfig>>(`configs/reviews/${eventId}/`, { method: 'PUT', body: { record_update: value } }),
  });
}

export function useSaveLevelQualifiers(eventId: number) {
  return useInvalidatingMutation('saveLevelQualifiers', {
    mutationFn: (value: LevelQualifiers) =>
      api<ConfigRecord<LevelQualifiers>>(`configs/reviews-level-qualifiers/${eventId}/`, { method: 'PUT', body: { record_update: value } }),
  });
}

export function useSaveStatus() {
  return useInvalidatingMutation('saveStatus', {
    mutationFn: (messages: StatusMessageInput[]) => api('configs/status/', { method: 'PUT', body: { record_update: { messages } } }),
  });
}
