import { formatDecimal } from './decimal-format';
import { formatLocale, perLocale } from './locale';
export { displayCatalystId } from '@cr/contract/plain';

// Numbers, amounts and months read as the interface's language writes them (lib/locale.ts, issue 31); dates keep the
// spec's year-month-day order in every language.

/** A date-time written without a zone ('2025-03-07', '2025-03-07T09:05:00'): local time, as a person means it. */
const ZONELESS = /^(\d{4})-(\d{1,2})(?:-(\d{1,2}))?(?:[T ](\d{1,2}):(\d{1,2})(?::(\d{1,2})(?:\.(\d{1,3})\d*)?)?)?$/;

/** The date a value names, or null: zoneless text as local time (`Date` would read a date alone as UTC). */
function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  let date: Date;
  const parts = typeof value === 'string' ? ZONELESS.exec(value) : null;
  if (parts) {
    const [year, month, day = 1, hour = 0, minute = 0, second = 0, ms = '0'] = parts
      .slice(1)
      .map((part, index) => (part === undefined ? undefined : index === 6 ? part.padEnd(3, '0') : part)) as [
      string,
      string,
      string?,
      string?,
      string?,
      string?,
      string?,
    ];
    date = new Date(+year, +month - 1, +day, +hour, +minute, +second, +ms);
  } else date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

const two = (n: number) => String(n).padStart(2, '0');
const ymd = (date: Date) => `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;

/** Short date: year, month, day (spec §9). */
export function formatDateShort(value: string | number | Date | null | undefined): string {
  const date = toDate(value);
  return date ? ymd(date) : '';
}

/** Long date: with hour and minute. */
export function formatDateLong(value: string | number | Date | null | undefined): string {
  const date = toDate(value);
  return date ? `${ymd(date)} ${two(date.getHours())}:${two(date.getMinutes())}` : '';
}

const durationUnits = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
] as const;

/** A duration in its largest whole unit: '45 seconds', '3 minutes', '2 hours', '1 day'. */
export function formatDuration(seconds: number): string {
  const [unit, size] = durationUnits.find(([, length]) => seconds >= length) ?? durationUnits[3];
  return new Intl.NumberFormat(formatLocale(), { style: 'unit', unit, unitDisplay: 'long' }).format(Math.floor(seconds / size));
}

const month = perLocale((locale) => new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric' }));
/** Month only, e.g. 'March 2025' ('marzo de 2025', '2025年3月'). */
export function formatMonth(value: string | number | Date | null | undefined): string {
  const date = toDate(value);
  return date ? month().format(date) : '';
}

/** Drops the minus of a number that rounds to zero ('-0', '-0.00%', '-0,00 %' → '0', '0.00%', '0,00 %'). */
function withoutNegativeZero(text: string): string {
  return text.replace(/^-(?=[0.,]+(\u00a0?%)?$)/, '');
}

// Rounded half away from zero on the shortest decimal form (1.005 → '1.01', -2.5 → '-3'), as Intl rounds, unlike
// toFixed and Math.round, which round the binary value ('1.00') or towards +∞ ('-2'); written without Intl's first-use
// cost (lib/decimal-format.ts).

/** ADA amounts without decimals: '₳ 1,234,568'. */
export function formatAda(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '';
  return `₳ ${withoutNegativeZero(formatDecimal(value, { decimals: 0, grouping: true }))}`;
}

/** Scores to 2 decimals. */
export function formatScore(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '';
  return withoutNegativeZero(formatDecimal(value, { decimals: 2, grouping: false }));
}

/** A displayed rating, everywhere in the app: always one decimal, '4.0', '3.7' (spec §5, E-024). Stars show whole numbers. */
export function formatRating(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '';
  return formatDecimal(value, { decimals: 1, grouping: false });
}

/** A ratio 0..1 as a percentage with the given decimals ('87.50%'). */
export function formatPercent(ratio: number | null | undefined, decimals = 2): string {
  if (ratio === null || ratio === undefined || Number.isNaN(ratio)) return '';
  // Scaled by 100 in decimal, so 0.145 is 14.5 % (ratio * 100 would give 14.499999999999998).
  return withoutNegativeZero(formatDecimal(ratio, { decimals, grouping: false, percent: true }));
}

/** The part of a proposal id before the first hyphen (spec §9). */
export function shortProposalId(id: string | null | undefined): string {
  if (!id) return '';
  return id.split('-')[0] ?? id;
}
