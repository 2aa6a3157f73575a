import { LANGUAGES } from '@cr/contract/languages';
import { validationMessages } from '@cr/contract/messages';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initialLanguage, LANGUAGE_STORAGE_KEY } from './lib/i18n';
import { pseudoStrings, pseudoText } from './lib/pseudo-locale';
import enUS from './locales/en-US.json';
import enUSMore from './locales/en-US.more.json';
import enUSAdmin from './locales/en-US.admin.json';
import es from './locales/es.json';
import esMore from './locales/es.more.json';
import esAdmin from './locales/es.admin.json';
import esValidation from '@cr/contract/locales/es.validation.json';
import ja from './locales/ja.json';
import jaMore from './locales/ja.more.json';
import jaAdmin from './locales/ja.admin.json';
import jaValidation from '@cr/contract/locales/ja.validation.json';

// Issue 31: every language has every key of the English, with the same interpolation variables and tags.
type Tree = Record<string, unknown>;

/** key path → text, for every leaf. */
function leaves(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value && typeof value === 'object') for (const [inner, text] of leaves(value as Tree, path)) out.set(inner, text);
    else out.set(path, String(value));
  }
  return out;
}

/** What a translation must keep: `{{variables}}`, `$t(nestings)` and `<tags>`, sorted. */
const kept = (text: string) =>
  [...text.matchAll(/\{\{\s*([^}\s,]+)[^}]*\}\}|\$t\([^)]*\)|<\/?[a-zA-Z0-9]+\s*\/?>/g)].map((m) => m[1] ?? m[0]).sort();

const sources = { first: enUS, more: enUSMore, admin: enUSAdmin, validation: validationMessages } as Record<string, Tree>;
const translations: Record<string, Record<string, Tree>> = {
  es: { first: es, more: esMore, admin: esAdmin, validation: esValidation },
  ja: { first: ja, more: jaMore, admin: jaAdmin, validation: jaValidation },
};

describe('locale parity', () => {
  it('covers every language the contract offers', () => {
    expect(['en-US', ...Object.keys(translations)].sort()).toEqual([...LANGUAGES].sort());
  });

  for (const [language, files] of Object.entries(translations)) {
    for (const [part, source] of Object.entries(sources)) {
      it(`${language} ${part}: the same keys as en-US, each with the same variables and tags, none left empty`, () => {
        const english = leaves(source);
        const translated = leaves(files[part]!);
        expect([...translated.keys()].filter((key) => !english.has(key))).toEqual([]);
        expect([...english.keys()].filter((key) => !translated.has(key))).toEqual([]);
        const mismatched = [...english].filter(([key, text]) => JSON.stringify(kept(text)) !== JSON.stringify(kept(translated.get(key)!)));
        expect(mismatched.map(([key]) => key)).toEqual([]);
        expect([...translated].filter(([, text]) => text.trim() === '').map(([key]) => key)).toEqual([]);
      });
    }
  }

  it('finds a missing key and a changed variable (the check itself works)', () => {
    const english = leaves({ a: { b: 'Hello {{name}}', c: 'x' } });
    const broken = leaves({ a: { b: 'Hola {{nombre}}' } });
    expect([...english.keys()].filter((key) => !broken.has(key))).toEqual(['a.c']);
    expect(kept(english.get('a.b')!)).not.toEqual(kept(broken.get('a.b')!));
  });
});

describe('the pseudo-locale', () => {
  it('accents, lengthens by 40 % and brackets a string, keeping its variables, nestings and tags', () => {
    const text = 'Save {{count}} reviews of <0>this round</0> $t(nav.home)';
    const pseudo = pseudoText(text);
    expect(pseudo.startsWith('[') && pseudo.endsWith(']')).toBe(true);
    expect(kept(pseudo)).toEqual(kept(text));
    expect(pseudo).toContain('Šåṽé');
    // The words people read grow by 40 %: the text without what is kept and the brackets.
    const visible = (value: string) => value.replace(/\{\{[^}]*\}\}|\$t\([^)]*\)|<\/?[a-zA-Z0-9]+\s*\/?>|^\[|\]$/g, '').length;
    expect(visible(pseudo)).toBeGreaterThanOrEqual(Math.ceil(visible(text) * 1.4));
  });

  it('turns a whole strings file, leaving its shape', () => {
    const pseudo = pseudoStrings(enUS);
    expect([...leaves(pseudo).keys()]).toEqual([...leaves(enUS).keys()]);
    expect(leaves(pseudo).get('nav.home')).toMatch(/^\[Ĥöɱé/);
  });
});

describe('the language of a first visit', () => {
  const storage = (value: string | null) => ({ getItem: (key: string) => (key === LANGUAGE_STORAGE_KEY ? value : null) });
  afterEach(() => vi.unstubAllGlobals());

  it('is the one chosen before in this browser, else the best of the browser’s languages, else English', () => {
    vi.stubGlobal('navigator', { languages: ['ja-JP', 'en-US'], language: 'ja-JP' });
    vi.stubGlobal('localStorage', storage(null));
    expect(initialLanguage()).toBe('ja');
    vi.stubGlobal('localStorage', storage('es'));
    expect(initialLanguage()).toBe('es');
    vi.stubGlobal('localStorage', storage('fr')); // not one of ours: the browser decides
    expect(initialLanguage()).toBe('ja');
    vi.stubGlobal('navigator', { languages: ['es-419', 'fr'], language: 'es-419' });
    vi.stubGlobal('localStorage', storage(null));
    expect(initialLanguage()).toBe('es');
    vi.stubGlobal('navigator', { languages: ['de-DE', 'fr'], language: 'de-DE' });
    expect(initialLanguage()).toBe('en-US');
    vi.stubGlobal('localStorage', storage('en-XA')); // the tests' pseudo-locale
    expect(initialLanguage()).toBe('en-XA');
  });
});
