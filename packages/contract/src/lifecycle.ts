import { z } from 'zod';
import { BAN_REASON_MAX } from './plain';
import { messages, passwordLengthSchema, requiredText } from './rules';

export { BAN_REASON_MAX };

/*
 * Issue 47: an account over its whole life. An admin bans and unbans; the person closes their account (their personal
 * data erased) and downloads what the server keeps about them.
 */

/** `POST admin/users/{id}/ban`. */
export const banBody = z.object({
  /** Shown to the person when they try to log in: "This account is banned: <reason>". */
  reason: requiredText.max(BAN_REASON_MAX, messages.maxLength),
  /** Also delete the account's reviews of the rounds still in review that no moderator has decided on (versions kept). */
  withdraw_drafts: z.boolean().default(false),
});
export type BanBody = z.infer<typeof banBody>;

/** The answer of a ban or an unban: the account's status now and the ban's details (null when not banned). */
export const banAnswer = z.object({
  user_id: z.number().int(),
  status: z.number().int(),
  ban: z.object({ reason: z.string(), banned_at: z.string() }).nullable(),
  /** Reviews withdrawn and proposal allocations freed by the ban (0 for an unban). */
  withdrawn_reviews: z.number().int(),
  freed_allocations: z.number().int(),
});
export type BanAnswer = z.infer<typeof banAnswer>;

/** `POST users/me/close`: confirmed with the account's password. */
export const closeAccountBody = z.object({ password: passwordLengthSchema });
export type CloseAccountBody = z.infer<typeof closeAccountBody>;

/** `GET users/me/export?format=json|markdown`. */
export const exportQuery = z.object({ format: z.enum(['json', 'markdown']).default('json') });

/** One row of the export: the table's columns under their API names; dates as ISO text. */
const exportRow = z.record(z.string(), z.unknown());

/** `GET users/me/export`: everything the server keeps about the caller (docs/personal-data.md). */
export const accountExport = z.object({
  format: z.literal('community-review-account-export/1'),
  exported_at: z.string(),
  account: exportRow,
  subscriptions: z.array(exportRow),
  reviews: z.array(exportRow),
  review_versions: z.array(exportRow),
  moderations: z.array(exportRow),
  moderation_versions: z.array(exportRow),
  appeals: z.array(exportRow),
  appeal_decisions: z.array(exportRow),
  notification_opt_outs: z.array(exportRow),
  api_tokens: z.array(exportRow),
  mails: z.array(exportRow),
  audit_entries: z.array(exportRow),
});
export type AccountExport = z.infer<typeof accountExport>;

/** Messages the lifecycle routes answer with (translated by the server's catalogs). */
export const lifecycleMessages = {
  banned: (reason: string) => `This account is banned: ${reason}`,
  cannotBanSelf: 'You cannot ban your own account.',
  lastAdmin: 'The last administrator cannot be banned or closed.',
  alreadyBanned: 'This account is already banned.',
  notBanned: 'This account is not banned.',
  closed: 'This account was closed.',
  wrongPassword: 'The password is not correct.',
} as const;
