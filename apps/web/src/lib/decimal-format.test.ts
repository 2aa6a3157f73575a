import { LANGUAGES } from '@cr/contract/languages';
import { afterEach, describe, expect, it } from 'vitest';
import { formatDecimal, type DecimalOptions } from './decimal-format';
import { PSEUDO_LANGUAGE } from './i18n';
import { setFormatLocale } from './locale';

// Issue 30 item 5: the app's numbers are written without Intl.NumberFormat (its first use loads ICU's number data in
// the middle of a list's first render). They must read exactly as Intl writes them, in every language we ship.

const OPTIONS: DecimalOptions[] = [
  { decimals: 0, grouping: true }, // ADA amounts, funds
  { decimals: 1, grouping: false }, // ratings
  { decimals: 2, grouping: false }, // scores
  { decimals: 0, grouping: false, percent: true },
  { decimals: 1, grouping: false, percent: true },
  { decimals: 2, grouping: false, percent: true },
  { decimals: 3, grouping: false, percent: true },
  { decimals: 2, grouping: true },
];

/** Halves, ties of the binary kind (1.005, 2.675), carries (9.995, 999.95), signs, the tiny and the huge. */
function sampleValues(): number[] {
  const fixed = [
    0,
    -0,
    0.5,
    -0.5,
    1.5,
    2.5,
    -2.5,
    0.125,
    1.005,
    2.675,
    107 / 40,
    0.145,
    0.12345,
    0.875,
    9.995,
    99.95,
    999.5,
    999.95,
    9999.5,
    1234,
    12345,
    123456,
    1234567.5,
    -1234567.5,
    1e15,
    1e21,
    1.5e22,
    1e-7,
    -1e-7,
    0.000123456,
    4.35,
    3.25,
    4.05,
    0.049999,
    0.05,
    0.95,
    0.995,
    0.9995,
    1 / 3,
    2 / 3,
    -0.004,
    -0.4,
    5,
    4.999,
    123456.789,
    Number.MAX_SAFE_INTEGER,
    Number.MIN_VALUE,
    Number.MAX_VALUE,
    Number.EPSILON,
  ];
  // A fixed pseudo-random spread over twelve orders of magnitude (a linear congruential generator: reproducible).
  let seed = 20261127;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const spread = Array.from({ length: 600 }, () => (next() - 0.3) * 10 ** Math.floor(next() * 12 - 4));
  const ratings = Array.from({ length: 200 }, () => Math.round(next() * 5000) / 1000);
  return [...fixed, ...spread, ...ratings];
}

afterEach(() => setFormatLocale('en-US'));

describe('formatDecimal writes numbers as Intl.NumberFormat does (issue 30 item 5)', () => {
  for (const locale of [...LANGUAGES, PSEUDO_LANGUAGE]) {
    it(`matches Intl in ${locale} for every option the app uses`, () => {
      setFormatLocale(locale);
      for (const options of OPTIONS) {
        const intl = new Intl.NumberFormat(locale, {
          style: options.percent ? 'percent' : 'decimal',
          minimumFractionDigits: options.decimals,
          maximumFractionDigits: options.decimals,
          // 'auto' is Intl's default (the locale's minimum grouping digits), which the app has always used.
          useGrouping: options.grouping ? ('auto' as unknown as boolean) : false,
        });
        for (const value of sampleValues()) {
          expect(formatDecimal(value, options), `${value} ${JSON.stringify(options)}`).toBe(intl.format(value));
        }
      }
    });
  }

  it('groups Spanish numbers only from five digits, with a no-break space before the percent sign', () => {
    setFormatLocale('es');
    expect(formatDecimal(1234, { decimals: 0, grouping: true })).toBe('1234');
    expect(formatDecimal(12345, { decimals: 0, grouping: true })).toBe('12.345');
    expect(formatDecimal(1234567.5, { decimals: 0, grouping: true })).toBe('1.234.568');
    expect(formatDecimal(0.875, { decimals: 2, grouping: false, percent: true })).toBe('87,50\u00a0%');
  });

  it('falls back to Intl for a locale it has no symbols for, and for infinities', () => {
    setFormatLocale('de-CH');
    expect(formatDecimal(1234.5, { decimals: 1, grouping: true })).toBe(
      new Intl.NumberFormat('de-CH', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(1234.5),
    );
    setFormatLocale('en-US');
    expect(formatDecimal(Number.POSITIVE_INFINITY, { decimals: 0, grouping: true })).toBe('∞');
  });
});
