import { describe, expect, it } from 'vitest';
import { DATE_TIME_FORMAT, fromDateTimeText, isLocalDateTime, parseDateTimeText, toDateTimeText } from './date-time-text';

// Issue 26 item 13 (B-050, A-133): the date-time fields take a typed or pasted `YYYY-MM-DD HH:mm`.
describe('typed date-time text', () => {
  it('is the one ISO-ordered format the app shows (issue 12 item 15)', () => {
    expect(DATE_TIME_FORMAT).toBe('YYYY-MM-DD HH:mm');
  });

  it('parses a valid date-time, as typed or pasted with spaces around it or an ISO T', () => {
    expect(parseDateTimeText('2026-12-01 09:00')).toBe('2026-12-01T09:00');
    expect(parseDateTimeText('  2026-12-01 09:00\n')).toBe('2026-12-01T09:00');
    expect(parseDateTimeText('2026-12-01T09:00')).toBe('2026-12-01T09:00');
    expect(parseDateTimeText('2028-02-29 23:59')).toBe('2028-02-29T23:59'); // a leap day
    expect(parseDateTimeText('2026-01-01 00:00')).toBe('2026-01-01T00:00');
  });

  it('refuses what is not a real date-time in that format', () => {
    for (const text of [
      '2026-12-01',
      '2026-12-01 9:00',
      '01/12/2026 09:00',
      '2026-12-01 09:00 PM',
      '2026-13-01 09:00',
      '2026-00-10 09:00',
      '2026-02-29 10:00', // not a leap year
      '2026-04-31 10:00',
      '2026-12-00 10:00',
      '2026-12-01 24:00',
      '2026-12-01 09:60',
      'tomorrow',
    ])
      expect(parseDateTimeText(text), text).toBeNull();
  });

  it('reads an empty or blank text as no date-time', () => {
    expect(parseDateTimeText('')).toBe('');
    expect(parseDateTimeText('   ')).toBe('');
    expect(fromDateTimeText('')).toBe('');
    expect(toDateTimeText('')).toBe('');
    expect(toDateTimeText(undefined)).toBe('');
  });

  it('keeps the form value a local YYYY-MM-DDTHH:mm and shows it back in the typed format', () => {
    expect(fromDateTimeText('2026-12-01 09:00')).toBe('2026-12-01T09:00');
    expect(toDateTimeText('2026-12-01T09:00')).toBe('2026-12-01 09:00');
    expect(toDateTimeText(fromDateTimeText('2026-12-31 23:59'))).toBe('2026-12-31 23:59');
  });

  it('keeps an invalid text as typed, so that the form refuses it (features/events/schemas.test.ts)', () => {
    expect(fromDateTimeText('2026-12-01 25:00')).toBe('2026-12-01 25:00');
    expect(toDateTimeText('2026-12-01 25:00')).toBe('2026-12-01 25:00');
    expect(fromDateTimeText('2026-02-30T10:00')).toBe('2026-02-30T10:00');
    expect(isLocalDateTime('2026-02-30T10:00')).toBe(false);
    expect(isLocalDateTime('2026-12-01 09:00')).toBe(false); // the text, not the form value
    expect(isLocalDateTime('2026-12-01T09:00')).toBe(true);
  });
});
