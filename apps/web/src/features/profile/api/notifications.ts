import { queryOptions } from '@tanstack/react-query';
import type { NotificationPreferences, UnsubscribeState } from '@cr/contract/notifications';
import { api } from '../../../lib/api-client';
import { useInvalidatingMutation } from '../../../lib/invalidations';
import { familyKeys } from '../../../lib/query-keys';

/** Issue 27: the caller's notification preferences, and what an unsubscribe link does (no login needed). */
export const notificationPreferencesKeys = {
  mine: familyKeys.notificationPreferences,
  unsubscribe: (token: string) => [...familyKeys.unsubscribeStates, token] as const,
};

export const notificationPreferencesQuery = queryOptions({
  queryKey: notificationPreferencesKeys.mine,
  queryFn: () => api<NotificationPreferences>('users/me/notifications/'),
});

export function useSaveNotificationPreferences() {
  return useInvalidatingMutation('saveNotificationPreferences', {
    mutationFn: (preferences: Partial<NotificationPreferences>) =>
      api<NotificationPreferences>('users/me/notifications/', { method: 'PUT', body: { notification_preferences: preferences } }),
  });
}

const unsubscribeUrl = (token: string) => `notifications/unsubscribe?token=${encodeURIComponent(token)}`;

export const unsubscribeStateQuery = (token: string) =>
  queryOptions({
    queryKey: notificationPreferencesKeys.unsubscribe(token),
    queryFn: () => api<UnsubscribeState>(unsubscribeUrl(token)),
    retry: false,
  });

/** The same request a mail client sends for `List-Unsubscribe-Post` (RFC 8058). */
export function useUnsubscribe() {
  return useInvalidatingMutation('unsubscribe', {
    mutationFn: (token: string) =>
      api<UnsubscribeState>(unsubscribeUrl(token), { method: 'POST', form: { 'List-Unsubscribe': 'One-Click' } }),
  });
}

export function useResubscribe() {
  return useInvalidatingMutation('resubscribe', {
    mutationFn: (token: string) => api<UnsubscribeState>(unsubscribeUrl(token), { method: 'DELETE' }),
  });
}
