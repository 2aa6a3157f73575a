import { describe, expect, it } from 'vitest';
import { validationMessages } from '@cr/contract/messages';
import { VALIDATION_TRANSLATIONS } from '@cr/contract/validation-translations';
import { translateMessage } from '../src/lib/i18n';
import messagesEs from '../src/locales/messages.es.json';
import messagesJa from '../src/locales/messages.ja.json';
import { collectServerMessages } from './server-messages';

const CATALOGS = { es: messagesEs as Record<string, string>, ja: messagesJa as Record<string, string> };
const variables = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();

// Issue 31 item 2: every message the server answers a user with has its Spanish and Japanese text.
describe('the server messages’ translations', () => {
  const { messages, unknownFunctions } = collectServerMessages();

  it('finds the messages (the collection itself works)', () => {
    expect(messages.length).toBeGreaterThan(100);
    expect(messages.map((message) => message.text)).toEqual(
      expect.arrayContaining(['Incorrect Catalyst ID or password.', 'Not found.', "Unknown query parameter '{{name}}'."]),
    );
    // A message written by a function must say how to write it with {{…}} parts (server-messages.ts).
    expect(unknownFunctions).toEqual([]);
  });

  for (const language of ['es', 'ja'] as const) {
    it(`has every message in ${language}, with the same {{variables}}`, () => {
      const catalog = CATALOGS[language];
      const missing = messages.filter((message) => !Object.hasOwn(catalog, message.text)).map((m) => `${m.from}: ${m.text}`);
      expect(missing).toEqual([]);
      const mismatched = Object.entries(catalog).filter(([english, target]) => variables(english).join() !== variables(target).join());
      expect(mismatched).toEqual([]);
      const empty = Object.entries(catalog).filter(([, target]) => !target.trim());
      expect(empty).toEqual([]);
    });

    it(`has every validation message in ${language}, with the same {{variables}}`, () => {
      for (const [key, english] of Object.entries(validationMessages)) {
        const target = VALIDATION_TRANSLATIONS[language][key as keyof typeof validationMessages];
        expect(target, key).toBeTruthy();
        expect(variables(target), key).toEqual(variables(english));
      }
    });
  }

  it('translates exact texts and patterns, and leaves English and unknown texts alone', () => {
    expect(translateMessage('Incorrect Catalyst ID or password.', 'ja')).toBe('Catalyst IDまたはパスワードが正しくありません。');
    expect(translateMessage("Unknown query parameter 'x'.", 'es')).toBe("Parámetro de consulta desconocido 'x'.");
    expect(translateMessage('This API token does not have the admin-read scope this request needs.', 'ja')).toBe(
      'このAPIトークンには、このリクエストに必要なadmin-readスコープがありません。',
    );
    // A validation message with its field label, the label translated too.
    expect(translateMessage('Email is required.', 'ja')).toBe('メールアドレスは必須です。');
    expect(translateMessage('Incorrect Catalyst ID or password.', 'en-US')).toBe('Incorrect Catalyst ID or password.');
    expect(translateMessage('Something nobody wrote down.', 'es')).toBe('Something nobody wrote down.');
    // zod's own wording, for the schemas that give no message of their own.
    expect(translateMessage('Invalid option: expected one of "en-US"|"es"|"ja"', 'es')).toBe(
      'Opción no válida: se esperaba una de "en-US"|"es"|"ja"',
    );
    expect(translateMessage('Invalid input: expected string, received number', 'ja')).toBe(
      '入力が無効です。stringが必要ですが、numberを受け取りました',
    );
  });
});
