import { queryOptions } from '@tanstack/react-query';
import type { RemindersConfig } from '@cr/contract/notifications';
import { api } from '../../../lib/api-client';
import { useInvalidatingMutation } from '../../../lib/invalidations';
import { familyKeys } from '../../../lib/query-keys';

/** An event's deadline reminders (issue 27), `configs/notifications/{eventId}/`, admins only. */
export const remindersKeys = {
  config: (eventId: number) => [...familyKeys.remindersConfigs, eventId] as const,
};

export const remindersConfigQuery = (eventId: number) =>
  queryOptions({
    queryKey: remindersKeys.config(eventId),
    queryFn: async () => (await api<{ value: RemindersConfig }>(`configs/notifications/${eventId}/`)).value,
  });

export function useSaveReminders(eventId: number) {
  return useInvalidatingMutation('saveReminders', {
    mutationFn: (value: RemindersConfig) =>
      api<{ value: RemindersConfig }>(`configs/notifications/${eventId}/`, { method: 'PUT', body: { record_update: value } }),
  });
}
