import { createHash } from 'node:crypto';
import type { DbOrTx } from '../../db/client';
import { catalystKey } from '../../domain/proposal-document';
import type { EventsService } from '../events/events.service';
import { templateIdOf, type AcceptedProposal } from './proposal-import-selection';
import * as repo from './proposals.repository';

type EventCategories = Pick<EventsService, 'categoriesOf' | 'ensureCategories'>;

export interface ImportWriteCounts {
  created: number;
  updated: number;
  unchanged: number;
  /** The titles of the categories the import added to the event. */
  categoriesCreated: string[];
}

/** A stable fingerprint of what a document puts in the database: equal ones leave the row as it is. */
function fingerprint(values: unknown): string {
  return createHash('sha256').update(JSON.stringify(values)).digest('hex');
}

/**
 * Writes the accepted documents into the event (DOMAIN.md "Import and export"): their categories first, then each
 * proposal upserted by document id, a row whose fingerprint is unchanged left as it is, and the authors of each new or
 * changed proposal. The caller holds the event's lock, so a re-import of the same file finds every row unchanged.
 */
export async function writeProposals(
  tx: DbOrTx,
  events: EventCategories,
  eventId: number,
  accepted: AcceptedProposal[],
): Promise<ImportWriteCounts> {
  const { categoryId, categoriesCreated } = await ensureImportCategories(tx, events, eventId, accepted);
  const existing = await repo.existingByPrId(tx, eventId);
  const counts = { created: 0, updated: 0, unchanged: 0 };
  const inserts: repo.ProposalInsert[] = [];
  const authorsOf = new Map<string, string[]>();
  for (const { document, fields, categoryTitle } of accepted) {
    const authors = [...new Set([...document.authors, ...document.collaborators].map(catalystKey))].sort();
    const values = {
      eventId,
      prId: document.id,
      version: document.ver ?? null,
      templateId: templateIdOf(document),
      title: fields.title,
      summary: fields.summary,
      solution: fields.solution,
      proposerName: fields.proposerName,
      funds: fields.funds,
      currency: fields.currency,
      url: document.url ?? null,
      categoryId: categoryTitle ? (categoryId.get(categoryTitle.toLowerCase()) ?? null) : null,
      extra: fields.extra,
    };
    const contentHash = fingerprint({ ...values, eventId: undefined, authors });
    const found = existing.get(document.id);
    if (!found) {
      inserts.push({ ...values, contentHash });
      authorsOf.set(document.id, authors);
      counts.created += 1;
    } else if (found.contentHash === contentHash) {
      counts.unchanged += 1;
    } else {
      await repo.updateProposal(tx, found.id, { ...values, contentHash });
      authorsOf.set(document.id, authors);
      counts.updated += 1;
    }
  }
  await insertWithAuthors(tx, inserts, authorsOf);
  const changed = [...existing.values()].filter((row) => authorsOf.has(row.prId));
  await repo.replaceAuthors(
    tx,
    changed.map((row) => row.id),
    changed.flatMap((row) => authorsOf.get(row.prId)!.map((key) => ({ proposalId: row.id, catalystKey: key }))),
  );
  return { ...counts, categoriesCreated };
}

/** The event's categories for the accepted documents (added where missing), by lower-case title. */
async function ensureImportCategories(tx: DbOrTx, events: EventCategories, eventId: number, accepted: AcceptedProposal[]) {
  const before = new Set((await events.categoriesOf(tx, eventId)).map((category) => category.title.toLowerCase()));
  const titles = [
    ...new Map(
      accepted.filter((item) => item.categoryTitle).map((item) => [item.categoryTitle!.toLowerCase(), item.categoryTitle!]),
    ).values(),
  ];
  const rows = await events.ensureCategories(
    tx,
    eventId,
    titles.map((title) => ({ title })),
  );
  return {
    categoryId: new Map(rows.map((row) => [row.title.toLowerCase(), row.id])),
    categoriesCreated: titles.filter((title) => !before.has(title.toLowerCase())),
  };
}

/** New proposals, 500 a statement, and their authors. */
async function insertWithAuthors(tx: DbOrTx, inserts: repo.ProposalInsert[], authorsOf: Map<string, string[]>) {
  for (let start = 0; start < inserts.length; start += 500) {
    const rows = await repo.insertProposals(tx, inserts.slice(start, start + 500));
    const ids = new Map(rows.map((row) => [row.prId, row.id]));
    await repo.replaceAuthors(
      tx,
      [],
      rows.flatMap((row) => (authorsOf.get(row.prId) ?? []).map((key) => ({ proposalId: ids.get(row.prId)!, catalystKey: key }))),
    );
  }
}
