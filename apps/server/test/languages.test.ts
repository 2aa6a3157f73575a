import { acceptLanguageTags, negotiateLanguage, LANGUAGES } from '@cr/contract/languages';
import { describe, expect, it } from 'vitest';
import { API, databaseKinds, json, useTestApp } from './build-test-app';

// Issue 31: the language a person chose is kept with their account (their mails follow it).
describe.each(databaseKinds)('PUT users/me/language/ on %s', (kind) => {
  const ctx = useTestApp(kind);

  it('stores the choice, which users/me then shows; null until one is made', async () => {
    const user = await ctx.newUser();
    const me = () => ctx.app.inject({ method: 'GET', url: `${API}/users/me/`, headers: user.auth });
    expect(json(await me()).extra.language).toBeNull();
    const response = await ctx.app.inject({
      method: 'PUT',
      url: `${API}/users/me/language/`,
      headers: user.auth,
      payload: { language: 'ja' },
    });
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ language: 'ja' });
    expect(json(await me()).extra.language).toBe('ja');
    await ctx.app.inject({ method: 'PUT', url: `${API}/users/me/language/`, headers: user.auth, payload: { language: 'es' } });
    expect(json(await me()).extra.language).toBe('es');
  });

  it('refuses a language we do not have (422) and an anonymous caller (401)', async () => {
    const user = await ctx.newUser();
    const bad = await ctx.app.inject({ method: 'PUT', url: `${API}/users/me/language/`, headers: user.auth, payload: { language: 'fr' } });
    expect(bad.statusCode).toBe(422);
    expect(json(bad).detail[0].loc).toEqual(['body', 'language']);
    const missing = await ctx.app.inject({ method: 'PUT', url: `${API}/users/me/language/`, headers: user.auth, payload: {} });
    expect(missing.statusCode).toBe(422);
    const anonymous = await ctx.app.inject({ method: 'PUT', url: `${API}/users/me/language/`, payload: { language: 'es' } });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('language negotiation', () => {
  it('takes the first preference we have: exact, then the same primary language; English otherwise', () => {
    expect(negotiateLanguage(['ja-JP', 'en'], LANGUAGES, 'en-US')).toBe('ja');
    expect(negotiateLanguage(['es-MX', 'ja'], LANGUAGES, 'en-US')).toBe('es');
    expect(negotiateLanguage(['en-GB', 'es'], LANGUAGES, 'en-US')).toBe('en-US');
    expect(negotiateLanguage(['fr-FR', 'de', 'ES'], LANGUAGES, 'en-US')).toBe('es');
    expect(negotiateLanguage(['fr', 'de'], LANGUAGES, 'en-US')).toBe('en-US');
    expect(negotiateLanguage([], LANGUAGES, 'en-US')).toBe('en-US');
    expect(negotiateLanguage(['*'], LANGUAGES, 'en-US')).toBe('en-US');
  });

  it('reads an Accept-Language header by quality, then order, leaving q=0 out', () => {
    expect(acceptLanguageTags('fr;q=0.5, ja-JP, es;q=0.8, de;q=0')).toEqual(['ja-JP', 'es', 'fr']);
    expect(acceptLanguageTags(undefined)).toEqual([]);
    expect(acceptLanguageTags(' , ;q=1')).toEqual([]);
    expect(negotiateLanguage(acceptLanguageTags('de-DE,de;q=0.9,ja;q=0.8,en;q=0.7'), LANGUAGES, 'en-US')).toBe('ja');
  });
});
