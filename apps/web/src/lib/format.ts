import dayjs from 'dayjs';
import { formatDecimal } from './decimal-format';
import { formatLocale, perLocale } from './locale';
export { displayCatalystId } from '@cr/contract/plain';

// Numbers, amounts and months read as the interface's language writes them (lib/locale.ts, issue 31); dates keep the
// spec's year-month-day order in every language.

/** Short date: year, month, day (spec §9). */
export function formatDateShort(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = dayjs(value);
  return date.isValid() ? date.format('YYYY-MM-DD') : '';
}

/** Long date: with hour and minute. */
export function formatDateLong(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = dayjs(value);
  return date.isValid() ? date.format('YYYY-MM-DD HH:mm') : '';
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
  if (value === null || value === undefined || value === '') return '';
  const date = dayjs(value);
  return date.isValid() ? month().format(date.toDate()) : '';
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
