/**
 * The date-time fields' text (issue 26 item 13): what an admin types or pastes, `YYYY-MM-DD HH:mm` (the app's one
 * date-time format, ISO order, 24-hour clock), and the form value the fields keep, a local `YYYY-MM-DDTHH:mm` ('' for
 * none). A text that is neither stays in the form as typed, so that the form's schema refuses it and the field says so.
 */

/** The one date-time format of the app's inputs, as its tables show dates. */
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm';

const TYPED = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})$/;

/** A typed or pasted date-time as the form's `YYYY-MM-DDTHH:mm`; '' when blank; null when it is not a real one. */
export function parseDateTimeText(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  const match = TYPED.exec(trimmed);
  if (!match) return null;
  const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number];
  // Day 0 of the next month is the last day of this one (UTC: no daylight-saving gap can shift it).
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59) return null;
  return `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}`;
}

/** Whether a form value is a real local date-time (`YYYY-MM-DDTHH:mm`), not text left as typed. */
export function isLocalDateTime(value: string): boolean {
  return value.includes('T') && parseDateTimeText(value) === value;
}

/** The text a field shows for its form value: the date-time in {@link DATE_TIME_FORMAT}, or what was typed. */
export function toDateTimeText(value: unknown): string {
  if (typeof value !== 'string') return '';
  return isLocalDateTime(value) ? value.replace('T', ' ') : value;
}

/** The text typed into a field as its form value: the parsed date-time, '' when blank, else the text as typed. */
export function fromDateTimeText(text: string): string {
  return parseDateTimeText(text) ?? text;
}
