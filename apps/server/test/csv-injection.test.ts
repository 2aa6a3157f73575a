import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { seedScale } from '../src/scale-seed';
import { API, databaseKinds, useTestApp } from './build-test-app';

/**
 * Issue 26 item 4, G-025..G-027: CSV formula injection through a delimiter other than the comma. Only a cell's first
 * character was neutralised and a cell was quoted only when it held a comma, a quote or a line break, so a note
 * `…;=HYPERLINK(…)` opened in a spreadsheet splitting on `;` (a common European default) gave a live formula. Every
 * export is read here as a spreadsheet reads it, split on `,`, `;`, tab and `|`: no cell may begin with a formula.
 * On PGlite the pages are written in JavaScript (csvStream), on PostgreSQL by COPY (csvText, FORCE_QUOTE).
 */

/** Texts that start a formula somewhere once a reader splits on another character than the comma. */
const ATTACKS = [
  'See the budget;=HYPERLINK("http://evil.test","click")',
  'a,=1+1 after a comma',
  'a tab\t@SUM(A1)',
  'a pipe|-2+3',
  'a line\n=cmd|" /C calc"!A0',
  'a CRLF\r\n+1+1',
  'a quote"=1+1',
  'quoted;"=1+1"',
  'twice;;=1;\t=2',
  '=at the start',
  'ends with a semicolon;',
  'a wink ;-)',
];

/** A cell a spreadsheet evaluates: =, +, - or @ first (tab and CR first too when the file is split on commas). */
const FORMULA = /^[=+\-@]/;
const FORMULA_OR_CONTROL = /^[=+\-@\t\r]/;

/**
 * How a spreadsheet reads CSV text split on `delimiter`: a quote is special only at the start of a cell (then up to
 * the closing quote, doubled quotes inside), anything after it is kept as it comes; CR, LF or CRLF end a row.
 */
function spreadsheetCells(text: string, delimiter: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let started = false;
  let quoted = false;
  const end = () => {
    cells.push(cell);
    cell = '';
    started = false;
  };
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"' && !started) {
      quoted = true;
      started = true;
    } else if (char === delimiter) end();
    else if (char === '\r' || char === '\n') {
      if (char === '\r' && text[i + 1] === '\n') i += 1;
      end();
    } else {
      cell += char;
      started = true;
    }
  }
  if (started || cell !== '') end();
  return cells;
}

describe.each(databaseKinds)('CSV exports stay inert whatever delimiter a spreadsheet splits on (%s)', (kind) => {
  const ctx = useTestApp(kind);

  it('quotes every text cell and neutralises a formula after , ; tab | a line break or a quote (issue 26 item 4)', async () => {
    const seed = await seedScale(ctx.database.db, {
      proposals: 4,
      reviewers: 4,
      categories: 1,
      reviewsPerReviewer: 3,
      moderators: 2,
      moderationAllocations: 12,
      moderations: 12,
      authorShare: 0,
    });
    const at = (i: number) => ATTACKS[i % ATTACKS.length]!;
    const db = ctx.database.db;
    const rowsOf = (result: unknown) => ((result as { rows?: { id: number }[] }).rows ?? (result as { id: number }[])).map((r) => r.id);
    const reviewIds = rowsOf(await db.execute(sql`select id from reviews where event_id = ${seed.eventId} order by id`));
    for (const [i, id] of reviewIds.entries())
      await db.execute(
        sql`update reviews set impact_alignment_note = ${at(i)}, feasibility_note = ${at(i + 1)}, auditability_note = ${at(i + 2)} where id = ${id}`,
      );
    const moderationIds = rowsOf(await db.execute(sql`select id from moderations where event_id = ${seed.eventId} order by id`));
    for (const [i, id] of moderationIds.entries())
      await db.execute(sql`update moderations set rationale = ${at(i)}, predefined_reason = ${at(i + 3)} where id = ${id}`);
    await db.execute(sql`update subscriptions set public_contact = ${ATTACKS[0]} where event_id = ${seed.eventId}`);
    await db.execute(sql`update proposals set title = ${ATTACKS[4]}, pr_id = ${ATTACKS[1]} || id where event_id = ${seed.eventId}`);

    const admin = await ctx.newAdmin();
    const exports = [
      `proposal-reviews/export/full-csv/${seed.eventId}`,
      `proposal-reviews/export/csv/${seed.eventId}/`,
      `moderations/export/csv?event_id=${seed.eventId}`,
      `moderations/moderator-stats/?event_id=${seed.eventId}`,
    ];
    for (const url of exports) {
      const response = await ctx.app.inject({ method: 'GET', url: `${API}/${url}`, headers: admin.auth });
      expect(response.statusCode, url).toBe(200);
      for (const delimiter of [',', ';', '\t', '|']) {
        const evaluated = spreadsheetCells(response.body, delimiter).filter((cell) =>
          (delimiter === ',' ? FORMULA_OR_CONTROL : FORMULA).test(cell),
        );
        expect(evaluated, `${url} split on ${JSON.stringify(delimiter)}`).toEqual([]);
      }
    }

    // Split on commas, as written: every text cell quoted, each attack back whole behind its apostrophes.
    const full = await ctx.app.inject({ method: 'GET', url: `${API}/${exports[0]}`, headers: admin.auth });
    const [header, first] = full.body.split('\r\n');
    expect(header).toBe(
      'valid,row_id,user_id,moderations_tot,moderations_as_valid,proposal_id,pr_id,proposal_title,assessor,assessor_level,ranking,' +
        'impact_alignment_rating_given,impact_alignment_note,feasibility_rating_given,feasibility_note,auditability_rating_given,auditability_note',
    );
    expect(first).toMatch(/^(true|false),\d+,\d+,\d+,\d+,\d+,"a,'=1\+1 after a comma\d+","a line\n'=cmd/);
    const cells = spreadsheetCells(full.body, ',');
    expect(cells).toContain(`See the budget;'=HYPERLINK("http://evil.test","click")`);
    expect(cells).toContain(`a line\n'=cmd|" /C calc"!A0`);
    expect(cells).toContain(`twice;;'=1;'\t'=2`);
    expect(cells).toContain(`'=at the start`);
    expect(cells).toContain(`a quote"'=1+1`);
  });
});
