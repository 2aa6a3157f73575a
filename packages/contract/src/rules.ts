import { z } from 'zod';
import { isCatalystId } from './plain';

/**
 * Validation rules shared by the web forms and the server (spec §5). The messages are i18n keys of the web app's
 * en-US resource file; the server sends them as they are, and the web translates them when it shows them.
 */

// The scheme, normalising and display form of a Catalyst ID live in plain.ts (no zod).
export { CATALYST_ID_PATTERN, CATALYST_ID_SCHEME, displayCatalystId, isCatalystId, normalizeCatalystId } from './plain';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_CONFIRMATION_MIN_LENGTH = 7;
export const PASSWORD_MAX_LENGTH = 100;

export { nonWhitespaceLength } from './plain';

/**
 * The text a request may carry (issue 13): any string but one with a NUL character, which PostgreSQL cannot store, or
 * with a UTF-16 surrogate that lacks its partner, which is no character at all (a text column would turn it into
 * U+FFFD and a JSON column refuses it). Every string of every request is held to it: the schemas below build on it,
 * and the server checks every string of a request's body, query and path against it before validating the request.
 */
// eslint-disable-next-line no-control-regex -- the NUL character is what this rule is about
const UNACCEPTABLE_CHARACTER = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function isAcceptableText(value: string): boolean {
  return !UNACCEPTABLE_CHARACTER.test(value);
}

export function hasDigit(value: string): boolean {
  return /\d/.test(value);
}

export function hasUppercase(value: string): boolean {
  return /\p{Lu}/u.test(value);
}

export const messages = {
  required: 'validation.required',
  catalystId: 'validation.catalystId',
  email: 'validation.email',
  url: 'validation.url',
  passwordMin: 'validation.passwordMin',
  passwordDigit: 'validation.passwordDigit',
  passwordUppercase: 'validation.passwordUppercase',
  passwordLength: 'validation.passwordLength',
  passwordMatch: 'validation.passwordMatch',
  accepted: 'validation.accepted',
  maxLength: 'validation.maxLength',
  number: 'validation.number',
  integer: 'validation.integer',
  atLeast0: 'validation.atLeast0',
  atLeast1: 'validation.atLeast1',
  atLeast10: 'validation.atLeast10',
  atMostQuota: 'validation.atMostQuota',
  ratio: 'validation.ratio',
  date: 'validation.date',
  notBelowMin: 'validation.notBelowMin',
  endAfterStart: 'validation.endAfterStart',
  settingName: 'validation.settingName',
  settingType: 'validation.settingType',
  publicContact: 'validation.publicContact',
  rewardAddress: 'validation.rewardAddress',
  text: 'validation.text',
  id: 'validation.id',
  unknownSetting: 'validation.unknownSetting',
  expectedText: 'validation.expectedText',
  invalid: 'validation.invalid',
  reminderHours: 'validation.reminderHours',
  reminderHoursCount: 'validation.reminderHoursCount',
  reminderHoursDistinct: 'validation.reminderHoursDistinct',
  appealWindowDays: 'validation.appealWindowDays',
  appealDecisions: 'validation.appealDecisions',
  tokenScopes: 'validation.tokenScopes',
  tokenExpiry: 'validation.tokenExpiry',
} as const;

/**
 * A type check's message (issue 17 item 5): a field left out (or null, or a number field's NaN) is required; a value of
 * the wrong type says what was expected instead.
 */
export const missingOr =
  (expected: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined || issue.input === null || Number.isNaN(issue.input) ? messages.required : expected;

// `abort`: an empty required field reports only that it is required, not every other rule as well.
const required = { error: messages.required, abort: true } as const;

/** A string that holds only acceptable text (isAcceptableText): the base of every text a request carries. */
export const text = (params?: Parameters<typeof z.string>[0]) =>
  z.string(params).refine(isAcceptableText, { error: messages.text, abort: true });

export const requiredText = text({ error: missingOr(messages.expectedText) })
  .trim()
  .min(1, required);

export const catalystIdSchema = requiredText.max(500, messages.maxLength).refine(isCatalystId, messages.catalystId);

export const emailSchema = requiredText.max(254, messages.maxLength).pipe(z.email({ error: messages.email }));

/** A new password: at least 8 characters with a digit and an uppercase letter (spec §5, DOMAIN decision 2). */
export const newPasswordSchema = text({ error: missingOr(messages.expectedText) })
  .min(1, required)
  .min(PASSWORD_MIN_LENGTH, messages.passwordMin)
  .max(PASSWORD_MAX_LENGTH, messages.passwordLength)
  .refine(hasDigit, messages.passwordDigit)
  .refine(hasUppercase, messages.passwordUppercase);

/** Confirmation and old password: 7 to 100 characters (spec §5 Password change). */
export const passwordLengthSchema = text({ error: missingOr(messages.expectedText) })
  .min(1, required)
  .min(PASSWORD_CONFIRMATION_MIN_LENGTH, messages.passwordLength)
  .max(PASSWORD_MAX_LENGTH, messages.passwordLength);

export const acceptedSchema = z.literal(true, { error: messages.accepted });

export const passwordMatches = <T extends { password: string; password_confirmation: string }>(value: T) =>
  value.password === value.password_confirmation;
/** Checked even while other fields are invalid (as long as both passwords are text), so every message shows at once. */
export const passwordMatchIssue = {
  message: messages.passwordMatch,
  path: ['password_confirmation'],
  when: (payload: { value: unknown }) => {
    const value = payload.value as Partial<Record<'password' | 'password_confirmation', unknown>> | null | undefined;
    return typeof value?.password === 'string' && typeof value.password_confirmation === 'string';
  },
};
