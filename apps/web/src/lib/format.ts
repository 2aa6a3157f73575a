import dayjs from 'dayjs';
export { displayCatalystId } from '@cr/contract/rules';

const LOCALE = 'en-US';

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

/** Month only, e.g. 'March 2025'. */
export function formatMonth(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = dayjs(value);
  return date.isValid() ? date.format('MMMM YYYY') : '';
}

const ada = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });
/** ADA amounts without decimals: '₳ 1,234,568'. */
export function formatAda(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '';
  return `₳ ${ada.format(Math.round(value))}`;
}

/** Scores to 2 decimals. */
export function formatScore(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '';
  return value.toFixed(2);
}

/** A ratio 0..1 as a percentage with the given decimals ('87.50%'). */
export function formatPercent(ratio: number | null | undefined, decimals = 2): string {
  if (ratio === null || ratio === undefined || Number.isNaN(ratio)) return '';
  return `${(ratio * 100).toFixed(decimals)}%`;
}

/** The part of a proposal id before the first hyphen (spec §9). */
export function shortProposalId(id: string | null | undefined): string {
  if (!id) return '';
  return id.split('-')[0] ?? id;
}
