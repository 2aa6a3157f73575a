import { describe, expect, it } from 'vitest';
import { DATE_TIME_FORMAT, fromPickerValue, toPickerValue } from './form-date-time';

describe('date-time fields (issue 12 item 15)', () => {
  it('show one ISO-ordered format', () => {
    expect(DATE_TIME_FORMAT).toBe('YYYY-MM-DD HH:mm');
  });

  it("give the picker the form's local date-time and take it back", () => {
    expect(toPickerValue('2026-03-15T09:30')).toBe('2026-03-15 09:30:00');
    expect(fromPickerValue('2026-03-15 09:30:00')).toBe('2026-03-15T09:30');
    expect(fromPickerValue(toPickerValue('2026-12-31T23:59'))).toBe('2026-12-31T23:59');
  });

  it('keep an empty field empty', () => {
    expect(toPickerValue('')).toBeNull();
    expect(toPickerValue(undefined)).toBeNull();
    expect(fromPickerValue(null)).toBe('');
  });
});
