import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

/**
 * An RFC 4180 CSV reader over a stream of bytes (UTF-8): calls `onRow` with each row's cells (the header row first),
 * as text, quoted cells unquoted. Quoted cells may hold commas, quotes (doubled) and line breaks; rows end with CRLF
 * or LF. It jumps from quote to quote and from separator to separator (indexOf), so long notes cost little. Answers
 * the SHA-256 (hex) and size of the bytes read.
 */
export async function readCsv(stream: Readable, onRow: (cells: string[]) => void): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  const decoder = new StringDecoder('utf8');
  let bytes = 0;
  let text = '';

  /** Parses the complete rows of `text`; answers where the first incomplete one starts. */
  function parse(final: boolean): number {
    let pos = 0;
    const length = text.length;
    for (;;) {
      if (pos >= length) return pos;
      const rowStart = pos;
      const cells: string[] = [];
      let complete = false;
      for (;;) {
        if (pos < length && text.charCodeAt(pos) === 34) {
          // A quoted cell: up to the quote not followed by another.
          let value = '';
          let from = pos + 1;
          for (;;) {
            const quote = text.indexOf('"', from);
            if (quote < 0) return final ? fail(rowStart) : rowStart;
            if (quote + 1 < length && text.charCodeAt(quote + 1) === 34) {
              value += text.slice(from, quote + 1);
              from = quote + 2;
              continue;
            }
            if (quote + 1 >= length && !final) return rowStart;
            value += text.slice(from, quote);
            pos = quote + 1;
            break;
          }
          cells.push(value);
        } else {
          let comma = text.indexOf(',', pos);
          let newline = text.indexOf('\n', pos);
          if (newline < 0 && !final) return rowStart;
          if (newline < 0) newline = length;
          if (comma < 0 || comma > newline) comma = -1;
          const end = comma >= 0 ? comma : newline > pos && text.charCodeAt(newline - 1) === 13 ? newline - 1 : newline;
          cells.push(text.slice(pos, end));
          pos = end;
        }
        // After a cell: a comma (another cell), a row end, or the end of the text.
        const code = pos < length ? text.charCodeAt(pos) : -1;
        if (code === 44) {
          pos += 1;
          continue;
        }
        if (code === 13 && pos + 1 < length && text.charCodeAt(pos + 1) === 10) {
          pos += 2;
          complete = true;
        } else if (code === 10) {
          pos += 1;
          complete = true;
        } else if (code === -1) {
          if (!final) return rowStart;
          complete = true;
        } else if (code === 13 && !final) return rowStart;
        else return fail(pos);
        break;
      }
      if (complete) onRow(cells);
    }
  }
  function fail(at: number): never {
    throw new Error(`Malformed CSV near: ${JSON.stringify(text.slice(at, at + 60))}`);
  }

  for await (const chunk of stream as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
    text += decoder.write(chunk);
    const consumed = parse(false);
    text = text.slice(consumed);
  }
  text += decoder.end();
  if (text.length > 0) parse(true);
  return { sha256: hash.digest('hex'), bytes };
}
