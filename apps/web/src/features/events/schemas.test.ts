import { describe, expect, it } from 'vitest';
import { DEFAULT_LEVEL_QUALIFIER, levelQualifier } from '@cr/contract/events';
import { fromDateTimeText } from '../../lib/date-time-text';
import { translateError } from '../../lib/i18n';
import { eventFormSchema, localDateTime, statusFormSchema } from './schemas';

/** The first message a schema gives for a value, as the form shows it under a field with this label. */
function shown(result: { success: boolean; error?: { issues: { message: string }[] } }, label: string) {
  return result.success ? undefined : translateError(result.error!.issues[0]!.message, label);
}

describe('the generic field messages of spec §5, as the forms show them', () => {
  it("an invalid URL shows 'Please enter a valid URL.' (A-131)", () => {
    const message = (action_url: string) =>
      statusFormSchema.safeParse({ messages: [{ message: 'Hello', severity: 'info', is_active: true, action_text: '', action_url }] });
    expect(shown(message('not a url'), 'Action URL')).toBe('Please enter a valid URL.');
    expect(shown(message('ftp://example.org'), 'Action URL')).toBe('Please enter a valid URL.');
    expect(message('https://example.org/page').success).toBe(true);
    expect(message('').success).toBe(true);
  });

  it("a non-numeric value in a number field shows '{field} must be a number.' (A-132)", () => {
    const level = (value: unknown) => levelQualifier.safeParse({ ...DEFAULT_LEVEL_QUALIFIER, min_valid_reviews: value });
    expect(shown(level('abc'), 'Minimum valid reviews')).toBe('Minimum valid reviews must be a number.');
    expect(shown(level(undefined), 'Minimum valid reviews')).toBe('Minimum valid reviews must be a number.');
    expect(level(3).success).toBe(true);
  });

  it("an invalid date shows 'The selected date is invalid.' (A-133)", () => {
    expect(shown(localDateTime.safeParse('2025-13-45T99:99'), 'Start')).toBe('The selected date is invalid.');
    expect(shown(localDateTime.safeParse('not a date'), 'Start')).toBe('The selected date is invalid.');
    expect(localDateTime.safeParse('2025-06-01T10:00').success).toBe(true);
    const event = eventFormSchema.safeParse({ name: 'Fund', description: 'd', active: false, start_time: 'yesterday-ish', end_time: '' });
    expect(shown(event, 'Start')).toBe('The selected date is invalid.');
  });

  // Issue 26 item 13: a typed date-time that is not one stays in the field as typed, and the field says so.
  it("a typed text that is no date-time shows 'The selected date is invalid.'; a typed one or none is taken (A-133)", () => {
    for (const typed of ['2026-12-01 25:00', '2026-02-30T10:00', '2026-12-01 9:0', '01/12/2026 09:00']) {
      expect(shown(localDateTime.safeParse(fromDateTimeText(typed)), 'Start'), typed).toBe('The selected date is invalid.');
    }
    expect(localDateTime.safeParse(fromDateTimeText('2026-12-01 09:00')).success).toBe(true);
    expect(localDateTime.safeParse(fromDateTimeText('')).success).toBe(true);
  });
});
