import { describe, expect, it } from 'vitest';
import { setFormatLocale } from './locale';
import {
  displayCatalystId,
  formatAda,
  formatDateLong,
  formatDateShort,
  formatMonth,
  formatPercent,
  formatRating,
  formatScore,
  shortProposalId,
} from './format';

// Local-time inputs (no 'Z'), so the expectations hold in any time zone.
const march7 = '2025-03-07T09:05:00';

describe('dates (spec §9)', () => {
  it('shows the short date as year, month, day (A-139)', () => {
    expect(formatDateShort(march7)).toBe('2025-03-07');
    expect(formatDateShort(new Date(2024, 11, 31, 23, 59))).toBe('2024-12-31');
    expect(formatDateShort(new Date(2025, 0, 2).getTime())).toBe('2025-01-02');
  });

  it('shows the long date with hour and minute, 24-hour and zero-padded (A-139)', () => {
    expect(formatDateLong(march7)).toBe('2025-03-07 09:05');
    expect(formatDateLong(new Date(2025, 0, 2, 15, 4))).toBe('2025-01-02 15:04');
    expect(formatDateLong(new Date(2025, 0, 2, 0, 0).getTime())).toBe('2025-01-02 00:00');
  });

  it('shows the month-only date as month name and year (A-139)', () => {
    expect(formatMonth(march7)).toBe('March 2025');
    expect(formatMonth(new Date(2024, 11, 31))).toBe('December 2024');
    expect(formatMonth('2025-01-01T00:00:00')).toBe('January 2025');
  });

  it('shows nothing for a missing or invalid date in every format (A-139)', () => {
    for (const format of [formatDateShort, formatDateLong, formatMonth]) {
      expect(format(null)).toBe('');
      expect(format(undefined)).toBe('');
      expect(format('')).toBe('');
      expect(format('not a date')).toBe('');
      expect(format(Number.NaN)).toBe('');
      expect(format(new Date('nope'))).toBe('');
    }
  });

  it('reads a date or date-time without a zone as local time, and one with a zone as that instant (A-139)', () => {
    expect(formatDateShort('2025-03-07')).toBe('2025-03-07');
    expect(formatDateLong('2025-03-07 09:05')).toBe('2025-03-07 09:05');
    expect(formatDateLong('2025-03-07T09:05:30.250')).toBe('2025-03-07 09:05');
    const instant = new Date('2025-03-07T09:05:00Z');
    expect(formatDateLong('2025-03-07T09:05:00Z')).toBe(formatDateLong(instant));
    expect(formatDateLong('2025-03-07T09:05:00+02:00')).toBe(formatDateLong(new Date(instant.getTime() - 2 * 3_600_000)));
  });

  it('treats the timestamp 0 as a date, not as missing (A-139)', () => {
    expect(formatDateShort(0)).toMatch(/^19(69-12-31|70-01-01)$/);
  });
});

describe('ADA amounts (spec §9)', () => {
  it('shows ADA without decimals, with thousands separators (A-136)', () => {
    expect(formatAda(1234567)).toBe('₳ 1,234,567');
    expect(formatAda(1234.56)).toBe('₳ 1,235');
    expect(formatAda(999.4)).toBe('₳ 999');
    expect(formatAda(1e12)).toBe('₳ 1,000,000,000,000');
  });

  it('shows ADA zero and rounds halves away from zero (A-136)', () => {
    expect(formatAda(0)).toBe('₳ 0');
    expect(formatAda(2.5)).toBe('₳ 3');
    expect(formatAda(1234567.5)).toBe('₳ 1,234,568');
    expect(formatAda(-2.5)).toBe('₳ -3');
    expect(formatAda(-1500)).toBe('₳ -1,500');
  });

  it('never shows a negative zero ADA amount (A-136)', () => {
    expect(formatAda(-0.4)).toBe('₳ 0');
    expect(formatAda(-0)).toBe('₳ 0');
  });

  it('shows nothing for a missing ADA amount (A-136)', () => {
    expect(formatAda(null)).toBe('');
    expect(formatAda(undefined)).toBe('');
    expect(formatAda(Number.NaN)).toBe('');
  });
});

describe('scores (spec §9)', () => {
  it('shows score numbers to 2 decimals (A-135)', () => {
    expect(formatScore(4)).toBe('4.00');
    expect(formatScore(3.14159)).toBe('3.14');
    expect(formatScore(0)).toBe('0.00');
    expect(formatScore(4.999)).toBe('5.00');
    expect(formatScore(-1.5)).toBe('-1.50');
  });

  it('rounds a score half up on its decimal form, not its binary one (A-135)', () => {
    expect(formatScore(0.125)).toBe('0.13');
    expect(formatScore(1.005)).toBe('1.01');
    expect(formatScore(2.675)).toBe('2.68');
    expect(formatScore(107 / 40)).toBe('2.68');
  });

  it('shows a large score without grouping and a tiny negative one without a minus (A-135)', () => {
    expect(formatScore(123456.789)).toBe('123456.79');
    expect(formatScore(-0.001)).toBe('0.00');
  });

  it('shows nothing for a missing score (A-135)', () => {
    expect(formatScore(null)).toBe('');
    expect(formatScore(undefined)).toBe('');
    expect(formatScore(Number.NaN)).toBe('');
  });
});

describe('negative zero in Spanish (issue 31)', () => {
  it('drops the minus of a score, percentage or amount that rounds to zero, with its comma and spaced percent sign', () => {
    setFormatLocale('es');
    try {
      expect(formatScore(-0.001)).toBe('0,00');
      expect(formatPercent(-0.00001)).toBe('0,00\u00a0%');
      expect(formatAda(-0.4)).toBe('₳ 0');
      expect(formatAda(-12345.6)).toBe('₳ -12.346');
    } finally {
      setFormatLocale('en-US');
    }
  });
});

describe('percentages (spec §9)', () => {
  it('shows a 0..1 flag score as a percentage with two decimals (F-043)', () => {
    expect(formatPercent(0.875)).toBe('87.50%');
    expect(formatPercent(0)).toBe('0.00%');
    expect(formatPercent(1)).toBe('100.00%');
    expect(formatPercent(0.29)).toBe('29.00%');
    expect(formatPercent(0.12345)).toBe('12.35%');
  });

  it('scales the ratio in decimal before rounding, and takes other decimals (F-043)', () => {
    expect(formatPercent(0.145, 0)).toBe('15%');
    expect(formatPercent(0.5, 1)).toBe('50.0%');
    expect(formatPercent(0.33333, 3)).toBe('33.333%');
  });

  it('shows no negative zero percentage and nothing for a missing ratio (F-043)', () => {
    expect(formatPercent(-0.00001)).toBe('0.00%');
    expect(formatPercent(null)).toBe('');
    expect(formatPercent(undefined)).toBe('');
    expect(formatPercent(Number.NaN)).toBe('');
  });
});

describe('ids (spec §9)', () => {
  it('takes the short proposal id as the part before the first hyphen (A-137)', () => {
    expect(shortProposalId('1234-abcd-ef')).toBe('1234');
    expect(shortProposalId('f14-67b3')).toBe('f14');
    expect(shortProposalId('nohyphen')).toBe('nohyphen');
    expect(shortProposalId('-leading')).toBe('');
    expect(shortProposalId('')).toBe('');
    expect(shortProposalId(null)).toBe('');
    expect(shortProposalId(undefined)).toBe('');
  });

  it("displays a Catalyst ID with the fixed scheme prefix followed by 'cardano/' (A-138)", () => {
    expect(displayCatalystId('cardano/abc123')).toBe('id.catalyst://cardano/abc123');
    expect(displayCatalystId('id.catalyst://cardano/abc123')).toBe('id.catalyst://cardano/abc123');
    expect(displayCatalystId('other.scheme://cardano/abc123#encrypt')).toBe('id.catalyst://cardano/abc123');
  });
});

describe('formatRating (spec §5)', () => {
  it('shows every displayed rating with one decimal, whole ones too (E-024)', () => {
    expect(formatRating(4)).toBe('4.0');
    expect(formatRating(11 / 3)).toBe('3.7');
    expect(formatRating(3.666)).toBe('3.7');
    expect(formatRating(2.25)).toBe('2.3');
    expect(formatRating(5)).toBe('5.0');
  });

  it('shows nothing for a missing value', () => {
    expect(formatRating(null)).toBe('');
    expect(formatRating(undefined)).toBe('');
    expect(formatRating(Number.NaN)).toBe('');
  });
});
