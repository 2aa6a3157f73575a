import { notifications } from '@mantine/notifications';
import i18n from './i18n';
import { isApiError } from './api-error';

/** Toast duration, spec §9. */
export const TOAST_MS = 5000;

const closeLabel = () => ({ 'aria-label': i18n.t('common.close') });

/**
 * A green success toast (spec §8). With a title key, the spec's notice is the title and the message says what
 * happened, where §8 names several outcomes in one notice (DOMAIN.md 14: 'Review submitted, updated or deleted').
 */
export function notifySuccess(key: string, titleKey = 'notify.successTitle', values: Record<string, unknown> = {}) {
  notifications.show({
    color: 'green',
    title: i18n.t(titleKey),
    message: i18n.t(key, values),
    autoClose: TOAST_MS,
    closeButtonProps: closeLabel(),
  });
}

/** A yellow notice that something waits (a write queued offline, issue 29). */
export function notifyInfo(key: string, titleKey: string, values: Record<string, unknown> = {}) {
  notifications.show({
    color: 'yellow',
    title: i18n.t(titleKey),
    message: i18n.t(key, values),
    autoClose: TOAST_MS,
    closeButtonProps: closeLabel(),
  });
}

/** A red error toast: the server's message when it sent one, otherwise the fixed text (spec §8). */
export function notifyError(error: unknown, fallbackKey = 'notify.default') {
  const message = isApiError(error) && error.serverMessage ? error.serverMessage : i18n.t(fallbackKey);
  notifications.show({
    color: 'red',
    title: i18n.t('notify.errorTitle'),
    message,
    autoClose: TOAST_MS,
    closeButtonProps: closeLabel(),
    style: { whiteSpace: 'pre-line' },
  });
}
