import { createHash } from 'node:crypto';
import { PassThrough, pipeline, Readable, Transform } from 'node:stream';
import { openDataMessages, type OpenDataInfo, type OpenDataRound } from '@cr/contract/open-data';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import yazl from 'yazl';
import type { Db } from '../../db/client';
import { AppError, conflict } from '../../errors';
import { copyCsv } from '../exports/exports.service';
import { eventIdsWithRunFlag, readRunFlags } from '../runs/runs.service';
import { PUBLISHED_AUDIT_ACTIONS, RUN_ACTIONS, TABLES, tableQuery, type Table } from './open-data.tables';
import { rowsOf } from '../../db/rows';

/**
 * Deflate level 1: on a round of 1,000,000 reviews with real notes (1.9 GB of CSV) level 6 took the archive to 282 s
 * and 37 % of the size; level 1 is about four times faster for 41 % (bench open-data; docs/decisions.md).
 */
const COMPRESSION_LEVEL = 1;

/** Rows per page on PGlite (PostgreSQL streams each table with one COPY). */
const PAGE = 5_000;

/** A cell as COPY writes it with FORCE_QUOTE on the text columns: text quoted, numbers and codes bare, null empty. */
function cell(value: unknown, quoted: boolean): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : String(value);
  return quoted ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A table's CSV on PGlite: the same SELECT as the COPY, page by page, written as COPY writes it (CRLF rows). */
function pagedCsv(db: Db, table: Table, eventId: number, upTo: number): Readable {
  const { query } = tableQuery(table, eventId, upTo);
  const quoted = table.columns.map((column) => column.type === 'string');
  async function* chunks() {
    yield `${table.columns.map((column) => column.name).join(',')}\r\n`;
    for (let offset = 0; ; offset += PAGE) {
      const rows = rowsOf<Record<string, unknown>>(await db.execute(sql.raw(`${query} limit ${PAGE} offset ${offset}`)));
      let text = '';
      for (const row of rows) text += `${table.columns.map((column, c) => cell(row[column.name], quoted[c]!)).join(',')}\r\n`;
      if (text) yield text;
      if (rows.length < PAGE) return;
    }
  }
  return Readable.from(chunks(), { objectMode: false });
}

interface Digest {
  path: string;
  sha256: string;
  bytes: number;
}

/**
 * The open data of a finished round (issue 48 item 1; docs/open-data.md): one zip streamed as it is made, never held
 * whole (yazl writes each entry as its stream gives it, with a data descriptor; on PostgreSQL each table is one
 * `COPY … TO STDOUT`, read as the client takes the answer). Public once the event's proposal scores have run; 409
 * before. The entries: README.txt, round.json (the event, its configuration, every run's parameters and statistics
 * as run, the audit head), one CSV per table (open-data.tables.ts), datapackage.json describing them (with each
 * file's SHA-256 and size) and SHA256SUMS over every other file (`sha256sum -c SHA256SUMS` after unzipping). Every
 * entry carries the time of the scores run, so two downloads of an unchanged round are the same bytes.
 */
export function createOpenDataService(deps: {
  db: Db;
  pool?: pg.Pool | undefined;
  events: { get(eventId: number): Promise<unknown> };
  /** Archives built at once by this instance (a full round's takes a minute of the database's time). */
  maxBuilds?: number;
}) {
  const { db, pool, events, maxBuilds = 2 } = deps;
  let building = 0;

  async function eventRow(eventId: number) {
    await events.get(eventId);
    const [row] = rowsOf<{ id: number; name: string; description: string; start_time: string | null; end_time: string | null }>(
      await db.execute(
        sql`select id, name, description, to_char(start_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as start_time,
            to_char(end_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as end_time from events where id = ${eventId}`,
      ),
    );
    return row!;
  }

  async function auditHead(eventId: number) {
    const [head] = rowsOf<{ entry_id: string; hash: string }>(
      await db.execute(sql`select entry_id::text, hash from audit_heads where chain = ${eventId}`),
    );
    return head ? { entry_id: Number(head.entry_id), hash: head.hash } : null;
  }

  async function roundJson(eventId: number, event: Awaited<ReturnType<typeof eventRow>>) {
    const configs = rowsOf<{ kind: string; value: unknown }>(
      await db.execute(sql`select kind, value from configs where event_id = ${eventId} order by kind`),
    );
    const runs = rowsOf<{ entry_id: string; action: string; at: string; after: { params?: unknown; stats?: unknown } | null }>(
      await db.execute(
        sql`select id::text as entry_id, action, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at, after
            from audit_log where event_id = ${eventId} and action in (${sql.join(
              RUN_ACTIONS.map((action) => sql`${action}`),
              sql`, `,
            )}) order by id`,
      ),
    );
    return {
      format: 'community-review-open-data',
      version: 1,
      event,
      configuration: Object.fromEntries(configs.map((config) => [config.kind, config.value])),
      runs: runs.map((run) => ({
        entry_id: Number(run.entry_id),
        action: run.action,
        at: run.at,
        params: run.after?.params ?? null,
        stats: run.after?.stats ?? null,
      })),
      audit: { head: await auditHead(eventId), published_data_actions: [...PUBLISHED_AUDIT_ACTIONS, 'config.*'] },
      rules: {
        review_outcomes:
          'A moderated review is valid when included ÷ moderations ≥ validity_threshold, else excluded_moderation; unmoderated reviews are valid. A reviewer with at least minimum_sample moderated reviews whose valid ÷ moderated is below acceptance_threshold has all reviews excluded_threshold. The rest are included.',
        appeals:
          'An appeal is upheld when more than N/2 of its decisions uphold it (N = decisions_needed) and rejected when at least N/2 reject it; an upheld appeal makes its review included. Undecided appeals close when the scores run.',
        proposal_scores:
          'Per proposal and criterion, over included reviews: the weighted mean with weight allocation_weight(group) ÷ n(group) × level_weight(level), group allocated or not; an empty group leaves the whole weight to the other; no included review, no score. overall is the mean of the three criteria. Rounded to four decimals.',
      },
    };
  }

  function readme(event: { id: number; name: string }) {
    return [
      `Open data of the round "${event.name}" (event ${event.id}), Community Review.`,
      '',
      'Files: round.json (configuration, every run with its parameters as run, the audit head), one CSV per table,',
      'datapackage.json (Frictionless Data: what every column means), SHA256SUMS (check with `sha256sum -c SHA256SUMS`).',
      '',
      'Recompute every review outcome, reviewer outcome and proposal score with the published rules:',
      '',
      '    npx @community-review/verify this-file.zip',
      '',
      'It prints "N/N figures reproduced", or each figure it could not reproduce.',
      'Nobody is named: reviewers and moderators appear by their anonymous ids only.',
      '',
    ].join('\n');
  }

  function dataPackage(event: { id: number; name: string }, digests: readonly Digest[]) {
    const digestOf = (path: string) => digests.find((digest) => digest.path === path);
    return {
      profile: 'tabular-data-package',
      name: `community-review-round-${event.id}`,
      title: `Open data of the round "${event.name}"`,
      licenses: [{ name: 'CC0-1.0', path: 'https://creativecommons.org/publicdomain/zero/1.0/', title: 'CC0 1.0' }],
      resources: [
        {
          name: 'round',
          path: 'round.json',
          format: 'json',
          mediatype: 'application/json',
          description: "The round, its configuration, every run's parameters and statistics as run, and its audit head.",
          hash: `sha256:${digestOf('round.json')?.sha256}`,
          bytes: digestOf('round.json')?.bytes,
        },
        ...TABLES.map((table) => {
          const path = `${table.name}.csv`;
          return {
            profile: 'tabular-data-resource',
            name: table.name,
            path,
            title: table.title,
            description: table.description,
            format: 'csv',
            mediatype: 'text/csv',
            encoding: 'utf-8',
            hash: `sha256:${digestOf(path)?.sha256}`,
            bytes: digestOf(path)?.bytes,
            dialect: { delimiter: ',', lineTerminator: '\r\n', quoteChar: '"', doubleQuote: true, header: true },
            schema: {
              fields: table.columns.map((column) => ({
                name: column.name,
                type: column.type,
                description: column.description,
                ...(column.type === 'boolean' ? { trueValues: ['true'], falseValues: ['false'] } : {}),
                ...(column.required || column.enum
                  ? { constraints: { ...(column.required ? { required: true } : {}), ...(column.enum ? { enum: column.enum } : {}) } }
                  : {}),
              })),
              missingValues: [''],
              ...(table.primaryKey ? { primaryKey: table.primaryKey } : {}),
              ...(table.foreignKeys ? { foreignKeys: table.foreignKeys } : {}),
            },
          };
        }),
      ],
    };
  }

  const fileName = (eventId: number) => `round-${eventId}-open-data.zip`;

  return {
    /** `GET events/open-data/`: the rounds whose proposal scores have run, the newest end first. */
    async rounds(): Promise<OpenDataRound[]> {
      const ids = await eventIdsWithRunFlag(db, 'proposal_scores_generated');
      if (ids.length === 0) return [];
      const rows = rowsOf<{ id: number; name: string; end_time: string | null }>(
        await db.execute(
          sql`select e.id, e.name, to_char(e.end_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as end_time from events e
              where e.id in (${sql.join(
                ids.map((id) => sql`${id}`),
                sql`, `,
              )}) order by e.end_time desc nulls last, e.id desc`,
        ),
      );
      return rows.map((row) => ({ event_id: row.id, event_name: row.name, end_time: row.end_time, file_name: fileName(row.id) }));
    },

    /** `GET events/{id}/open-data/info`: what the round's page shows. */
    async info(eventId: number): Promise<OpenDataInfo> {
      const event = await eventRow(eventId);
      const flags = await readRunFlags(db, eventId);
      return {
        event_id: event.id,
        event_name: event.name,
        available: flags.value.proposal_scores_generated === true,
        file_name: fileName(event.id),
        audit_head: (await auditHead(eventId))?.hash ?? null,
      };
    },

    /** `GET events/{id}/open-data`: the archive as a stream (409 until the scores have run). */
    async archive(eventId: number) {
      const event = await eventRow(eventId);
      const flags = await readRunFlags(db, eventId);
      if (flags.value.proposal_scores_generated !== true) throw conflict(openDataMessages.notYet);
      // A public route: a crowd of downloads must not take every connection of the pool.
      if (building >= maxBuilds) throw new AppError(503, openDataMessages.busy, { 'retry-after': '30' });
      const [scoresRun] = rowsOf<{ ms: number }>(
        await db.execute(
          sql`select floor(extract(epoch from max(created_at)) * 1000)::float8 as ms from audit_log where event_id = ${eventId} and action = 'proposals.scores'`,
        ),
      );
      const mtime = new Date(Number(scoresRun?.ms ?? 0) || Date.UTC(2020, 0, 1));
      const roundContent = await roundJson(eventId, event);
      const round = Buffer.from(`${JSON.stringify(roundContent, null, 2)}\n`);
      const upTo = roundContent.audit.head?.entry_id ?? 0;

      building += 1;
      const zip = new yazl.ZipFile();
      const output = new PassThrough();
      const fail = (error: Error) => output.destroy(error);
      zip.on('error', fail);
      zip.outputStream.on('error', fail);
      zip.outputStream.pipe(output);
      const digests: Digest[] = [];
      let reading: Readable | null = null;

      const add = (path: string, open: () => Promise<Readable> | Readable) =>
        zip.addReadStreamLazy(path, { mtime, compressionLevel: COMPRESSION_LEVEL }, (callback) => {
          Promise.resolve()
            .then(open)
            .then((source) => {
              const hash = createHash('sha256');
              let bytes = 0;
              const counted = new Transform({
                transform(chunk: Buffer, _encoding, done) {
                  hash.update(chunk);
                  bytes += chunk.length;
                  done(null, chunk);
                },
                flush(done) {
                  digests.push({ path, sha256: hash.digest('hex'), bytes });
                  done();
                },
              });
              reading = source;
              pipeline(source, counted, (error) => {
                if (error) fail(error);
              });
              callback(null, counted);
            })
            .catch((error: Error) => {
              callback(error, null as unknown as Readable);
            });
        });
      const buffer = (content: Buffer | string) => Readable.from([Buffer.from(content)]);

      add('README.txt', () => buffer(readme(event)));
      add('round.json', () => buffer(round));
      for (const table of TABLES)
        add(`${table.name}.csv`, () => (pool ? copyCsv(pool, tableQuery(table, eventId, upTo)) : pagedCsv(db, table, eventId, upTo)));
      add('datapackage.json', () => buffer(`${JSON.stringify(dataPackage(event, digests), null, 2)}\n`));
      // Last: the digests of every file before it (the manifest cannot hold its own).
      zip.addReadStreamLazy('SHA256SUMS', { mtime, compressionLevel: COMPRESSION_LEVEL }, (callback) =>
        callback(null, buffer(digests.map((digest) => `${digest.sha256}  ${digest.path}\n`).join(''))),
      );
      zip.end();
      output.on('close', () => {
        building -= 1;
        // The client went away: stop reading (a COPY in progress ends, and its connection is closed, when its stream is
        // destroyed: csv-copy.ts).
        if (output.readableEnded) return;
        zip.outputStream.unpipe(output);
        reading?.destroy();
      });
      return { filename: `attachment; filename="${fileName(event.id)}"`, stream: output };
    },
  };
}
export type OpenDataService = ReturnType<typeof createOpenDataService>;
