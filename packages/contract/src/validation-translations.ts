import type { Language } from './languages';
import { validationMessages, type ValidationMessageKey } from './messages';
import es from './locales/es.validation.json';
import ja from './locales/ja.validation.json';

/**
 * The validation messages in every language (issue 31): en-US from `validationMessages`, the others as the web app
 * translated them (locales/{es,ja}.validation.json; the web app loads the same files), so that the server can render a 422's
 * `detail[].msg` in the request's language. Kept apart from messages.ts so that what imports that stays small.
 */
export const VALIDATION_TRANSLATIONS: Record<Language, Record<ValidationMessageKey, string>> = {
  'en-US': validationMessages,
  es: es satisfies Record<ValidationMessageKey, string>,
  ja: ja satisfies Record<ValidationMessageKey, string>,
};

const PREFIX = 'validation.';

/** `renderValidationMessage` in a language: a key such as 'validation.required' with a field label; null for other text. */
export function renderValidationMessageIn(language: Language, message: string, field: string): string | null {
  if (!message.startsWith(PREFIX)) return null;
  const key = message.slice(PREFIX.length);
  if (!Object.hasOwn(validationMessages, key)) return null;
  return VALIDATION_TRANSLATIONS[language][key as ValidationMessageKey].replace(/\{\{field\}\}/g, field);
}
