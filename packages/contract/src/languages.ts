/**
 * The interface's languages (issue 31). `en-US` is the source; the others are translations of every string of it.
 * A person's choice is stored with their account, so that their mails follow it. No zod here: the web app's first
 * load imports this (the schemas are in users.ts).
 */
export const LANGUAGES = ['en-US', 'es', 'ja'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en-US';

/** Each language in its own words (the language menu lists them so, whatever the language shown). */
export const LANGUAGE_NAMES: Record<Language, string> = { 'en-US': 'English', es: 'Español', ja: '日本語' };

/**
 * The best of `supported` for a list of preferred language tags (a browser's `navigator.languages`, or an
 * Accept-Language header's tags in order): an exact match first, then the same primary language (`es-MX` → `es`,
 * `en-GB` → `en-US`), taking the preferences in order; `fallback` when none matches.
 */
export function negotiateLanguage<T extends string>(preferred: readonly string[], supported: readonly T[], fallback: T): T {
  const lower = supported.map((tag) => tag.toLowerCase());
  for (const raw of preferred) {
    const tag = raw.trim().toLowerCase();
    if (!tag || tag === '*') continue;
    const exact = lower.indexOf(tag);
    if (exact >= 0) return supported[exact]!;
    const primary = tag.split('-')[0]!;
    const sameLanguage = lower.findIndex((candidate) => candidate.split('-')[0] === primary);
    if (sameLanguage >= 0) return supported[sameLanguage]!;
  }
  return fallback;
}

/** The tags of an Accept-Language header, best first (by q, then by order); q=0 ones left out. */
export function acceptLanguageTags(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag && entry.q > 0 && !Number.isNaN(entry.q))
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
}
