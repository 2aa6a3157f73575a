/**
 * Messages the server sends in `{ message }` that the web app shows as they are (spec §8: a toast prefers the
 * server's text). Kept here so that both sides name the same text.
 */
export const serverMessages = {
  /** Any write but the password change while the account must choose a new password (`force_reset`). */
  forcedReset: 'Please choose a new password first: until you do, your account cannot make any other change.',
} as const;

/**
 * English texts of the validation message keys used by the schemas in this package (i18next interpolation syntax).
 * The web app loads them into its en-US resources under `validation`; the server renders them into `detail[].msg`.
 * Spec §5 strings are verbatim.
 */
export const validationMessages = {
  required: '{{field}} is required.',
  catalystId: 'Please enter a valid Catalyst ID (for example id.catalyst://cardano/…).',
  email: 'Please enter a valid email address.',
  url: 'Please enter a valid URL.',
  number: '{{field}} must be a number.',
  date: 'The selected date is invalid.',
  passwordMin: 'Password must be at least 8 characters long.',
  passwordDigit: 'Password must contain a number.',
  passwordUppercase: 'Password must contain an uppercase letter.',
  passwordLength: 'Password must be 7 to 100 characters long.',
  passwordMatch: 'Passwords do not match.',
  accepted: '{{field}} must be accepted.',
  maxLength: '{{field}} is too long.',
  invalid: '{{field}} is invalid.',
  integer: '{{field}} must be a whole number.',
  atLeast0: '{{field}} must be at least 0.',
  atLeast1: '{{field}} must be at least 1.',
  atLeast10: '{{field}} must be at least 10.',
  atMostQuota: '{{field}} must be at most 1000.',
  ratio: '{{field}} must be between 0 and 1.',
  notBelowMin: '{{field}} must not be below the minimum.',
  endAfterStart: '{{field}} must be after the start.',
  publicContact: 'public contact required',
  rewardAddress: 'The reward address must begin with addr1.',
  settingName: 'Setting names use lower-case letters, digits and underscores.',
  settingType: '{{field}} has the wrong type: a name ending _enabled is a switch, _at a date-time, anything else text.',
  text: '{{field}} contains a character that is not allowed (a NUL character or an unpaired surrogate).',
  id: '{{field}} must be an id: a whole number from 1 to 2147483647.',
  unknownSetting: '{{field}} is not a setting this application knows.',
  expectedText: '{{field}} must be text.',
  formInvalid: 'Sorry, not all fields are filled out correctly.',
  reminderHours: '{{field}} must be at most 720 hours (30 days).',
  reminderHoursCount: '{{field}}: at most 4 reminders.',
  reminderHoursDistinct: '{{field}}: each number of hours only once.',
  appealWindowDays: '{{field}} must be at most 90 days.',
  appealDecisions: '{{field}} must be an odd number from 1 to 15.',
  tokenScopes: '{{field}}: choose at least one scope.',
  tokenExpiry: '{{field}} must be from 1 to 365 days.',
} as const;

export type ValidationMessageKey = keyof typeof validationMessages;

const PREFIX = 'validation.';

/** Renders a message key such as 'validation.required' with a field label; other text is returned as it is. */
export function renderValidationMessage(message: string, field: string): string {
  if (!message.startsWith(PREFIX)) return message;
  const key = message.slice(PREFIX.length) as ValidationMessageKey;
  const template = validationMessages[key];
  if (!template) return message;
  return template.replace(/\{\{field\}\}/g, field);
}
