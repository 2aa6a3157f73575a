import { formatLocale } from './locale';

/**
 * Numbers as `Intl.NumberFormat` writes them, for the interface's languages, without calling it (issue 30 item 5).
 * A page's first `Intl.NumberFormat` loads ICU's number data: 25–60 ms on a desktop, four times that on a phone, in
 * the middle of the first render of every list (a rating, an amount). The symbols of our languages are few and fixed
 * (CLDR: en-US and ja group with ',' by thousands; es with '.', and only from five digits, its percent sign after a
 * no-break space); any other locale falls back to Intl. `decimal-format.test.ts` checks every case against Intl.
 */

interface Symbols {
  group: string;
  decimal: string;
  /** Digits the integer part needs before it is grouped at all (CLDR's minimumGroupingDigits + 3). */
  groupFrom: number;
  percentSuffix: string;
}

const ENGLISH: Symbols = { group: ',', decimal: '.', groupFrom: 4, percentSuffix: '%' };
const SYMBOLS: Record<string, Symbols> = {
  'en-US': ENGLISH,
  'en-XA': ENGLISH, // the pseudo-locale (lib/pseudo-locale.ts) keeps English numbers
  ja: ENGLISH,
  es: { group: '.', decimal: ',', groupFrom: 5, percentSuffix: '\u00a0%' },
};

export interface DecimalOptions {
  /** Digits after the decimal sign, always shown (Intl's minimum and maximum fraction digits both). */
  decimals: number;
  /** Thousands separators where the locale writes them (Intl's default useGrouping, 'auto'). */
  grouping: boolean;
  /** A ratio shown as a percentage, scaled by 100 in decimal (Intl's style 'percent'). */
  percent?: boolean;
}

/** Adds one to a string of decimal digits ('199' → '200', '99' → '100'). */
function increment(digits: string): string {
  let index = digits.length - 1;
  while (index >= 0 && digits[index] === '9') index -= 1;
  if (index < 0) return `1${'0'.repeat(digits.length)}`;
  return `${digits.slice(0, index)}${Number(digits[index]) + 1}${'0'.repeat(digits.length - index - 1)}`;
}

/**
 * The integer and fraction digits of a non-negative number rounded to `decimals` places, half away from zero on its
 * shortest decimal form (as V8's Intl rounds: 1.005 → '1.01'), after moving the decimal point `shift` places right.
 */
function roundedDigits(magnitude: number, decimals: number, shift: number): [string, string] {
  const [, whole = '0', fraction = '', exponent = '0'] = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(magnitude)) ?? [];
  let digits = whole + fraction;
  let point = whole.length + Number(exponent) + shift;
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  const keep = point + decimals;
  let kept = digits.slice(0, keep).padEnd(keep, '0');
  if ((digits[keep] ?? '0') >= '5') kept = increment(kept);
  const integer = kept.slice(0, kept.length - decimals).replace(/^0+(?=\d)/, '') || '0';
  return [integer, kept.slice(kept.length - decimals)];
}

/** `value` written in the interface's language with the given decimals, as Intl.NumberFormat writes it. */
export function formatDecimal(value: number, { decimals, grouping, percent = false }: DecimalOptions): string {
  const locale = formatLocale();
  const symbols = SYMBOLS[locale];
  if (!symbols || !Number.isFinite(value)) {
    return new Intl.NumberFormat(locale, {
      style: percent ? 'percent' : 'decimal',
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
      ...(grouping ? {} : { useGrouping: false }),
    }).format(value);
  }
  const [digits, fraction] = roundedDigits(Math.abs(value), decimals, percent ? 2 : 0);
  const integer = grouping && digits.length >= symbols.groupFrom ? digits.replace(/\B(?=(\d{3})+$)/g, symbols.group) : digits;
  // Intl keeps the sign of a negative value that rounds to zero ('-0'); the callers decide whether to show it.
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  return `${sign}${integer}${fraction ? symbols.decimal + fraction : ''}${percent ? symbols.percentSuffix : ''}`;
}
