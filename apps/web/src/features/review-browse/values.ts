const LOCALE = 'en-US';

const oneDecimal = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false });

/** A displayed rating: rounded to one decimal (spec §5, E-024). */
export function formatRating(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '';
  return oneDecimal.format(value);
}
