import { z } from 'zod';
import { bodyRowId } from './common';
import { NOTIFICATION_KINDS } from './plain';
import { messages, text } from './rules';

/** Where a queued mail is (issue 27): waiting, being sent by a worker, sent, or given up with a reason. */
export const MAIL_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;
export type MailStatus = (typeof MAIL_STATUSES)[number];

/** The account mails (activation, e-mail verification, password reset): not notifications, they cannot be turned off. */
export const ACCOUNT_MAIL_KINDS = ['activation', 'email_verification', 'password_reset'] as const;
export type AccountMailKind = (typeof ACCOUNT_MAIL_KINDS)[number];

/**
 * Every kind of mail the server queues: the account mails and the notifications. The Mail queue screen names each
 * for people in every language (issue 45 item 4; apps/web/src/mail-kind-names.test.ts).
 */
export const MAIL_KINDS = [...ACCOUNT_MAIL_KINDS, ...NOTIFICATION_KINDS] as const;
export type MailKindName = (typeof MAIL_KINDS)[number];

/** A mail kind as the queue names it: `activation`, `password_reset`, `review_reminder` … */
export const mailKind = text({ error: messages.expectedText })
  .min(1, messages.required)
  .max(64, messages.maxLength)
  .regex(/^[a-z][a-z0-9_]*$/, messages.invalid);

/** One kind's mails per status. */
export const mailQueueKind = z.object({
  kind: z.string(),
  queued: z.number().int(),
  sending: z.number().int(),
  sent: z.number().int(),
  failed: z.number().int(),
});
export type MailQueueKind = z.infer<typeof mailQueueKind>;

/** A mail given up, with the reason (the SMTP server's answer or the error). */
export const mailQueueFailure = z.object({
  id: z.number().int(),
  kind: z.string(),
  recipient: z.string(),
  error: z.string().nullable(),
  attempts: z.number().int(),
  failed_at: z.string(),
  created_at: z.string(),
});
export type MailQueueFailure = z.infer<typeof mailQueueFailure>;

/** `GET admin/mail-queue/`: the queue at a glance. */
export const mailQueueOverview = z.object({
  kinds: z.array(mailQueueKind),
  totals: mailQueueKind.omit({ kind: true }),
  /** How long the oldest queued mail has waited, in seconds; null when none waits. */
  oldest_queued_seconds: z.number().nullable(),
  /** The last 20 failures, newest first. */
  failures: z.array(mailQueueFailure),
});
export type MailQueueOverview = z.infer<typeof mailQueueOverview>;

/** `POST admin/mail-queue/retry`: queue failed mails again (all, those of one kind, or one), attempts from zero. */
export const retryFailedMails = z.strictObject({
  kind: mailKind.optional(),
  id: bodyRowId.optional(),
});
export const retryFailedMailsBody = z.object({ retry_failed: retryFailedMails });
export type RetryFailedMails = z.infer<typeof retryFailedMails>;
export const retryFailedMailsAnswer = z.object({ retried: z.number().int() });
export type RetryFailedMailsAnswer = z.infer<typeof retryFailedMailsAnswer>;
