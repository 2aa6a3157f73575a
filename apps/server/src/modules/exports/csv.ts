import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';

/** A cell a spreadsheet would read as a formula (=, +, -, @, tab, carriage return first). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Neutralises formula injection (OWASP "CSV Injection"): a text cell that a spreadsheet would evaluate gets a
 * leading apostrophe. Numbers and booleans are left alone (a negative number stays a number).
 */
export function neutralise(value: unknown): unknown {
  return typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : value;
}

/**
 * An RFC 4180 CSV stream (header row, CRLF, quoting of commas, quotes and newlines) of the rows the pages yield:
 * one page is in memory at a time, so memory stays flat whatever the export's size.
 */
export function csvStream<Row extends Record<string, unknown>>(columns: readonly (keyof Row & string)[], pages: AsyncIterable<Row[]>) {
  async function* rows() {
    for await (const page of pages) for (const row of page) yield columns.map((column) => neutralise(row[column]));
  }
  const csv = stringify({
    header: true,
    columns: [...columns],
    record_delimiter: 'windows',
    cast: { boolean: (value) => (value ? 'true' : 'false') },
  });
  return Readable.from(rows()).pipe(csv);
}

/** `attachment; filename="<what>-event-<id>-<yyyy-mm-dd>.csv"`: the event and the date in the file name. */
export function attachment(what: string, eventId: number | null, now = new Date()) {
  const date = now.toISOString().slice(0, 10);
  return `attachment; filename="${what}${eventId === null ? '' : `-event-${eventId}`}-${date}.csv"`;
}
