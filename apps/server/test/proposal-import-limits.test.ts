import { randomBytes } from 'node:crypto';
import { count, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { proposalAuthors, proposals } from '../src/db/schema/index';
import { MAX_FUNDS } from '../src/domain/proposal-document';
import { IMPORT_LIMITS, limitReasons } from '../src/modules/proposals/proposal-import-limits';
import { sampleImportFile } from '../src/modules/proposals/sample';
import { API, databaseKinds, useTestApp } from './build-test-app';
import type { TestUser } from './fixtures';
import type { TestEvent } from './world-fixtures';

type Document = ReturnType<typeof sampleImportFile>['documents'][number];

/**
 * Issue 26 items 2 and 3: a document that cannot be stored as it is — requested funds past a bigint (PostgreSQL
 * overflowed and the whole import answered 500, dry runs too), 100,000 authors (a stack overflow in the query builder),
 * a Catalyst ID or a category title too long for its index — is skipped with its reason and the field, and the rest
 * of the file is imported. Checklist D-046, D-047.
 */
describe.each(databaseKinds)('proposal import limits on %s', (kind) => {
  const ctx = useTestApp(kind);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await ctx.admin();
  });

  const sample = sampleImportFile();
  /** A small valid document on the sample's first template (its category), with this title. */
  const documentTitled = (title: string, index: number): Document => ({
    ...sample.documents[0]!,
    id: `limits-${index}-${randomBytes(4).toString('hex')}`,
    authors: [],
    collaborators: [],
    payload: { setup: { title: { title } }, summary: { budget: { requestedFunds: 1000 } } },
  });
  const fileOf = (documents: Document[], categories = sample.categories) => ({ ...sample, categories, documents });

  /** Posts the import as JSON text, so that a number JavaScript cannot write (1e400) reaches the server as it is. */
  const importText = (event: TestEvent, file: object, dryRun: boolean, replace: [string, string][] = []) => {
    let payload = JSON.stringify({ import_options: { source: 'file', file, dry_run: dryRun, accept_non_existent_users: true } });
    for (const [from, to] of replace) payload = payload.replace(from, to);
    return ctx.app.inject({
      method: 'POST',
      url: `${API}/proposals/import/${event.id}`,
      headers: { ...admin.auth, 'content-type': 'application/json' },
      payload,
    });
  };
  const storedOf = (event: TestEvent) => ctx.db.select().from(proposals).where(eq(proposals.eventId, event.id));

  it.each(['9223372036854775808', '1e19', '1e308', '1e400', String(MAX_FUNDS + 1)])(
    'skips a document asking for %s in requested funds, naming the field, on a dry run and a real one (issue 26 item 2)',
    async (tooMuch) => {
      const event = await ctx.newEvent();
      const [bad, atLimit, usual] = ['Too much', 'At the limit', 'Usual'].map(documentTitled);
      (bad!.payload as any).summary.budget.requestedFunds = '__TOO_MUCH__';
      (atLimit!.payload as any).summary.budget.requestedFunds = MAX_FUNDS;
      const file = fileOf([bad!, atLimit!, usual!]);
      for (const dryRun of [true, false]) {
        const response = await importText(event, file, dryRun, [['"__TOO_MUCH__"', tooMuch]]);
        expect(response.statusCode, response.body).toBe(200);
        expect(response.json()).toMatchObject({ dry_run: dryRun, created: 2, skipped: 1 });
        expect(response.json().skipped_proposals).toEqual([{ pr_id: bad!.id, title: 'Too much', reason: limitReasons.funds }]);
      }
      expect(limitReasons.funds).toContain('summary.budget.requestedFunds');
      const stored = await storedOf(event);
      expect(stored.map((row) => [row.title, row.funds]).sort()).toEqual([
        ['At the limit', MAX_FUNDS],
        ['Usual', 1000],
      ]);
    },
  );

  it(`skips a document naming more than ${IMPORT_LIMITS.authors} authors (100,000 answered 500) and keeps one at the limit (issue 26 item 3)`, async () => {
    const event = await ctx.newEvent();
    const [crowd, team] = ['A crowd', 'A team'].map(documentTitled);
    crowd!.authors = Array.from({ length: 100_000 }, (_, i) => `cardano/author-${i}`);
    team!.authors = ['cardano/lead'];
    team!.collaborators = Array.from({ length: IMPORT_LIMITS.authors - 1 }, (_, i) => `cardano/member-${i}`);
    for (const dryRun of [true, false]) {
      const response = await importText(event, fileOf([crowd!, team!]), dryRun);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ created: 1, skipped: 1 });
      expect(response.json().skipped_proposals).toEqual([{ pr_id: crowd!.id, title: 'A crowd', reason: limitReasons.authors }]);
    }
    const [stored] = await storedOf(event);
    expect((await ctx.app.inject({ url: `${API}/proposals/${stored!.id}/` })).json().authors_count).toBe(IMPORT_LIMITS.authors);
  });

  it('writes the authors of many documents at the limit in batches: 330 × 100 authors in one import (issue 26 item 3)', async () => {
    const event = await ctx.newEvent();
    const documents = Array.from({ length: 330 }, (_, index) => {
      const document = documentTitled(`Proposal ${index}`, index);
      document.authors = Array.from({ length: IMPORT_LIMITS.authors }, (_, i) => `cardano/p${index}-a${i}`);
      return document;
    });
    const response = await importText(event, fileOf(documents), false);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ created: 330, skipped: 0 });
    const ids = (await storedOf(event)).map((row) => row.id);
    const [{ n }] = (await ctx.db.select({ n: count() }).from(proposalAuthors).where(inArray(proposalAuthors.proposalId, ids))) as [
      { n: number },
    ];
    expect(n).toBe(330 * IMPORT_LIMITS.authors);
    // A re-import that changes every document's authors replaces them all, in batches too.
    for (const document of documents) document.authors = document.authors!.map((id) => `${id}-b`);
    const again = await importText(event, fileOf(documents), false);
    expect(again.json()).toMatchObject({ updated: 330 });
    const keys = await ctx.db
      .select({ key: proposalAuthors.catalystKey })
      .from(proposalAuthors)
      .where(inArray(proposalAuthors.proposalId, ids));
    expect(keys).toHaveLength(330 * IMPORT_LIMITS.authors);
    expect(keys.every((row) => row.key.endsWith('-b'))).toBe(true);
  });

  it('skips a document with a Catalyst ID or a category title too long to index, and keeps ones at the limits (issue 26 item 2)', async () => {
    const event = await ctx.newEvent();
    // Random text, which does not compress: a long one exceeded the btree's row size (500).
    const randomText = (length: number) => randomBytes(length).toString('base64').slice(0, length);
    const [longId, okId, longCategory, okCategory] = ['Long id', 'Id at the limit', 'Long category', 'Category at the limit'].map(
      documentTitled,
    );
    longId!.authors = [`cardano/${randomText(IMPORT_LIMITS.catalystIdLength)}`];
    okId!.collaborators = [`cardano/${randomText(IMPORT_LIMITS.catalystIdLength - 'cardano/'.length)}`];
    longCategory!.category = 'long';
    okCategory!.category = 'ok';
    const categories = {
      ...sample.categories,
      long: randomText(IMPORT_LIMITS.categoryTitleLength + 1),
      ok: randomText(IMPORT_LIMITS.categoryTitleLength),
    };
    for (const dryRun of [true, false]) {
      const response = await importText(event, fileOf([longId!, okId!, longCategory!, okCategory!], categories), dryRun);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ created: 2, skipped: 2 });
      expect(response.json().skipped_proposals).toEqual([
        { pr_id: longId!.id, title: 'Long id', reason: limitReasons.catalystId },
        { pr_id: longCategory!.id, title: 'Long category', reason: limitReasons.categoryTitle },
      ]);
    }
    expect((await storedOf(event)).map((row) => row.title).sort()).toEqual(['Category at the limit', 'Id at the limit']);
  });
});
