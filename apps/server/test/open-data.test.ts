import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { ReviewerLevel } from '@cr/contract/subscriptions';
import { PERSONAL_COLUMNS as PERSONAL_REGISTRY } from '../src/db/personal-columns';
import { appealAllocations, moderationAllocations, moderations } from '../src/db/schema/index';
import { createOpenDataService } from '../src/modules/open-data/open-data.service';
import { verifyArchive } from '../../../packages/verify/src/verify';
import { openZipEntry, readZipDirectory } from '../../../packages/verify/src/zip';
import { API, databaseKinds, useTestApp } from './build-test-app';
import type { TestUser } from './fixtures';
import type { TestEvent, TestProposal, TestReviewer } from './world-fixtures';

// Issue 48 items 1 and 2: a planted round's open data, checked by the verifier (packages/verify) against the server's
// real runs; one changed rating or classification is named exactly; nothing personal is in the archive.

const rowsOf = <Row>(result: unknown): Row[] => (Array.isArray(result) ? (result as Row[]) : ((result as { rows?: Row[] }).rows ?? []));

/**
 * The schema's personal columns: those the accounts registry (db/personal-columns.ts) erases or tombstones when a
 * person closes their account, and the proposers' names and keys (public with a proposal, not part of its reviews).
 */
const PERSONAL_COLUMNS: Record<string, string[]> = {};
for (const { table, column } of [
  ...PERSONAL_REGISTRY.filter(({ rule }) => rule === 'erased' || rule === 'tombstoned'),
  { table: 'proposals', column: 'proposer_name' },
  { table: 'proposal_authors', column: 'catalyst_key' },
])
  (PERSONAL_COLUMNS[table] ??= []).push(column);
/** Column names that some table also holds for what is not personal (a status, a time): no sign in a header. */
const GENERIC_NAMES = new Set(
  PERSONAL_REGISTRY.filter(({ rule }) => rule === 'not-personal' || rule === 'kept-anonymous').map(({ column }) => column),
);

async function files(path: string) {
  const out = new Map<string, string>();
  for (const entry of await readZipDirectory(path)) {
    const chunks: Buffer[] = [];
    for await (const chunk of (await openZipEntry(path, entry)) as AsyncIterable<Buffer>) chunks.push(chunk);
    out.set(entry.name, Buffer.concat(chunks).toString('utf8'));
  }
  return out;
}

/** A copy of the archive with one file's text changed (SHA256SUMS left as it was). */
async function changed(path: string, name: string, change: (text: string) => string) {
  const zip = new yazl.ZipFile();
  for (const [file, text] of await files(path)) {
    const next = file === name ? change(text) : text;
    if (file === name) expect(next).not.toBe(text);
    zip.addBuffer(Buffer.from(next), file);
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk as Buffer);
  const copy = `${path}.${name}.zip`;
  writeFileSync(copy, Buffer.concat(chunks));
  return copy;
}

/** A CSV row by its first cell: the cells split (the tables changed here have no comma inside their first cells). */
function editRow(text: string, first: string, edit: (cells: string[]) => void) {
  const lines = text.split('\r\n');
  const header = lines[0]!.split(',');
  const index = lines.findIndex((line) => line.startsWith(`${first},`));
  expect(index).toBeGreaterThan(0);
  const cells = lines[index]!.split(',');
  edit(cells);
  lines[index] = cells.join(',');
  return { text: lines.join('\r\n'), header };
}

describe.each(databaseKinds)('open data of a planted round on %s', (kind) => {
  const ctx = useTestApp(kind);
  const dir = mkdtempSync(join(tmpdir(), 'open-data-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, user?: TestUser, payload?: object) =>
    ctx.app.inject({ method, url: `${API}/${url}`, headers: user ? user.auth : {}, ...(payload ? { payload } : {}) });

  let event: TestEvent;
  let p: TestProposal[];
  let a: TestReviewer, b: TestReviewer, c: TestReviewer, d: TestReviewer;
  let m1: TestReviewer, m2: TestReviewer, fresh: TestReviewer;
  const review: Record<string, number> = {};
  let archive: string;

  const moderate = async (reviewId: number, moderator: TestReviewer, classification: 0 | 1) => {
    const values = { eventId: event.id, reviewId, subscriptionId: moderator.subscription.row_id };
    await ctx.db.insert(moderationAllocations).values(values);
    await ctx.db
      .insert(moderations)
      .values({ ...values, classification, rationale: 'Planted.', predefinedReason: classification ? 'valid' : 'other' });
  };
  const ratings = (impact: number, feasibility: number, auditability: number) => ({
    impact_alignment_rating_given: impact,
    feasibility_rating_given: feasibility,
    auditability_rating_given: auditability,
  });

  beforeAll(async () => {
    event = await ctx.newEvent({ config: { review_submission_enabled: true } });
    m1 = await ctx.newModerator(event);
    m2 = await ctx.newModerator(event);
    fresh = await ctx.newModerator(event);
    p = [];
    for (let i = 0; i < 12; i += 1) p.push(await ctx.newProposal(event, { category: 'Other' }));
    a = await ctx.newReviewer(event);
    b = await ctx.newReviewer(event, { level: ReviewerLevel.level_1 });
    c = await ctx.newReviewer(event);
    d = await ctx.newReviewer(event);
    await ctx.newAllocation(a, p[0]!);
    await ctx.newAllocation(a, p[1]!);
    await ctx.newAllocation(b, p[2]!);
    await ctx.newAllocation(c, p[1]!);
    // p0: A allocated (5,4,3); B (LV1) not allocated (3,4,5); D excluded by moderation (1,1,1).
    review.a0 = (await ctx.newReview(a, p[0]!, ratings(5, 4, 3))).row_id;
    review.b0 = (await ctx.newReview(b, p[0]!, ratings(3, 4, 5))).row_id;
    review.d0 = (await ctx.newReview(d, p[0]!, ratings(1, 1, 1))).row_id;
    // p1: A allocated (2,2,2); C allocated, excluded by threshold (5,5,5).
    review.a1 = (await ctx.newReview(a, p[1]!, ratings(2, 2, 2))).row_id;
    // p2: B allocated (4,4,4); D with a tie of moderations (1 of 2 included: valid at 0.5) (2,3,4).
    review.b2 = (await ctx.newReview(b, p[2]!, ratings(4, 4, 4))).row_id;
    review.d2 = (await ctx.newReview(d, p[2]!, ratings(2, 3, 4))).row_id;
    // p3: A not allocated (4,5,1); p4: D excluded by moderation, appealed and upheld (5,5,5).
    review.a3 = (await ctx.newReview(a, p[3]!, ratings(4, 5, 1))).row_id;
    review.d4 = (await ctx.newReview(d, p[4]!, ratings(5, 5, 5))).row_id;
    // C: ten moderated reviews (p1, p3 and p5–p12), 3 valid: approval 0.3 < 0.5 with the sample of 10 → all excluded.
    const cReviews: number[] = [];
    for (const i of [1, 3, 5, 6, 7, 8, 9, 10, 11]) cReviews.push((await ctx.newReview(c, p[i]!, ratings(5, 5, 5))).row_id);
    cReviews.push((await ctx.newReview(c, p[4]!, ratings(1, 2, 3))).row_id);
    review.c1 = cReviews[0]!;
    for (const [k, id] of cReviews.entries()) await moderate(id, m1, k < 3 ? 1 : 0);
    await moderate(review.d0, m1, 0);
    await moderate(review.d0, m2, 0);
    await moderate(review.d2, m1, 1);
    await moderate(review.d2, m2, 0);
    await moderate(review.d4, m1, 0);
    await moderate(review.a0, m1, 1);
    await ctx.configure(event, { review_submission_enabled: false });

    const appealsOn = await call('PUT', `configs/appeals/${event.id}/`, event.admin, {
      record_update: { appeals_enabled: true, window_days: 7, decisions_needed: 1 },
    });
    expect(appealsOn.statusCode, appealsOn.body).toBe(200);
    const outcomes = await call('POST', 'proposal-reviews/generate-results', event.admin, {
      results_params: { event_id: event.id, validity_threshold: 0.5, acceptance_threshold: 0.5, minimum_sample: 10, dry_run: false },
    });
    expect(outcomes.statusCode, outcomes.body).toBe(200);
    const appeal = await call('POST', 'appeals/', d, {
      new_appeal: {
        review_id: review.d4,
        rationale: 'My ratings follow from the milestones and the budget the proposal gives. '.repeat(5),
      },
    });
    expect(appeal.statusCode, appeal.body).toBe(201);
    const allocated = await call('POST', 'appeals/generate-allocations', event.admin, {
      allocation_params: { event_id: event.id, appeal_seed: 3, dry_run: false },
    });
    expect(allocated.statusCode, allocated.body).toBe(200);
    // The one decision needed: of whichever eligible moderator the run chose (m2 or fresh; m1 moderated the review).
    const [chosen] = await ctx.db.select().from(appealAllocations).where(eq(appealAllocations.appealId, appeal.json().row_id));
    const decider = [m2, fresh].find((moderator) => moderator.subscription.row_id === chosen!.subscriptionId)!;
    const decided = await call('PUT', `appeals/${appeal.json().row_id}/decision/`, decider, {
      appeal_decision: { decision: 1, rationale: 'The review is the reviewer’s own opinion.', predefined_reason: 'valid' },
    });
    expect(decided.statusCode, decided.body).toBe(200);
  });

  it('answers 404 for no such event and 409 until the scores have run; the page info says so', async () => {
    expect((await call('GET', 'events/999999/open-data')).statusCode).toBe(404);
    const early = await call('GET', `events/${event.id}/open-data`);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toEqual({ message: 'The open data of this round is published once its proposal scores have run.' });
    expect((await call('GET', `events/${event.id}/open-data/info`)).json()).toMatchObject({ available: false, event_id: event.id });
    // The public list of published rounds (the page the home page links to) does not hold it yet.
    const listed = await call('GET', 'events/open-data/');
    expect(listed.statusCode).toBe(200);
    expect((listed.json() as { event_id: number }[]).map((round) => round.event_id)).not.toContain(event.id);
  });

  it('streams the round once its scores ran (non-default weights): the verifier reproduces every figure', async () => {
    const scores = await call('POST', 'proposals/generate-results', event.admin, {
      results_params: {
        event_id: event.id,
        allocation_weights: { allocated: 0.7, not_allocated: 0.3 },
        level_weights: { level_0: 1, level_1: 0.5 },
        dry_run: false,
      },
    });
    expect(scores.statusCode, scores.body).toBe(200);
    const info = (await call('GET', `events/${event.id}/open-data/info`)).json();
    expect(info).toMatchObject({
      available: true,
      file_name: `round-${event.id}-open-data.zip`,
      audit_head: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    // Listed for anyone (no session) once published, with what the list page shows.
    const listed = (await call('GET', 'events/open-data/')).json() as { event_id: number }[];
    expect(listed.find((round) => round.event_id === event.id)).toEqual({
      event_id: event.id,
      event_name: event.name,
      end_time: null,
      file_name: `round-${event.id}-open-data.zip`,
    });
    // Its end, as the list writes it (ISO 8601, UTC).
    await ctx.db.execute(sql`update events set end_time = '2026-01-31T12:00:00Z' where id = ${event.id}`);
    const ended = (await call('GET', 'events/open-data/')).json() as { event_id: number; end_time: string | null }[];
    expect(ended.find((round) => round.event_id === event.id)?.end_time).toBe('2026-01-31T12:00:00Z');
    await ctx.db.execute(sql`update events set end_time = null where id = ${event.id}`);

    const response = await call('GET', `events/${event.id}/open-data`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toContain(`round-${event.id}-open-data.zip`);
    archive = join(dir, 'round.zip');
    writeFileSync(archive, response.rawPayload);
    // Made again, the same bytes (every entry carries the scores run's time).
    expect((await call('GET', `events/${event.id}/open-data`)).rawPayload.equals(response.rawPayload)).toBe(true);

    const content = await files(archive);
    expect([...content.keys()]).toEqual([
      'README.txt',
      'round.json',
      'proposals.csv',
      'reviews.csv',
      'moderations.csv',
      'appeals.csv',
      'appeal_decisions.csv',
      'reviewers.csv',
      'proposal_scores.csv',
      'audit_chain.csv',
      'datapackage.json',
      'SHA256SUMS',
    ]);
    const round = JSON.parse(content.get('round.json')!);
    expect(round.runs.map((run: { action: string }) => run.action)).toEqual(['reviews.outcomes', 'appeals.allocate', 'proposals.scores']);
    expect(round.runs.at(-1).params).toMatchObject({
      allocation_weights: { allocated: 0.7, not_allocated: 0.3 },
      level_weights: { level_1: 0.5 },
    });
    expect(round.audit.head.hash).toBe(info.audit_head);
    const dataPackage = JSON.parse(content.get('datapackage.json')!);
    expect(dataPackage.profile).toBe('tabular-data-package');
    for (const resource of dataPackage.resources.filter((item: { format: string }) => item.format === 'csv')) {
      expect(resource.profile).toBe('tabular-data-resource');
      const header = content.get(resource.path)!.split('\r\n')[0]!.split(',');
      expect(resource.schema.fields.map((field: { name: string }) => field.name)).toEqual(header);
      for (const field of resource.schema.fields) expect(field.description, `${resource.name}.${field.name}`).toBeTruthy();
    }
    const reviews = content.get('reviews.csv')!;
    const outcomeOf = (id: number) =>
      reviews
        .split('\r\n')
        .find((line) => line.startsWith(`${id},`))!
        .split(',')[8];
    expect(outcomeOf(review.d0!)).toBe('"excluded_moderation"');
    expect(outcomeOf(review.c1!)).toBe('"excluded_threshold"');
    expect(outcomeOf(review.d2!)).toBe('"included"');
    expect(outcomeOf(review.d4!)).toBe('"included"');

    const report = await verifyArchive(archive);
    expect(report.integrity).toEqual([]);
    expect(report.differences).toEqual([]);
    // 18 reviews, 4 reviewers, 1 appeal, 12 proposals × 10 figures, the round's audit entries, the head, 3 runs.
    const chained = content.get('audit_chain.csv')!.trim().split('\r\n').length - 1;
    expect(report.figures).toBe(18 + 4 + 1 + 12 * 10 + chained + 1 + 3);
    expect(report.reproduced).toBe(report.figures);

    // The verifier's figures are the server's: p0's impact as the rules give it, by hand.
    // A allocated (weight 0.7 / 1 × 1), B not allocated LV1 (0.3 / 1 × 0.5): (0.7 × 5 + 0.15 × 3) / 0.85 = 4.6471.
    const scoresCsv = content.get('proposal_scores.csv')!;
    expect(
      scoresCsv
        .split('\r\n')
        .find((line) => line.startsWith(`${p[0]!.id},`))!
        .split(',')[2],
    ).toBe('4.6471');
  });

  it('changing one rating names exactly that proposal’s scores; one classification exactly that review’s outcome', async () => {
    const rating = await changed(
      archive,
      'reviews.csv',
      (text) =>
        editRow(text, String(review.a0), (cells) => {
          cells[5] = '1';
        }).text,
    );
    const afterRating = await verifyArchive(rating);
    expect(afterRating.differences.map((difference) => difference.figure)).toEqual([
      `proposal ${p[0]!.id} overall`,
      `proposal ${p[0]!.id} impact`,
    ]);
    expect(afterRating.integrity).toEqual([
      'reviews.csv does not match its SHA-256 in SHA256SUMS',
      'reviews.csv does not match its hash in datapackage.json',
    ]);

    const moderationsCsv = (await files(archive)).get('moderations.csv')!;
    const line = moderationsCsv.split('\r\n').find((row) => row.split(',')[1] === String(review.d2) && row.includes('"included"'))!;
    const classification = await changed(archive, 'moderations.csv', (text) =>
      text.replace(line, line.replace('"included"', '"excluded"')),
    );
    const afterClassification = await verifyArchive(classification);
    expect(afterClassification.differences).toEqual([
      { figure: `review ${review.d2} outcome`, published: 'included', recomputed: 'excluded_moderation' },
    ]);
  });

  it('builds at most two archives at once per instance: a third download meanwhile answers 503 with Retry-After', async () => {
    const service = createOpenDataService({ db: ctx.database.db, events: { get: async () => undefined } });
    const first = await service.archive(event.id);
    const second = await service.archive(event.id);
    const third = await service.archive(event.id).catch((error: unknown) => error);
    expect(third).toMatchObject({ statusCode: 503, headers: { 'retry-after': '30' } });
    const closed = (stream: NodeJS.ReadableStream & { destroy(): void }) =>
      new Promise((resolve) => {
        stream.on('close', resolve);
        stream.destroy();
      });
    await closed(first.stream);
    await closed(second.stream);
    const again = await service.archive(event.id);
    const chunks: Buffer[] = [];
    for await (const chunk of again.stream as AsyncIterable<Buffer>) chunks.push(chunk);
    expect(Buffer.concat(chunks).equals(readFileSync(archive))).toBe(true);
  });

  it('holds nothing personal: no value of a planted person’s personal columns, no such column in any header', async () => {
    const content = await files(archive);
    const everything = [...content.values()].join('\n');
    const values = new Set<string>();
    for (const [table, columns] of Object.entries(PERSONAL_COLUMNS))
      for (const column of columns) {
        const rows = rowsOf<{ value: string | null }>(await ctx.db.execute(sql.raw(`select ${column}::text as value from ${table}`)));
        for (const { value } of rows) if (value && value.length >= 6) values.add(value);
      }
    // The moderators' LV2 forms and the accounts put something in most of these columns.
    expect(values.size).toBeGreaterThan(20);
    for (const value of values) expect(everything.includes(value), value).toBe(false);
    for (const [name, text] of content)
      if (name.endsWith('.csv')) {
        const header = text.split('\r\n')[0]!.split(',');
        for (const columns of Object.values(PERSONAL_COLUMNS))
          for (const column of columns) if (!GENERIC_NAMES.has(column)) expect(header, name).not.toContain(column);
      }
    // The anonymous ids are there: the only identity the public sees.
    for (const reviewer of [a, b, c, d, m1, m2]) expect(everything).toContain(reviewer.anonymousId);
    expect(readFileSync(archive).length).toBeGreaterThan(0);
  });
});
