import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { proposalAllocations, proposals, proposalScores } from '../src/db/schema/index';
import { sampleImportFile } from '../src/modules/proposals/sample';
import { paged } from '@cr/contract/common';
import { proposalPublic, proposalRow } from '@cr/contract/proposals';
import { API, databaseKinds, useTestApp } from './build-test-app';
import { detailAt, eventFixtures } from './event-fixtures';
import type { TestUser } from './fixtures';
import type { TestReviewer } from './world-fixtures';

type Auth = { auth: { authorization: string } } | null;

describe.each(databaseKinds)('proposals: import, list, detail on %s', (kind) => {
  const ctx = useTestApp(kind, { IMPORT_BODY_LIMIT_BYTES: String(2 * 1024 * 1024) });
  const f = eventFixtures(ctx);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await ctx.newAdmin();
  });

  const importInto = (eventId: number, options: Record<string, unknown>, user: Auth = admin) =>
    ctx.app.inject({
      method: 'POST',
      url: `${API}/proposals/import/${eventId}`,
      headers: user ? user.auth : {},
      payload: { import_options: options },
    });
  const list = (query: string) => f.get(`proposals/?${query}`);
  const proposalCount = async (eventId: number) =>
    (await ctx.db.select({ id: proposals.id }).from(proposals).where(eq(proposals.eventId, eventId))).length;

  it('a dry run reports what it would do and leaves nothing behind (D-046)', async () => {
    const event = await f.newEvent(admin, { active: true });
    const response = await importInto(event.row_id, { source: 'sample', dry_run: true });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ dry_run: true, created: 31, updated: 0, unchanged: 0, skipped: 0 });
    expect(response.json().categories_created).toHaveLength(5);
    expect(await proposalCount(event.row_id)).toBe(0);
    expect((await f.get(`categories/?event_id=${event.row_id}`)).json()).toEqual([]);
  });

  it('a real run creates proposals and categories, is audited, and a re-import changes nothing', async () => {
    const event = await f.newEvent(admin, { active: true });
    const first = await importInto(event.row_id, { source: 'sample', dry_run: false });
    expect(first.json()).toMatchObject({ dry_run: false, created: 31, updated: 0, unchanged: 0, skipped: 0 });
    expect(await proposalCount(event.row_id)).toBe(31);
    const categories = (await f.get(`categories/?event_id=${event.row_id}`)).json();
    expect(categories.map((c: { title: string }) => c.title).sort()).toEqual([
      'Cardano Open: Developers',
      'Cardano Open: Ecosystem',
      'Cardano Partners: Tier-1 Enterprise Integrations',
      'Cardano Use Cases: Prototype & Launch',
      'Midnight: Compact DApps',
    ]);
    expect(await f.lastAudit()).toMatchObject({ action: 'proposals.import', eventId: event.row_id });
    const again = await importInto(event.row_id, { source: 'sample', dry_run: false });
    expect(again.json()).toMatchObject({ created: 0, updated: 0, unchanged: 31, categories_created: [] });
    expect(await proposalCount(event.row_id)).toBe(31);
  });

  it('updates a changed document in place (upsert by document id)', async () => {
    const event = await f.newEvent(admin, { active: true });
    const file = sampleImportFile();
    await importInto(event.row_id, { source: 'file', file, dry_run: false });
    const changed = structuredClone(file);
    (changed.documents[0]!.payload as any).setup.title.title = 'A renamed proposal';
    const response = await importInto(event.row_id, { source: 'file', file: changed, dry_run: false });
    expect(response.json()).toMatchObject({ created: 0, updated: 1, unchanged: 30 });
    const found = (await list(`event_id=${event.row_id}&title=renamed`)).json();
    expect(found.data).toHaveLength(1);
    expect(found.data[0].pr_id).toBe(file.documents[0]!.id);
  });

  it('imports only the chosen categories and says why the others were skipped', async () => {
    const event = await f.newEvent(admin, { active: true });
    const response = await importInto(event.row_id, { source: 'sample', categories: ['midnight: compact dapps'], dry_run: false });
    expect(response.json()).toMatchObject({ created: 6, skipped: 25 });
    expect(response.json().skipped_proposals[0]).toMatchObject({ reason: 'not in the chosen categories' });
  });

  it('skips a document without a title, and keeps the newest version of a document', async () => {
    const event = await f.newEvent(admin, { active: true });
    const file = sampleImportFile();
    const documents = file.documents.slice(0, 3);
    (documents[0]!.payload as any).setup.title.title = '   ';
    const newer = { ...structuredClone(documents[1]!), ver: 'ffffffff-ffff-7fff-8fff-ffffffffffff' };
    (newer.payload as any).setup.title.title = 'The newer version';
    const response = await importInto(event.row_id, {
      source: 'file',
      file: { ...file, documents: [...documents, newer] },
      dry_run: false,
    });
    expect(response.json()).toMatchObject({ created: 2, skipped: 2 });
    expect(
      response
        .json()
        .skipped_proposals.map((s: { reason: string }) => s.reason)
        .sort(),
    ).toEqual(['a newer version of this document is in the file', 'the document has no title (setup.title.title)']);
    expect((await list(`event_id=${event.row_id}&title=newer version`)).json().data).toHaveLength(1);
  });

  it('refuses a malformed file with 422 saying where, and an unknown template', async () => {
    const event = await f.newEvent(admin, { active: true });
    const bad = await importInto(event.row_id, {
      source: 'file',
      file: { format: 'catalyst-voices-proposals/1', templates: {}, documents: [{ id: 'x', template: 't' }] },
      dry_run: true,
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().detail).toEqual(
      expect.arrayContaining([expect.objectContaining({ loc: ['body', 'import_options', 'file', 'documents', 0, 'payload'] })]),
    );
    const wrongFormat = await importInto(event.row_id, { source: 'file', file: { hello: 'world' }, dry_run: true });
    expect(wrongFormat.statusCode).toBe(422);
    expect(wrongFormat.json().detail[0].loc.slice(0, 4)).toEqual(['body', 'import_options', 'file', 'format']);
    const file = sampleImportFile();
    const unknown = await importInto(event.row_id, {
      source: 'file',
      file: { ...file, documents: [{ ...file.documents[0]!, template: 'no-such-template' }] },
      dry_run: true,
    });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().detail).toEqual(
      [detailAt(['body', 'import_options', 'file', 'documents', 0, 'template'], 'This template is not in the file’s templates.')].map(
        (item) => expect.objectContaining(item),
      ),
    );
    // Ids that are names of Object's own properties are just unknown ids (they used to answer 500).
    const inherited = await importInto(event.row_id, {
      source: 'file',
      file: { ...file, documents: [{ ...file.documents[0]!, template: 'constructor', category: 'toString' }] },
      dry_run: true,
    });
    expect(inherited.statusCode).toBe(422);
    const missing = await importInto(event.row_id, { source: 'file', dry_run: true });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().detail[0].loc).toEqual(['body', 'import_options', 'file']);
  });

  it('refuses a body over the import limit with 413, and a gateway import without a gateway with 400', async () => {
    const event = await f.newEvent(admin, { active: true });
    const huge = { format: 'catalyst-voices-proposals/1', templates: {}, documents: [], padding: 'x'.repeat(3 * 1024 * 1024) };
    const response = await importInto(event.row_id, { source: 'file', file: huge, dry_run: true });
    expect(response.statusCode).toBe(413);
    const gateway = await importInto(event.row_id, { source: 'gateway', dry_run: true });
    expect(gateway.statusCode).toBe(400);
  });

  it('concurrent real imports into one event: each answers 200 or 409, and the proposals are there once', async () => {
    const event = await f.newEvent(admin, { active: true });
    const statuses = (await Promise.all([1, 2, 3].map(() => importInto(event.row_id, { source: 'sample', dry_run: false })))).map(
      (response) => response.statusCode,
    );
    expect(statuses).toContain(200);
    for (const status of statuses) expect([200, 409]).toContain(status);
    expect(await proposalCount(event.row_id)).toBe(31);
  });

  it('lets only admins import: 401 anonymous, 403 others; 404 for an unknown event', async () => {
    const event = await f.newEvent(admin, { active: true });
    expect((await importInto(event.row_id, { source: 'sample' }, null)).statusCode).toBe(401);
    expect((await importInto(event.row_id, { source: 'sample' }, await ctx.newUser())).statusCode).toBe(403);
    expect((await importInto(999_999, { source: 'sample' })).statusCode).toBe(404);
  });

  describe('list and detail', () => {
    let eventId: number;
    beforeAll(async () => {
      const event = await f.newEvent(admin, { active: true });
      eventId = event.row_id;
      await importInto(eventId, { source: 'sample', dry_run: false });
    });

    it('pages by 25 by default with the total, and the second page holds the rest (D-011, D-012)', async () => {
      const first = (await list(`event_id=${eventId}`)).json();
      expect(first.data).toHaveLength(25);
      expect(first.page).toEqual({ total: 31, size: 25, page: 0 });
      const second = (await list(`event_id=${eventId}&page=1`)).json();
      expect(second.data).toHaveLength(6);
      expect(new Set([...first.data, ...second.data].map((p: { row_id: number }) => p.row_id)).size).toBe(31);
    });

    it('filters by title, case-insensitively, trimmed; an empty filter is ignored; % matches itself (D-002, D-004)', async () => {
      expect(
        (await list(`event_id=${eventId}&title=${encodeURIComponent('  zero-KNOWLEDGE ')}`))
          .json()
          .data.map((p: { title: string }) => p.title),
      ).toEqual(['Zero-Knowledge Age Check']);
      expect((await list(`event_id=${eventId}&title=`)).json().page.total).toBe(31);
      expect((await list(`event_id=${eventId}&title=%25`)).json().page.total).toBe(0);
    });

    it('lists the current events’ proposals without an event, and filters by category', async () => {
      const all = (await list('size=100&title=Private Payroll')).json();
      expect(all.data.some((p: { event_id: number }) => p.event_id === eventId)).toBe(true);
      const midnight = all.data.find(
        (p: { objective_title: string | null; event_id: number }) =>
          p.objective_title === 'Midnight: Compact DApps' && p.event_id === eventId,
      );
      const byCategory = (await list(`event_id=${eventId}&category=${midnight.objective}`)).json();
      expect(byCategory.page.total).toBe(6);
    });

    it('answers the list row fields of spec §3 (D-014)', async () => {
      const row = (await list(`event_id=${eventId}&title=Private Payroll`)).json().data[0];
      expect(row).toMatchObject({
        title: 'Private Payroll DApp in Compact',
        objective_title: 'Midnight: Compact DApps',
        category: 'Midnight: Compact DApps',
        currency: 'USDM',
        event_id: eventId,
        has_reviewed: false,
      });
      expect(row.pr_id).toMatch(/^019a[0-9a-f]{4}-/);
      expect(typeof row.funds).toBe('number');
    });

    // The page's JSON is written by PostgreSQL (issue 16): it must be exactly what the contract's schema and
    // JSON.stringify would give — the same fields in the same order, nothing more, every character escaped alike.
    it('answers the page as the contract writes it, whatever the text holds (D-014)', async () => {
      const [first] = await ctx.db
        .select({ id: proposals.id })
        .from(proposals)
        .where(eq(proposals.eventId, eventId))
        .orderBy(proposals.id)
        .limit(1);
      const tricky = 'Quote " backslash \\ slash / tab \t newline \n bell \u0007 é ü 中文 🚀 \u2028 <script>&amp;';
      await ctx.db
        .update(proposals)
        .set({ title: tricky, summary: tricky, proposerName: null, url: null })
        .where(eq(proposals.id, first!.id));
      for (const query of [
        `event_id=${eventId}`,
        `event_id=${eventId}&page=1`,
        `event_id=${eventId}&title=${encodeURIComponent('quote "')}`,
        `event_id=${eventId}&page=9`,
      ]) {
        const response = await list(query);
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(response.body).toBe(JSON.stringify(paged(proposalRow).parse(response.json())));
      }
      const found = (await list(`event_id=${eventId}&title=${encodeURIComponent('quote "')}`)).json();
      expect(found.page).toEqual({ total: 1, size: 25, page: 0 });
      expect(found.data[0]).toMatchObject({ row_id: first!.id, title: tricky, summary: tricky, proposer_name: null, url: null });
      expect((await list(`event_id=${eventId}&page=9`)).json()).toEqual({ data: [], page: { total: 31, size: 25, page: 9 } });
    });

    // Issue 45 item 13: the detail's JSON is written by PostgreSQL too: the contract's fields in its order, nothing
    // more, strings escaped as JSON.stringify escapes them, and the score once all four figures exist.
    it('answers the detail as the contract writes it, with its score and authors (D-019, D-023)', async () => {
      const [first] = await ctx.db
        .select({ id: proposals.id, extra: proposals.extra })
        .from(proposals)
        .where(eq(proposals.eventId, eventId))
        .orderBy(proposals.id)
        .limit(1);
      const tricky = 'Quote " backslash \\ tab \t newline \n bell \u0007 é 中文 🚀 \u2028 <script>&amp;';
      await ctx.db.update(proposals).set({ title: tricky, solution: tricky, proposerName: null }).where(eq(proposals.id, first!.id));
      const detail = async () => {
        const response = await f.get(`proposals/${first!.id}/`);
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
        const answer = response.json();
        // Field for field the contract's answer: no field more or less, in its order; `extra` as stored.
        const written = proposalPublic.strict().parse(answer);
        const compact = (text: string) => text.replace(/"extra":.*,"score":/s, '"extra":…,"score":');
        expect(compact(response.body)).toBe(compact(JSON.stringify(written)));
        expect(answer.extra).toEqual(first!.extra);
        return answer;
      };
      expect(await detail()).toMatchObject({ row_id: first!.id, title: tricky, solution: tricky, proposer_name: null, score: null });
      const counts = { nrReviews: 3, nrAllocatedReviews: 2, nrIncludedReviews: 2, nrExcludedReviews: 1 };
      const excluded = { nrExcludedByModerationReviews: 1, nrExcludedByThresholdReviews: 0 };
      await ctx.db
        .insert(proposalScores)
        .values({
          proposalId: first!.id,
          eventId,
          overall: 3.7,
          impact: 4,
          feasibility: 3.25,
          valueForMoney: null,
          ...counts,
          ...excluded,
        });
      expect((await detail()).score).toBeNull(); // a score needs all four figures
      await ctx.db.update(proposalScores).set({ valueForMoney: 3.8500000000000001 }).where(eq(proposalScores.proposalId, first!.id));
      expect((await detail()).score).toEqual({ overall: 3.7, impact: 4, feasibility: 3.25, value_for_money: 3.85 });
      const list = (await f.get(`proposals/?event_id=${eventId}`)).json().data[0];
      const { solution: _solution, authors_count: _authors, extra: _extra, score: _score, ...row } = await detail();
      expect(row).toEqual(list);
    });

    it('refuses bad paging with 422', async () => {
      expect((await list('page=-1')).statusCode).toBe(422);
      expect((await list('size=0')).statusCode).toBe(422);
    });

    it('gives a single proposal with its extra information, and 404 for an unknown one (D-019..D-023)', async () => {
      const row = (await list(`event_id=${eventId}&title=Example Catalyst`)).json().data[0];
      expect(row.objective_title).toBeNull();
      const detail = (await f.get(`proposals/${row.row_id}/`)).json();
      expect(detail).toMatchObject({
        row_id: row.row_id,
        title: 'Example Catalyst Proposal',
        objective_title: null,
        score: null,
        authors_count: 1,
      });
      const refs = new Set<string>();
      const walk = (field: { ref: string | null; sub_fields?: unknown[] | null }) => {
        if (field.ref) refs.add(field.ref);
        (field.sub_fields as (typeof field)[] | null)?.forEach(walk);
      };
      detail.extra.fields.forEach(walk);
      for (const ref of [
        'segment',
        'section',
        'multiLineTextEntryMarkdown',
        'singleLineTextEntry',
        'multiLineTextEntry',
        'yesNoChoice',
        'agreementConfirmation',
        'singleLineHttpsURLEntryList',
        'tagInput',
        'singleGroupedTagSelector',
      ]) {
        expect(refs.has(ref), ref).toBe(true);
      }
      expect((await f.get('proposals/999999/')).statusCode).toBe(404);
      expect((await f.get('proposals/abc/')).statusCode).toBe(422);
    });
  });
});

describe.each(databaseKinds)('proposal allocation on %s', (kind) => {
  const ctx = useTestApp(kind);
  const f = eventFixtures(ctx);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await ctx.newAdmin();
  });

  const generate = (params: Record<string, unknown>, user: Auth = admin) =>
    ctx.app.inject({
      method: 'POST',
      url: `${API}/proposal-reviews/generate-allocations`,
      headers: user ? user.auth : {},
      payload: { allocation_params: params },
    });
  /** An event with the sample proposals (one of them authored by `author`) and `n` LV0 reviewers (`author` first). */
  async function round(n: number, author?: TestUser) {
    const event = await ctx.newEvent({ admin });
    await ctx.importProposals(event, { authorOf: (index) => (index === 0 ? author : undefined) });
    const reviewers: TestReviewer[] = [];
    for (let i = 0; i < n; i += 1) reviewers.push(await ctx.newReviewer(event, { user: i === 0 ? author : undefined }));
    return { event, reviewers };
  }
  const allocationRows = (eventId: number) => ctx.db.select().from(proposalAllocations).where(eq(proposalAllocations.eventId, eventId));

  it('a dry run answers the statistics and writes nothing (D-043)', async () => {
    const { event } = await round(4);
    const response = await generate({
      event_id: event.row_id,
      allocation_seed: 1,
      nr_of_proposals_lv0: 10,
      nr_of_proposals_lv1: 20,
      categories: [],
      dry_run: true,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      tot: 40,
      nr_of_reviewers: { tot: 4, lv0: 4, lv1: 0 },
      per_reviewer: { avg: 10, min: 10, max: 10 },
      dry_run: true,
    });
    expect(response.json().per_proposal.max - response.json().per_proposal.min).toBeLessThanOrEqual(1);
    expect(response.json().histograms.per_reviewer).toEqual([[10, 4]]);
    expect(await allocationRows(event.row_id)).toHaveLength(0);
    expect((await f.get(`configs/allocations/${event.row_id}/`, admin)).json().value.proposal_allocation_generated).toBe(false);
  });

  it('a real run writes the allocation, sets the flag, is audited, and a second real run replaces it (D-044)', async () => {
    const { event, reviewers } = await round(3);
    const params = { event_id: event.row_id, allocation_seed: 5, nr_of_proposals_lv0: 8, nr_of_proposals_lv1: 20, dry_run: false };
    expect((await generate(params)).json()).toMatchObject({ tot: 24, dry_run: false });
    expect(await allocationRows(event.row_id)).toHaveLength(24);
    expect((await f.get(`configs/allocations/${event.row_id}/`, admin)).json().value.proposal_allocation_generated).toBe(true);
    expect(await f.lastAudit()).toMatchObject({ action: 'proposals.allocate', eventId: event.row_id });

    const mine = await f.get('proposals/allocated?size=25', reviewers[0]);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().page).toEqual({ total: 8, size: 25, page: 0 });
    // Written by PostgreSQL as the contract's JSON, in id order, each row the viewer's (none reviewed yet).
    expect(mine.body).toBe(JSON.stringify(paged(proposalRow).parse(mine.json())));
    const ids = mine.json().data.map((p: { row_id: number }) => p.row_id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
    expect(mine.json().data.every((p: { has_reviewed: boolean; event_id: number }) => !p.has_reviewed && p.event_id === event.row_id)).toBe(
      true,
    );
    expect((await f.get('proposals/allocated/count', reviewers[0])).json()).toBe(8);
    const second = (await f.get('proposals/allocated?size=5&page=1', reviewers[0])).json();
    expect(second).toMatchObject({ page: { total: 8, size: 5, page: 1 } });
    expect(second.data.map((p: { row_id: number }) => p.row_id)).toEqual(ids.slice(5));

    expect((await generate({ ...params, nr_of_proposals_lv0: 3 })).json().tot).toBe(9);
    expect(await allocationRows(event.row_id)).toHaveLength(9);
  });

  it('never allocates a reviewer a proposal of a category they authored in', async () => {
    const author = await ctx.newUser();
    const { event } = await round(3, author);
    await generate({ event_id: event.row_id, allocation_seed: 2, nr_of_proposals_lv0: 31, nr_of_proposals_lv1: 31, dry_run: false });
    const mine = (await f.get('proposals/allocated?size=100', author)).json();
    // The first sample category (6 proposals) is the author's: they get the other 25.
    expect(mine.page.total).toBe(25);
    expect(mine.data.some((p: { objective_title: string }) => p.objective_title === 'Cardano Open: Ecosystem')).toBe(false);
    const me = (await f.get('users/me/', author)).json();
    expect(me.extra.unique_objectives_as_author).toHaveLength(1);
  });

  it('gives the same allocation for the same seed', async () => {
    const { event } = await round(3);
    const params = { event_id: event.row_id, allocation_seed: 9, nr_of_proposals_lv0: 5, nr_of_proposals_lv1: 5, dry_run: false };
    await generate(params);
    const first = (await allocationRows(event.row_id)).map((row) => `${row.subscriptionId}:${row.proposalId}`).sort();
    await generate(params);
    const second = (await allocationRows(event.row_id)).map((row) => `${row.subscriptionId}:${row.proposalId}`).sort();
    expect(second).toEqual(first);
  });

  it('validates the parameters with 422 (D-037, D-038, D-039) and lets only admins run it', async () => {
    const { event } = await round(1);
    const bad = await generate({
      event_id: event.row_id,
      allocation_seed: 0,
      nr_of_proposals_lv0: -1,
      nr_of_proposals_lv1: 0,
      dry_run: true,
    });
    expect(bad.statusCode).toBe(422);
    expect(
      bad
        .json()
        .detail.map((d: { loc: unknown[] }) => d.loc.at(-1))
        .sort(),
    ).toEqual(['allocation_seed', 'nr_of_proposals_lv0', 'nr_of_proposals_lv1']);
    expect(bad.json().detail.find((d: { loc: unknown[] }) => d.loc.at(-1) === 'allocation_seed').msg).toBe(
      'Allocation seed must be at least 1.',
    );
    // Parameters left out take the defaults (1, 20, 60) and a dry run, as the reference API allows (issue 17).
    const missing = await generate({ event_id: event.row_id });
    expect(missing.statusCode, missing.body).toBe(200);
    expect(
      (await generate({ event_id: event.row_id, allocation_seed: 1, nr_of_proposals_lv0: 1, nr_of_proposals_lv1: 1 }, null)).statusCode,
    ).toBe(401);
    expect(
      (await generate({ event_id: event.row_id, allocation_seed: 1, nr_of_proposals_lv0: 1, nr_of_proposals_lv1: 1 }, await ctx.newUser()))
        .statusCode,
    ).toBe(403);
    expect((await generate({ event_id: 999_999, allocation_seed: 1, nr_of_proposals_lv0: 1, nr_of_proposals_lv1: 1 })).statusCode).toBe(
      404,
    );
  });

  it('concurrent real runs on one event: each answers 200 or 409, and one allocation remains', async () => {
    const { event } = await round(3);
    const params = { event_id: event.row_id, allocation_seed: 3, nr_of_proposals_lv0: 6, nr_of_proposals_lv1: 6, dry_run: false };
    const statuses = (await Promise.all([generate(params), generate(params), generate(params)])).map((response) => response.statusCode);
    expect(statuses).toContain(200);
    for (const status of statuses) expect([200, 409]).toContain(status);
    expect(await allocationRows(event.row_id)).toHaveLength(18);
  });

  it('needs a login for the allocated list', async () => {
    expect((await f.get('proposals/allocated')).statusCode).toBe(401);
  });
});
