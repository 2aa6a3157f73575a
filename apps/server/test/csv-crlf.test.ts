import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { crlfRows } from '../src/modules/exports/csv';

const through = async (chunks: string[]) => {
  const out: Buffer[] = [];
  for await (const chunk of Readable.from(chunks.map((text) => Buffer.from(text))).pipe(crlfRows())) out.push(chunk as Buffer);
  return Buffer.concat(out).toString('utf8');
};

/**
 * G-026 (the CSV exports on PostgreSQL): COPY ends rows with LF; crlfRows makes those CRLF and leaves a line break
 * inside a quoted cell as it is, whatever the chunk boundaries (a quote or a row end at the edge of a chunk).
 */
describe('crlfRows', () => {
  const copy = 'a,b\n"x\ny","say ""hi"""\n"""",\n,"\r\n"\nplain,"a,b"\n';
  const expected = 'a,b\r\n"x\ny","say ""hi"""\r\n"""",\r\n,"\r\n"\r\nplain,"a,b"\r\n';

  it('turns row ends into CRLF and keeps quoted line breaks, in one chunk', async () => {
    expect(await through([copy])).toBe(expected);
  });

  it('gives the same bytes split at any point into two or three chunks', async () => {
    for (let i = 0; i <= copy.length; i += 1) {
      expect(await through([copy.slice(0, i), copy.slice(i)])).toBe(expected);
      for (let j = i; j <= copy.length; j += 3) expect(await through([copy.slice(0, i), copy.slice(i, j), copy.slice(j)])).toBe(expected);
    }
  });

  it('passes a chunk without a row end through unchanged', async () => {
    expect(await through(['"open', ' cell\nstill', ' open"\n'])).toBe('"open cell\nstill open"\r\n');
  });
});
