import { describe, expect, it } from 'vitest';
import { NOTE_MAX, NOTE_MIN, note, overallScore, rankingLabel, rating, ReviewRanking, reviewFields, reviewMessages } from '../src/reviews';

/** `n` characters that count, in the given alphabet, with the given white space between every five of them. */
function text(n: number, alphabet: string, space: string) {
  const chars = Array.from(alphabet);
  let out = '';
  for (let i = 0; i < n; i += 1) {
    out += chars[i % chars.length];
    if (i % 5 === 4) out += space;
  }
  return out;
}

const issues = (value: string) => {
  const result = note.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

describe('review note length: 200 to 3000 characters, white space not counted (E-020, E-021, E-022)', () => {
  for (const [name, alphabet, space] of [
    ['Latin letters with spaces', 'abcdefghij', ' '],
    ['with tabs', 'klmnopqrst', '\t'],
    ['with newlines', 'uvwxyz0123', '\n'],
    ['Cyrillic with mixed white space', 'абвгдежзий', ' \n\t'],
    ['Japanese with ideographic spaces', '日本語の文章です', '\u3000'],
    ['emoji (one character each) with non-breaking spaces', '🙂🚀🌍', '\u00a0'],
  ] as const) {
    it(name, () => {
      expect(issues(text(NOTE_MIN - 1, alphabet, space))).toEqual([reviewMessages.noteMin]);
      expect(issues(text(NOTE_MIN, alphabet, space))).toEqual([]);
      expect(issues(text(NOTE_MAX, alphabet, space))).toEqual([]);
      expect(issues(text(NOTE_MAX + 1, alphabet, space))).toEqual([
        `Content must not exceed 3000 characters (excluding spaces), currently 3001`,
      ]);
    });
  }

  it('refuses a note padded with megabytes of white space', () => {
    expect(issues(`${' '.repeat(20_000)}${'a'.repeat(200)}`)).toEqual(['validation.maxLength']);
  });

  it('an empty or blank note is required, not too short', () => {
    expect(issues('')).toEqual(['validation.required']);
    expect(issues(' \n\t ')).toEqual(['validation.required']);
  });
});

describe('ratings, the overall score and the ranking label', () => {
  it('takes whole numbers 1 to 5 only (E-019)', () => {
    for (const value of [1, 3, 5]) expect(rating.safeParse(value).success).toBe(true);
    for (const value of [0, 6, 2.5, -1]) expect(rating.safeParse(value).error?.issues[0]?.message).toBe('Rating must be between 1 and 5');
  });

  it('requires every field (E-017)', () => {
    const result = reviewFields.safeParse({});
    expect(result.error?.issues.map((issue) => issue.path[0]).sort()).toEqual([
      'auditability_note',
      'auditability_rating_given',
      'feasibility_note',
      'feasibility_rating_given',
      'impact_alignment_note',
      'impact_alignment_rating_given',
    ]);
  });

  it('rounds the overall score to one decimal (E-024)', () => {
    expect(overallScore({ impact_alignment_rating_given: 4, feasibility_rating_given: 3, auditability_rating_given: 4 })).toBe(3.7);
  });

  it('numbers rankings 0–3 and shows pending as pending moderation unless moderated (E-039, E-040, E-041)', () => {
    expect(ReviewRanking).toEqual({ pending: 0, included: 1, excluded_moderation: 2, excluded_threshold: 3 });
    expect(rankingLabel(0, false)).toBe('pending_moderation');
    expect(rankingLabel(0, true)).toBe('pending');
    expect(rankingLabel(1, false)).toBe('included');
    expect(rankingLabel(2, true)).toBe('excluded_moderation');
    expect(rankingLabel(3, false)).toBe('excluded_threshold');
  });
});
