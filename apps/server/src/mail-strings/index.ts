import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@cr/contract/languages';
import { enUS } from './en-US';
import { es } from './es';
import { ja } from './ja';
import type { MailStrings, Plural } from './types';

export type { ExclusionReason, MailStrings, Plural } from './types';

/** Every language's mail catalog: a `Record` over LANGUAGES, so a language without one does not compile. */
export const MAIL_STRINGS: Record<Language, MailStrings> = { 'en-US': enUS, es, ja };

/** A language as stored (users.language, a row's params): one of ours, or en-US for anything else (null included). */
export const mailLanguageOf = (value: unknown): Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value) ? (value as Language) : DEFAULT_LANGUAGE;

export const mailStringsOf = (language: unknown): MailStrings => MAIL_STRINGS[mailLanguageOf(language)];

/** Fills `{{name}}` from `values` in one pass (a value holding `{{` is not filled again); unknown names stay. */
export const fill = (template: string, values: Record<string, string | number>): string =>
  template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));

const pluralRules = new Map<string, Intl.PluralRules>();

/** The form of `plural` for `count` in `locale`, filled with `{{count}}` and `values`. */
export function pluralOf(locale: string, plural: Plural, count: number, values: Record<string, string | number> = {}): string {
  let rules = pluralRules.get(locale);
  if (!rules) pluralRules.set(locale, (rules = new Intl.PluralRules(locale)));
  const form = rules.select(count) === 'one' ? plural.one : plural.other;
  return fill(form, { count, ...values });
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** A date in UTC as the catalog writes it ("Friday 4 December 2026, 18:00 UTC"), or null for no (valid) date. */
export function formatUtcIn(strings: MailStrings, value: unknown): string | null {
  if (typeof value !== 'string' && !(value instanceof Date)) return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  let format = dateFormats.get(strings.locale);
  if (!format) {
    format = new Intl.DateTimeFormat(strings.locale, {
      timeZone: 'UTC',
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    dateFormats.set(strings.locale, format);
  }
  const parts = Object.fromEntries(format.formatToParts(date).map((part) => [part.type, part.value]));
  return fill(strings.date, parts);
}
