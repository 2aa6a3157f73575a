import { acceptLanguageTags, DEFAULT_LANGUAGE, LANGUAGES, negotiateLanguage, type Language } from '@cr/contract/languages';
import { validationMessages } from '@cr/contract/messages';
import { renderValidationMessageIn, VALIDATION_TRANSLATIONS } from '@cr/contract/validation-translations';
import fieldsEs from '../locales/fields.es.json';
import fieldsJa from '../locales/fields.ja.json';
import messagesEs from '../locales/messages.es.json';
import messagesJa from '../locales/messages.ja.json';

/*
 * The server's messages in the request's language (issue 31). The web app sends `Accept-Language: <its language>`
 * with every API call; the error answers (`{ message }`, and 422 `detail[].msg`) are translated when it negotiates
 * to es or ja. The catalogs (src/locales/messages.{es,ja}.json) are keyed by the English text; a message with
 * variable parts is keyed with `{{name}}` for each part, and matched as a pattern. A request without es or ja gets
 * the English text untouched.
 */

type Translated = Exclude<Language, 'en-US'>;

interface Pattern {
  regex: RegExp;
  names: string[];
  target: string;
}

interface Catalog {
  exact: Map<string, string>;
  patterns: Pattern[];
  fields: Map<string, string>;
}

const VARIABLE = /\{\{(\w+)\}\}/g;
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The English template as an anchored regex with a group per `{{name}}`. */
function patternOf(english: string, target: string): Pattern {
  const names: string[] = [];
  const parts = english.split(VARIABLE);
  // split with a capture group: literal, name, literal, name, …
  const source = parts.map((part, index) => (index % 2 === 1 ? (names.push(part), '(.+?)') : escapeRegex(part))).join('');
  return { regex: new RegExp(`^${source}$`, 's'), names, target };
}

function catalogOf(language: Translated, messages: Record<string, string>, fields: Record<string, string>): Catalog {
  const exact = new Map<string, string>();
  const patterns: Pattern[] = [];
  for (const [english, target] of Object.entries(messages)) {
    if (VARIABLE.test(english)) patterns.push(patternOf(english, target));
    else exact.set(english, target);
    VARIABLE.lastIndex = 0;
  }
  // The validation messages as the server renders them into 422 items ("Name is required.").
  for (const [key, english] of Object.entries(validationMessages)) {
    const target = VALIDATION_TRANSLATIONS[language][key as keyof typeof validationMessages];
    if (english.includes('{{')) patterns.push(patternOf(english, target));
    else exact.set(english, target);
  }
  // The most literal text first: "{{field}} must be at least 10." before "{{a}} — {{b}}".
  const literalLength = (pattern: Pattern) => pattern.regex.source.replace(/\(\.\+\?\)/g, '').length;
  patterns.sort((a, b) => literalLength(b) - literalLength(a));
  return { exact, patterns, fields: new Map(Object.entries(fields)) };
}

const CATALOGS: Record<Translated, Catalog> = {
  es: catalogOf('es', messagesEs, fieldsEs),
  ja: catalogOf('ja', messagesJa, fieldsJa),
};

/** The language of a request: its Accept-Language negotiated against ours, en-US when none fits. */
export function requestLanguage(headers: { 'accept-language'?: string | string[] | undefined }): Language {
  const header = headers['accept-language'];
  if (!header) return DEFAULT_LANGUAGE;
  return negotiateLanguage(acceptLanguageTags(Array.isArray(header) ? header.join(',') : header), LANGUAGES, DEFAULT_LANGUAGE);
}

/** A field label ("Email", as `fieldLabel` names it) in a language; as it is when the catalog has none. */
export function translateLabel(label: string, language: Language): string {
  if (language === 'en-US') return label;
  return CATALOGS[language].fields.get(label) ?? label;
}

/**
 * A message in a language: the catalog's text for it, or for the pattern it matches, with its variable parts put
 * back (each translated too when the catalog has it: a field label, a message inside a message). The message as it
 * is when the language is English or the catalog does not know it.
 */
export function translateMessage(message: string, language: Language, depth = 0): string {
  if (language === 'en-US') return message;
  const catalog = CATALOGS[language];
  const exact = catalog.exact.get(message);
  if (exact !== undefined) return exact;
  for (const pattern of catalog.patterns) {
    const match = pattern.regex.exec(message);
    if (!match) continue;
    const values = new Map(pattern.names.map((name, index) => [name, match[index + 1]!]));
    return pattern.target.replace(VARIABLE, (whole, name: string) => {
      const value = values.get(name);
      if (value === undefined) return whole;
      if (name === 'field') return translateLabel(value, language);
      return depth < 1 ? translateMessage(value, language, depth + 1) : value;
    });
  }
  return message;
}

/** A validation message key ('validation.required') or text, rendered for a field in a language. */
export function renderValidationIn(language: Language, message: string, label: string): string {
  return renderValidationMessageIn(language, message, translateLabel(label, language)) ?? translateMessage(message, language);
}
