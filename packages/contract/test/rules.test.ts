import { describe, expect, it } from 'vitest';
import {
  CATALYST_ID_PATTERN,
  catalystIdSchema,
  displayCatalystId,
  emailSchema,
  hasDigit,
  hasUppercase,
  isAcceptableText,
  isCatalystId,
  messages,
  newPasswordSchema,
  nonWhitespaceLength,
  normalizeCatalystId,
  passwordLengthSchema,
  requiredText,
  text,
} from '../src/rules';
import { loginForm, newUser, updateUser, userReset } from '../src/users';

/** The messages a schema gives for a value, in order. */
const messagesOf = (
  schema: { safeParse(value: unknown): { success: boolean; error?: { issues: { message: string }[] } } },
  value: unknown,
) => schema.safeParse(value).error?.issues.map((issue) => issue.message) ?? [];

describe('Catalyst ID pattern (A-053, A-063, A-093)', () => {
  it.each([
    'id.catalyst://cardano/FftxFnOrj2qmTuB2oZG2v0YEWJfKvQ9Mlmed1uzmE8g',
    'cardano/FftxFnOrj2qmTuB2oZG2v0YEWJfKvQ9Mlmed1uzmE8g',
    'id.catalyst://cardano/abc#encrypt',
    'cardano/abc#encrypt',
    'ID.CATALYST://Cardano/Abc',
    'other-scheme+v1.2://net/key',
    'preprod.cardano/key_with-punctuation.and=signs',
    '  cardano/abc  ',
  ])('accepts %j', (value) => {
    expect(isCatalystId(value)).toBe(true);
    expect(catalystIdSchema.safeParse(value).success).toBe(true);
  });

  it.each([
    ['no slash', 'cardanoabc'],
    ['no slash after the prefix', 'id.catalyst://cardanoabc'],
    ['empty network part', '/abc'],
    ['empty key part', 'cardano/'],
    ['empty key part with the prefix', 'id.catalyst://cardano/'],
    ['only a slash', '/'],
    ['a space in the network part', 'car dano/abc'],
    ['a space in the key part', 'cardano/a bc'],
    ['a tab in the key part', 'cardano/a\tbc'],
    ['two slashes', 'cardano/abc/def'],
    ['a suffix other than #encrypt', 'cardano/abc#sign'],
    ['#encrypt twice', 'cardano/abc#encrypt#encrypt'],
    ['a prefix starting with a digit', '1d://cardano/abc'],
  ])('rejects a value with %s (%j)', (_label, value) => {
    expect(isCatalystId(value)).toBe(false);
    expect(messagesOf(catalystIdSchema, value)).toEqual([messages.catalystId]);
  });

  it('says only that the field is required when it is empty or only white space (A-129)', () => {
    expect(messagesOf(catalystIdSchema, '')).toEqual([messages.required]);
    expect(messagesOf(catalystIdSchema, '   ')).toEqual([messages.required]);
    expect(messagesOf(catalystIdSchema, undefined)).toEqual([messages.required]);
  });

  it('rejects a value longer than 500 characters', () => {
    expect(messagesOf(catalystIdSchema, `cardano/${'a'.repeat(500)}`)).toContain(messages.maxLength);
  });

  it('is anchored: the pattern never matches part of a longer text', () => {
    expect(CATALYST_ID_PATTERN.test('x cardano/abc')).toBe(false);
    expect(CATALYST_ID_PATTERN.test('cardano/abc y')).toBe(false);
  });
});

describe('normalizeCatalystId and displayCatalystId (A-138)', () => {
  it('strips the scheme prefix', () => {
    expect(normalizeCatalystId('id.catalyst://cardano/abc')).toEqual({ id: 'cardano/abc', encrypt: false });
  });

  it('keeps the #encrypt suffix apart', () => {
    expect(normalizeCatalystId('id.catalyst://cardano/abc#encrypt')).toEqual({ id: 'cardano/abc', encrypt: true });
    expect(normalizeCatalystId('cardano/abc#ENCRYPT')).toEqual({ id: 'cardano/abc', encrypt: true });
  });

  it('trims white space and leaves an unprefixed ID as it is', () => {
    expect(normalizeCatalystId('  cardano/abc ')).toEqual({ id: 'cardano/abc', encrypt: false });
  });

  it('gives the same stored form for the prefixed and unprefixed spelling', () => {
    expect(normalizeCatalystId('id.catalyst://cardano/xyz').id).toBe(normalizeCatalystId('cardano/xyz#encrypt').id);
  });

  it('displays a Catalyst ID with the fixed scheme prefix followed by cardano/', () => {
    expect(displayCatalystId('cardano/abc')).toBe('id.catalyst://cardano/abc');
    expect(displayCatalystId('id.catalyst://cardano/abc#encrypt')).toBe('id.catalyst://cardano/abc');
    expect(displayCatalystId('other://cardano/abc')).toBe('id.catalyst://cardano/abc');
  });
});

describe('new password rules (A-064, A-065, A-095, A-096)', () => {
  it('accepts 8 characters with a digit and an uppercase letter', () => {
    expect(newPasswordSchema.safeParse('Abcdefg1').success).toBe(true);
  });

  it('requires a password', () => {
    expect(messagesOf(newPasswordSchema, '')).toEqual([messages.required]);
    expect(messagesOf(newPasswordSchema, undefined)).toEqual([messages.required]);
  });

  it('rejects 7 characters as too short', () => {
    expect(messagesOf(newPasswordSchema, 'Abcdef1')).toEqual([messages.passwordMin]);
  });

  it('rejects a password without a digit', () => {
    expect(messagesOf(newPasswordSchema, 'Abcdefgh')).toEqual([messages.passwordDigit]);
  });

  it('rejects a password without an uppercase letter', () => {
    expect(messagesOf(newPasswordSchema, 'abcdefg1')).toEqual([messages.passwordUppercase]);
  });

  it('counts a non-Latin uppercase letter as uppercase', () => {
    expect(hasUppercase('ÄBC')).toBe(true);
    expect(newPasswordSchema.safeParse('Ärger-123').success).toBe(true);
  });

  it('gives every failed rule at once', () => {
    expect(messagesOf(newPasswordSchema, 'abc')).toEqual([messages.passwordMin, messages.passwordDigit, messages.passwordUppercase]);
  });

  it('accepts 100 characters and rejects 101', () => {
    expect(newPasswordSchema.safeParse(`A1${'a'.repeat(98)}`).success).toBe(true);
    expect(messagesOf(newPasswordSchema, `A1${'a'.repeat(99)}`)).toEqual([messages.passwordLength]);
  });

  it('has helpers that find a digit and an uppercase letter', () => {
    expect(hasDigit('abc7')).toBe(true);
    expect(hasDigit('abc')).toBe(false);
    expect(hasUppercase('abC')).toBe(true);
    expect(hasUppercase('abc1')).toBe(false);
  });
});

describe('confirmation and old password length (A-097, A-098)', () => {
  it.each([
    ['6 characters', 'a'.repeat(6), [messages.passwordLength]],
    ['7 characters', 'a'.repeat(7), []],
    ['100 characters', 'a'.repeat(100), []],
    ['101 characters', 'a'.repeat(101), [messages.passwordLength]],
  ])('%s', (_label, value, expected) => {
    expect(messagesOf(passwordLengthSchema, value)).toEqual(expected);
  });

  it('is required', () => {
    expect(messagesOf(passwordLengthSchema, '')).toEqual([messages.required]);
  });
});

const acks = { policy_acknowledgments: { privacy_policy: true, terms_and_conditions: true } };
const validNewUser = {
  catalyst_id: 'id.catalyst://cardano/abc',
  email: 'a@example.test',
  password: 'Valid-pass1',
  password_confirmation: 'Valid-pass1',
  extra: acks,
};

/** `path: message` of every issue, to check where each rule reports. */
const issuesOf = (
  schema: { safeParse(value: unknown): { error?: { issues: { path: PropertyKey[]; message: string }[] } } },
  value: unknown,
) => schema.safeParse(value).error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) ?? [];

describe('registration schema (A-063..A-067)', () => {
  it('accepts a complete registration', () => {
    expect(newUser.safeParse(validNewUser).success).toBe(true);
  });

  it('requires password_confirmation to equal password, reported on the confirmation (A-066)', () => {
    expect(issuesOf(newUser, { ...validNewUser, password_confirmation: 'Valid-pass2' })).toEqual([
      `password_confirmation: ${messages.passwordMatch}`,
    ]);
  });

  it('reports the registration password rules on the password field (A-064, A-065)', () => {
    expect(issuesOf(newUser, { ...validNewUser, password: 'shortpw', password_confirmation: 'shortpw' })).toEqual([
      `password: ${messages.passwordMin}`,
      `password: ${messages.passwordDigit}`,
      `password: ${messages.passwordUppercase}`,
    ]);
  });

  it('requires a valid Catalyst ID and e-mail (A-063)', () => {
    expect(issuesOf(newUser, { ...validNewUser, catalyst_id: 'no-slash', email: 'not-an-email' })).toEqual([
      `catalyst_id: ${messages.catalystId}`,
      `email: ${messages.email}`,
    ]);
  });

  it('requires both policies to be accepted (A-067)', () => {
    const extra = { policy_acknowledgments: { privacy_policy: false, terms_and_conditions: false } };
    expect(issuesOf(newUser, { ...validNewUser, extra })).toEqual([
      `extra.policy_acknowledgments.privacy_policy: ${messages.accepted}`,
      `extra.policy_acknowledgments.terms_and_conditions: ${messages.accepted}`,
    ]);
  });
});

describe('password reset and change schemas (A-093, A-095..A-098)', () => {
  const reset = { catalyst_id: 'cardano/abc', password: 'Valid-pass1', password_confirmation: 'Valid-pass1', confirmation_token: 'token' };
  const update = { old_password: 'old-pass', password: 'Valid-pass1', password_confirmation: 'Valid-pass1' };

  it('accepts a valid reset and a valid change', () => {
    expect(userReset.safeParse(reset).success).toBe(true);
    expect(updateUser.safeParse(update).success).toBe(true);
  });

  it('requires the confirmation to equal the new password', () => {
    expect(issuesOf(userReset, { ...reset, password_confirmation: 'Other-pass1' })).toEqual([
      `password_confirmation: ${messages.passwordMatch}`,
    ]);
    expect(issuesOf(updateUser, { ...update, password_confirmation: 'Other-pass1' })).toEqual([
      `password_confirmation: ${messages.passwordMatch}`,
    ]);
  });

  it('requires a Catalyst ID matching the pattern and a token in the reset', () => {
    expect(issuesOf(userReset, { ...reset, catalyst_id: 'cardano', confirmation_token: '' })).toEqual([
      `catalyst_id: ${messages.catalystId}`,
      `confirmation_token: ${messages.required}`,
    ]);
  });

  it('requires the old password to be 7 to 100 characters long (A-098)', () => {
    expect(issuesOf(updateUser, { ...update, old_password: 'abcdef' })).toEqual([`old_password: ${messages.passwordLength}`]);
    expect(issuesOf(updateUser, { ...update, old_password: '' })).toEqual([`old_password: ${messages.required}`]);
  });

  it('requires the confirmation to be 7 to 100 characters long (A-097)', () => {
    expect(issuesOf(updateUser, { ...update, password_confirmation: 'Ab1' })).toContain(
      `password_confirmation: ${messages.passwordLength}`,
    );
  });
});

describe('login form (A-053)', () => {
  it('requires both fields and a Catalyst ID matching the pattern', () => {
    expect(loginForm.safeParse({ username: 'cardano/abc', password: 'x' }).success).toBe(true);
    expect(issuesOf(loginForm, { username: '', password: '' })).toEqual([
      `username: ${messages.required}`,
      `password: ${messages.required}`,
    ]);
    expect(issuesOf(loginForm, { username: 'cardano abc', password: 'x' })).toEqual([`username: ${messages.catalystId}`]);
  });
});

describe('e-mail schema', () => {
  it('accepts an address and trims it', () => {
    expect(emailSchema.parse(' a@example.test ')).toBe('a@example.test');
  });

  it('rejects an invalid address with the spec message', () => {
    expect(messagesOf(emailSchema, 'not-an-email')).toEqual([messages.email]);
  });
});

describe('nonWhitespaceLength', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['a b\tc\nd', 4],
    ['   ', 0],
    ['a\u00a0b\u2003c', 3],
    ['\r\n\t x \r\n', 1],
    ['é ü', 2],
  ])('counts %j as %i characters', (text, expected) => {
    expect(nonWhitespaceLength(text)).toBe(expected);
  });

  it('makes 200 visible characters spread with white space count as 200', () => {
    const text = Array.from({ length: 200 }, () => 'x').join('  \n');
    expect(nonWhitespaceLength(text)).toBe(200);
  });
});

describe('the request text rule (issue 13 item 1)', () => {
  it.each([
    ['plain text', 'Hello', true],
    ['an emoji (a surrogate pair)', 'ok 😀', true],
    ['other control characters', 'tab\there\u0001', true],
    ['a NUL character', 'a\u0000b', false],
    ['a lone high surrogate', 'a\ud800b', false],
    ['a lone high surrogate at the end', 'ab\ud83d', false],
    ['a lone low surrogate', '\udc00b', false],
    ['surrogates the wrong way round', '\ude00\ud83d', false],
  ])('%s: %s', (_name, value, ok) => {
    expect(isAcceptableText(value)).toBe(ok);
    expect(text().safeParse(value).success).toBe(ok);
  });

  it('requiredText and the password rules apply it, with their own message', () => {
    expect(messagesOf(requiredText, 'a\u0000b')).toEqual([messages.text]);
    expect(messagesOf(newPasswordSchema, 'Valid-pass1\u0000')).toEqual([messages.text]);
    expect(messagesOf(loginForm, { username: 'cardano/a', password: 'x\ud800' })).toEqual([messages.text]);
  });
});
