import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { validationMessages } from '@cr/contract/messages';
import enUS from '../locales/en-US.json';

export const LANGUAGE = 'en-US';

void i18n.use(initReactI18next).init({
  lng: LANGUAGE,
  fallbackLng: 'en',
  supportedLngs: ['en-US', 'en'],
  resources: { 'en-US': { translation: { ...enUS, validation: validationMessages } } },
  interpolation: { escapeValue: false },
  showSupportNotice: false,
  returnNull: false,
});

let moreStrings: Promise<void> | undefined;

/**
 * The strings of every screen but the shell, the home page, the proposals list and the login page
 * (locales/en-US.more.json), added once; route modules and the shell's dialogs wait for them before they render, so
 * that a visitor's first load does not carry them (issue 16).
 */
export function loadMoreStrings(): Promise<void> {
  moreStrings ??= import('../locales/en-US.more.json').then((module) => {
    i18n.addResourceBundle(LANGUAGE, 'translation', module.default, true, false);
  });
  return moreStrings;
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
