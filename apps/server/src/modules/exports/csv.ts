import { Readable, Transform } from 'node:stream';

/** A cell a spreadsheet would read as a formula (=, +, -, @, tab, carriage return first). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * Neutralises formula injection (OWASP "CSV Injection"): a text cell that a spreadsheet would evaluate gets a
 * leading apostrophe. Numbers and booleans are left alone (a negative number stays a number).
 */
export function neutralise(value: unknown): unknown {
  return typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : value;
}

/** One RFC 4180 cell: quoted (quotes doubled) when it holds a comma, a quote or a line break; null is empty. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  const text = value instanceof Date ? String(value.getTime()) : typeof value === 'string' ? value : JSON.stringify(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows per chunk of text: chunks of some tens of kB stay young garbage, where whole pages would pile up. */
const ROWS_PER_CHUNK = 50;

/**
 * An RFC 4180 CSV stream (header row, CRLF, quoting of commas, quotes and newlines) of the rows the pages yield, as
 * chunks of text of ROWS_PER_CHUNK rows; the next chunk is made only once the client has taken the last one
 * (back-pressure), so one page is in memory at a time and memory stays flat whatever the export's size.
 */
export function csvStream<Row extends Record<string, unknown>>(columns: readonly (keyof Row & string)[], pages: AsyncIterable<Row[]>) {
  async function* chunks() {
    yield `${columns.map(cell).join(',')}\r\n`;
    for await (const page of pages) {
      for (let start = 0; start < page.length; start += ROWS_PER_CHUNK) {
        let text = '';
        for (const row of page.slice(start, start + ROWS_PER_CHUNK)) {
          let line = '';
          for (let c = 0; c < columns.length; c += 1) line += (c === 0 ? '' : ',') + cell(neutralise(row[columns[c]!]));
          text += `${line}\r\n`;
        }
        yield text;
      }
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

const QUOTE = 0x22;
const LF = 0x0a;
const CRLF = Buffer.from('\r\n');

/**
 * PostgreSQL's CSV (`COPY … TO STDOUT WITH (FORMAT csv)`) ends each row with LF; this turns those row ends into CRLF
 * (RFC 4180, as csvStream writes them), leaving a line break inside a quoted cell as it is. A cell's quotes come in
 * pairs (an opening, a closing, and doubled ones inside), so a LF is a row end exactly when an even number of quotes
 * precede it: one pass with indexOf, the state carried from chunk to chunk.
 */
export function crlfRows() {
  let quoted = false;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const parts: Buffer[] = [];
      let start = 0;
      let quote = chunk.indexOf(QUOTE);
      let newline = chunk.indexOf(LF);
      while (newline !== -1) {
        if (quote !== -1 && quote < newline) {
          quoted = !quoted;
          quote = chunk.indexOf(QUOTE, quote + 1);
          continue;
        }
        if (!quoted) {
          parts.push(chunk.subarray(start, newline), CRLF);
          start = newline + 1;
        }
        newline = chunk.indexOf(LF, newline + 1);
      }
      for (; quote !== -1; quote = chunk.indexOf(QUOTE, quote + 1)) quoted = !quoted;
      if (start === 0) return done(null, chunk);
      parts.push(chunk.subarray(start));
      done(null, Buffer.concat(parts));
    },
  });
}

/**
 * A text column as csvStream writes it, in SQL for COPY: formula cells neutralised as `neutralise` does (a leading
 * apostrophe before =, +, -, @, tab or carriage return) and an empty text as an empty cell (COPY would write `""`, to
 * tell it from NULL; csvStream writes both as nothing).
 */
export const csvText = (column: string) =>
  `nullif(case when left(${column}, 1) in ('=', '+', '-', '@', chr(9), chr(13)) then '''' || ${column} else ${column} end, '')`;

/** `attachment; filename="<what>-event-<id>-<yyyy-mm-dd>.csv"`: the event and the date in the file name. */
export function attachment(what: string, eventId: number | null, now = new Date()) {
  const date = now.toISOString().slice(0, 10);
  return `attachment; filename="${what}${eventId === null ? '' : `-event-${eventId}`}-${date}.csv"`;
}
