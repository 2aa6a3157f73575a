import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, negotiateLanguage, type Language } from '@cr/contract/languages';
import { validationMessages } from '@cr/contract/messages';
import enUS from '../locales/en-US.json';
import { setFormatLocale } from './locale';

/** The source language: its first-load strings are in the bundle; every other language's arrive when chosen. */
export const LANGUAGE = DEFAULT_LANGUAGE;
/**
 * The pseudo-locale of the tests (issue 31): the English strings accented and 40 % longer, to find what breaks when
 * a translation is longer. Chosen only through storage (tests set it); never offered in the menu.
 */
export const PSEUDO_LANGUAGE = 'en-XA';
export type UiLanguage = Language | typeof PSEUDO_LANGUAGE;
/** Where a person's choice is kept in this browser. */
export const LANGUAGE_STORAGE_KEY = 'cr.language';

type Strings = Record<string, unknown>;
interface Bundles {
  /** The shell's, the home page's, the proposals list's and the login page's strings, with the validation texts. */
  first(): Promise<Strings>;
  /** Every other screen's (loaded with the first route that needs them). */
  more(): Promise<Strings>;
  /** The admin screens' (loaded with the first admin route, beside `more`). */
  admin(): Promise<Strings>;
}

const json = (module: { default: Strings }) => module.default;
const bundles: Record<UiLanguage, Bundles> = {
  'en-US': {
    first: () => Promise.resolve({ ...enUS, validation: validationMessages }),
    more: () => import('../locales/en-US.more.json').then(json),
    admin: () => import('../locales/en-US.admin.json').then(json),
  },
  es: {
    first: () =>
      Promise.all([import('../locales/es.json').then(json), import('@cr/contract/locales/es.validation.json').then(json)]).then(
        ([strings, validation]) => ({ ...strings, validation }),
      ),
    more: () => import('../locales/es.more.json').then(json),
    admin: () => import('../locales/es.admin.json').then(json),
  },
  ja: {
    first: () =>
      Promise.all([import('../locales/ja.json').then(json), import('@cr/contract/locales/ja.validation.json').then(json)]).then(
        ([strings, validation]) => ({ ...strings, validation }),
      ),
    more: () => import('../locales/ja.more.json').then(json),
    admin: () => import('../locales/ja.admin.json').then(json),
  },
  [PSEUDO_LANGUAGE]: {
    first: () => import('./pseudo-locale').then(({ pseudoStrings }) => pseudoStrings({ ...enUS, validation: validationMessages })),
    more: () =>
      Promise.all([import('./pseudo-locale'), import('../locales/en-US.more.json')]).then(([{ pseudoStrings }, module]) =>
        pseudoStrings(module.default),
      ),
    admin: () =>
      Promise.all([import('./pseudo-locale'), import('../locales/en-US.admin.json')]).then(([{ pseudoStrings }, module]) =>
        pseudoStrings(module.default),
      ),
  },
};

const isUiLanguage = (value: unknown): value is UiLanguage =>
  typeof value === 'string' && (value === PSEUDO_LANGUAGE || (LANGUAGES as readonly string[]).includes(value));

function storedLanguage(): UiLanguage | null {
  try {
    const value = globalThis.localStorage?.getItem(LANGUAGE_STORAGE_KEY);
    return isUiLanguage(value) ? value : null;
  } catch {
    return null; // storage refused (a privacy mode): the browser's languages decide
  }
}

/** The language of a first visit: the one chosen before in this browser, else the best of the browser's languages. */
export function initialLanguage(): UiLanguage {
  const preferred = typeof navigator === 'undefined' ? [] : navigator.languages?.length ? navigator.languages : [navigator.language];
  return storedLanguage() ?? negotiateLanguage(preferred, LANGUAGES, DEFAULT_LANGUAGE);
}

/**
 * Spanish, among others, has a plural form for large round numbers ('many': 1.000.000); a key without it reads its
 * 'other' form, as the translations give it.
 */
function withManyForms(strings: Strings): Strings {
  const out: Strings = {};
  for (const [key, value] of Object.entries(strings)) {
    if (value && typeof value === 'object') out[key] = withManyForms(value as Strings);
    else {
      out[key] = value;
      if (key.endsWith('_other')) {
        const many = `${key.slice(0, -'_other'.length)}_many`;
        if (!(many in strings)) out[many] = value;
      }
    }
  }
  return out;
}

const loaded = new Map<string, Promise<void>>();
function load(language: UiLanguage, part: keyof Bundles): Promise<void> {
  const key = `${language}:${part}`;
  let loading = loaded.get(key);
  if (!loading) {
    loading = bundles[language][part]().then((strings) => {
      i18n.addResourceBundle(language, 'translation', withManyForms(strings), true, false);
    });
    loading.catch(() => loaded.delete(key)); // a failed fetch (offline) is tried again next time
    loaded.set(key, loading);
  }
  return loading;
}

let moreWanted = false;
let adminWanted = false;

/** Sets what follows the language outside i18next: `lang` on <html> (screen readers, fonts, hyphenation) and Intl. */
function applyLanguage(language: UiLanguage) {
  const tag = language === PSEUDO_LANGUAGE ? LANGUAGE : language;
  if (typeof document !== 'undefined') document.documentElement.lang = language;
  setFormatLocale(tag);
}

void i18n.use(initReactI18next).init({
  lng: LANGUAGE,
  fallbackLng: LANGUAGE,
  supportedLngs: [...LANGUAGES, PSEUDO_LANGUAGE],
  // Only the language itself, then the fallback: 'en-US' would otherwise also try 'en', which is not supported, and
  // every t() call would build and drop that warning (issue 30 item 5: ~15 ms of a list's render on a desktop).
  load: 'currentOnly',
  resources: { [LANGUAGE]: { translation: { ...enUS, validation: validationMessages } } },
  interpolation: { escapeValue: false },
  showSupportNotice: false,
  returnNull: false,
});
loaded.set(`${LANGUAGE}:first`, Promise.resolve());

// i18next works out the languages a key is looked up in (the language, then the fallback) on every t() call, through
// Intl.getCanonicalLocales; they change only with the language, so each language's are worked out once (issue 30
// item 5: ~12 ms of a list's render on a desktop, four times that on a phone).
const languageUtils = i18n.services.languageUtils as {
  toResolveHierarchy(code: string, fallbackCode?: unknown): string[];
};
const resolveHierarchy = languageUtils.toResolveHierarchy.bind(languageUtils);
const hierarchies = new Map<string, string[]>();
languageUtils.toResolveHierarchy = (code, fallbackCode) => {
  if (fallbackCode !== undefined) return resolveHierarchy(code, fallbackCode);
  let hierarchy = hierarchies.get(code);
  if (!hierarchy) hierarchies.set(code, (hierarchy = resolveHierarchy(code)));
  return [...hierarchy]; // a copy: i18next may add to the list it is given (changeLanguage)
};

/**
 * Shows the interface in `language`: its strings are fetched first (the first-load part, and the rest when screens
 * that need it have been shown), then every screen re-renders in it at once.
 */
export async function changeLanguage(language: UiLanguage): Promise<void> {
  await Promise.all([
    load(language, 'first'),
    moreWanted ? load(language, 'more') : undefined,
    adminWanted ? load(language, 'admin') : undefined,
  ]);
  await i18n.changeLanguage(language);
  applyLanguage(language);
}

/** What the app shows now. */
export const currentLanguage = (): UiLanguage => (isUiLanguage(i18n.language) ? i18n.language : LANGUAGE);

/** A person's choice: shown at once and remembered in this browser (the caller stores it with the account). */
export async function chooseLanguage(language: UiLanguage): Promise<void> {
  try {
    globalThis.localStorage?.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // not remembered in this browser; it still changes now
  }
  await changeLanguage(language);
}

/** Whether this browser holds a choice of its own (made in the menu), as opposed to the browser's languages. */
export const languageChosenHere = () => storedLanguage() !== null;

/** Resolves once the first visit's language is shown (main.tsx renders after it; English is there at once). */
export const languageReady: Promise<void> = (() => {
  const language = initialLanguage();
  if (language === LANGUAGE) {
    applyLanguage(LANGUAGE);
    return Promise.resolve();
  }
  // A language whose strings cannot be fetched (offline, first visit): English, rather than nothing.
  return changeLanguage(language).catch(() => applyLanguage(LANGUAGE));
})();

/**
 * The strings of every screen but the shell, the home page, the proposals list and the login page
 * (locales/*.more.json), added once; route modules and the shell's dialogs wait for them before they render, so
 * that a visitor's first load does not carry them (issue 16).
 */
export function loadMoreStrings(): Promise<void> {
  moreWanted = true;
  // The router asks as it starts, before the first visit's language may be set: the strings of that language.
  return languageReady.then(() => load(currentLanguage(), 'more'));
}

/**
 * The admin screens' strings (locales/*.admin.json), with the other screens': a third of what `more` was, which no
 * reviewer's page needs (issue 30 item 5). The admin routes wait for them.
 */
export function loadAdminStrings(): Promise<void> {
  moreWanted = true;
  adminWanted = true;
  return languageReady.then(() => Promise.all([load(currentLanguage(), 'more'), load(currentLanguage(), 'admin')])).then(() => undefined);
}

/** The translated label of a field named by a server location (`['body','new_user','password']`), if we have one. */
export function fieldLabel(loc: (string | number)[]): string | undefined {
  const name = [...loc].reverse().find((part): part is string => typeof part === 'string');
  if (!name) return undefined;
  const key = `fields.${name}`;
  return i18n.exists(key) ? i18n.t(key) : undefined;
}

/** Translates a form error: the contract's keys ('validation.required') get the field's label. */
export function translateError(message: string | undefined, label: string): string | undefined {
  if (!message) return undefined;
  return i18n.exists(message) ? i18n.t(message, { field: label }) : message;
}

export default i18n;
