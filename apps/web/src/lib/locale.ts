/**
 * The language tag numbers and dates are formatted for (issue 31), kept apart from i18n so that the formatters
 * (lib/format.ts) read it without loading i18next. Set by lib/i18n.ts whenever the language changes.
 */
let current = 'en-US';

export const formatLocale = () => current;

export function setFormatLocale(tag: string): void {
  current = tag;
}

/** One formatter per locale and key, made once: formatters are costly to create and are called in every table cell. */
export function perLocale<T>(make: (locale: string) => T): () => T {
  const made = new Map<string, T>();
  return () => {
    let value = made.get(current);
    if (!value) made.set(current, (value = make(current)));
    return value;
  };
}
