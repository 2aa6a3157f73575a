/** The Overview's chart data, pure (issue 15 item 5). */

export interface DayCount {
  day: string;
  count: number;
}

const DAY_MS = 86_400_000;
/** The UTC day (YYYY-MM-DD) of a date-time, as the server counts reviews per day. */
export const utcDay = (value: string) => new Date(value).toISOString().slice(0, 10);
const dayNumber = (day: string) => Math.floor(Date.parse(`${day}T00:00:00Z`) / DAY_MS);
const dayOf = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

/**
 * Every day from the first to the last of the reviews' days and the review window's ends (a day without reviews
 * counts 0), so that the bars stand on a true time axis and the window can be drawn on it. A range longer than
 * `maxDays` keeps to the reviews' days; when those alone are too many, the days with reviews only.
 */
export function dailySeries(days: readonly DayCount[], window: { starts_at: string | null; ends_at: string | null }, maxDays = 120) {
  const counts = new Map(days.map((item) => [item.day, item.count]));
  const reviewDays = days.map((item) => dayNumber(item.day));
  const windowDays = [window.starts_at, window.ends_at].flatMap((value) => (value ? [dayNumber(utcDay(value))] : []));
  const fill = (from: number, to: number): DayCount[] =>
    Array.from({ length: to - from + 1 }, (_, i) => ({ day: dayOf(from + i), count: counts.get(dayOf(from + i)) ?? 0 }));
  const all = [...reviewDays, ...windowDays];
  if (all.length === 0) return [];
  const first = Math.min(...all);
  const last = Math.max(...all);
  if (last - first < maxDays) return fill(first, last);
  if (reviewDays.length > 0 && reviewDays.at(-1)! - reviewDays[0]! < maxDays) return fill(reviewDays[0]!, reviewDays.at(-1)!);
  return [...days];
}

/** A share as a whole percentage, 0 when there is nothing to share. */
export const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 100));
