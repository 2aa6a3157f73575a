import { Readable, Transform } from 'node:stream';

/**
 * Where a spreadsheet could start a formula (OWASP "CSV Injection"): a formula character (=, +, -, @, tab, carriage
 * return) at the start of a text, or right after a character where a spreadsheet may start a new cell (issue 26
 * item 4). Quoting keeps a cell whole only for a reader that splits on commas; one set to split on `;` (a common
 * European default), tab or `|` starts a cell after that character inside a note, and a line break or a quote there
 * can end a row or a quoted part early. The same two patterns for both writers: JavaScript's here, PostgreSQL's in
 * csvText (a lookbehind would make it one pattern, but PostgreSQL runs one about ten times slower).
 */
const FORMULA_CHARACTERS = String.raw`=+@\t\r-`;
const CELL_STARTS = String.raw`,;\t|\r\n"`;
const FORMULA_FIRST = new RegExp(`^[${FORMULA_CHARACTERS}]`);
/** A cell start followed by a formula character: the apostrophe goes between them (`$1'`). */
const FORMULA_AFTER = String.raw`([${CELL_STARTS}])(?=[${FORMULA_CHARACTERS}])`;
const formulaAfter = new RegExp(FORMULA_AFTER, 'g');

/**
 * Neutralises formula injection: an apostrophe before each formula start, so that no cell a spreadsheet cuts out of
 * the text begins with a formula. Numbers and booleans are left alone (a negative number stays a number).
 */
export function neutralise(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return (FORMULA_FIRST.test(value) ? `'${value}` : value).replace(formulaAfter, "$1'");
}

/**
 * One RFC 4180 cell: every text quoted (quotes doubled), as PostgreSQL's FORCE_QUOTE writes the text columns (docs/features.md,
 * the exports: "every text cell quoted"); numbers and booleans bare; null and the empty text empty.
 */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  const text = value instanceof Date ? String(value.getTime()) : typeof value === 'string' ? value : JSON.stringify(value);
  return text === '' ? '' : `"${text.replace(/"/g, '""')}"`;
}

/** Rows per chunk of text: chunks of some tens of kB stay young garbage, where whole pages would pile up. */
const ROWS_PER_CHUNK = 50;

/**
 * An RFC 4180 CSV stream (header row, CRLF, every text quoted) of the rows the pages yield, as
 * chunks of text of ROWS_PER_CHUNK rows; the next chunk is made only once the client has taken the last one
 * (back-pressure), so one page is in memory at a time and memory stays flat whatever the export's size.
 */
export function csvStream<Row extends Record<string, unknown>>(columns: readonly (keyof Row & string)[], pages: AsyncIterable<Row[]>) {
  async function* chunks() {
    // The header as COPY's HEADER writes it: the column names (identifiers), bare.
    yield `${columns.join(',')}\r\n`;
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

/** A text as a PostgreSQL escape string literal, read alike whatever `standard_conforming_strings` says. */
const sqlLiteral = (text: string) => `E'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;

/**
 * A text column as csvStream writes it, in SQL for COPY: formula starts neutralised as `neutralise` does (the same
 * patterns, which PostgreSQL's regular expressions read alike) and an empty text as an empty cell (COPY would write
 * `""`, to tell it from NULL; csvStream writes both as nothing). Its column goes in the COPY's FORCE_QUOTE list.
 */
export const csvText = (column: string) => {
  const first = `case when ${column} ~ ${sqlLiteral(FORMULA_FIRST.source)} then '''' || ${column} else ${column} end`;
  // A replacement with a group costs PostgreSQL several times a plain match, even where nothing matches: only the
  // texts that hold a formula after a cell start go through it (most notes don't).
  const after = `[${CELL_STARTS}][${FORMULA_CHARACTERS}]`;
  const replaced = `regexp_replace(${first}, ${sqlLiteral(FORMULA_AFTER)}, ${sqlLiteral(String.raw`\1'`)}, 'g')`;
  return `nullif(case when ${column} ~ ${sqlLiteral(after)} then ${replaced} else ${first} end, '')`;
};

/** `attachment; filename="<what>-event-<id>-<yyyy-mm-dd>.csv"`: the event and the date in the file name. */
export function attachment(what: string, eventId: number | null, now = new Date()) {
  const date = now.toISOString().slice(0, 10);
  return `attachment; filename="${what}${eventId === null ? '' : `-event-${eventId}`}-${date}.csv"`;
}
