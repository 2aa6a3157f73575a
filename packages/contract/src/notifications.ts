import { z } from 'zod';
import { NOTIFICATION_KINDS, type NotificationKind } from './plain';
import { messages, missingOr, text } from './rules';

/**
 * Notifications (issue 27): the mails the product sends on its own (allocations, reminders, outcomes, an LV2
 * invitation), each person's preferences, the one-click unsubscribe, and an event's reminder settings. Account mails
 * (activation, e-mail verification, password reset) are not notifications: they cannot be turned off.
 */

export { isNotificationKind, NOTIFICATION_KINDS, type NotificationKind } from './plain';

const onOff = z.boolean({ error: missingOr(messages.invalid) });

/** Each kind on (true) or off; the answer of GET and PUT `users/me/notifications/`. */
export const notificationPreferences = z.object(
  Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, z.boolean()])) as Record<NotificationKind, z.ZodBoolean>,
);
export type NotificationPreferences = z.infer<typeof notificationPreferences>;

/**
 * A save sends the kinds it changes (any of them, at least one); the others keep their setting. An unknown kind is
 * refused, so that an account mail cannot be turned off through it.
 */
export const notificationPreferencesUpdate = z
  .strictObject(
    Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, onOff.optional()])) as Record<NotificationKind, z.ZodOptional<typeof onOff>>,
    { error: (issue) => (issue.code === 'unrecognized_keys' ? messages.unknownSetting : messages.invalid) },
  )
  .refine((value) => Object.values(value).some((item) => item !== undefined), { error: messages.required });
export const notificationPreferencesBody = z.object({ notification_preferences: notificationPreferencesUpdate });

// ---------- one-click unsubscribe (RFC 8058) ----------

/** The signed token of an unsubscribe link: `<payload>.<signature>`, both base64url. */
export const unsubscribeQuery = z.object({
  token: text({ error: missingOr(messages.expectedText) })
    .min(1, messages.required)
    .max(512, messages.maxLength),
});

/** RFC 8058: a mail client's one-click POST carries `List-Unsubscribe=One-Click` (form-encoded). */
export const oneClickBody = z.object({ 'List-Unsubscribe': z.literal('One-Click', { error: messages.invalid }).optional() }).optional();

export const unsubscribeState = z.object({
  kind: z.enum(NOTIFICATION_KINDS),
  /** Whether the person no longer receives this kind. */
  unsubscribed: z.boolean(),
});
export type UnsubscribeState = z.infer<typeof unsubscribeState>;

export const unsubscribeMessages = {
  invalidToken:
    'This unsubscribe link is not valid: it may have been cut or changed. Use the link from the e-mail as it is, or turn notifications off on your profile.',
} as const;

// ---------- an event's reminder settings (configs/notifications/{eventId}) ----------

export const REMINDER_HOURS_MIN = 1;
/** Thirty days: a reminder further ahead than the window is long reminds of nothing. */
export const REMINDER_HOURS_MAX = 720;
export const REMINDER_HOURS_MAX_COUNT = 4;

const hours = z
  .number({ error: missingOr(messages.number) })
  .int(messages.integer)
  .min(REMINDER_HOURS_MIN, messages.atLeast1)
  .max(REMINDER_HOURS_MAX, messages.reminderHours);

/**
 * Reminders before the review and the moderation windows close: each on or off, and how many hours before the
 * window's end (each value once). Off for a new event.
 */
export const remindersConfig = z.object({
  review_reminders_enabled: onOff,
  moderation_reminders_enabled: onOff,
  hours_before: z
    .array(hours, { error: missingOr(messages.invalid) })
    .min(1, messages.required)
    .max(REMINDER_HOURS_MAX_COUNT, messages.reminderHoursCount)
    .refine((values) => new Set(values).size === values.length, messages.reminderHoursDistinct),
});
export type RemindersConfig = z.infer<typeof remindersConfig>;

export const DEFAULT_REMINDERS_CONFIG: RemindersConfig = {
  review_reminders_enabled: false,
  moderation_reminders_enabled: false,
  hours_before: [72, 24],
};

export const remindersConfigBody = z.object({ record_update: remindersConfig });
export const remindersConfigPublic = z.object({
  row_id: z.number().int(),
  id: z.string(),
  id2: z.string(),
  config_type: z.string(),
  event: z.string(),
  value: remindersConfig,
});
