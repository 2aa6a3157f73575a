import type { ImportOptions, ImportResult, ParsedImportFile } from '@cr/contract/proposals';
import { RegistrationStatus } from '@cr/contract/users';
import type { CatalystRegistry } from '../../adapters/catalyst-registry';
import { categoryTitleOfTemplate, readProposal, type ProposalFields } from '../../domain/proposal-document';
import { ValidationFailure } from '../../errors';

export const importSelectionMessages = {
  unknownTemplate: 'This template is not in the file’s templates.',
  skipped: {
    notSelected: 'not in the chosen categories',
    noTitle: 'the document has no title (setup.title.title)',
    noAuthor: 'the document names no author',
    unknownAuthor: 'an author is not registered (accept_non_existent_users is off)',
    volatileAuthor: 'an author’s registration is not persistent yet (accept_non_persistent_users is off)',
    olderVersion: 'a newer version of this document is in the file',
  },
};
const skipped = importSelectionMessages.skipped;

/** How many skipped proposals the answer lists one by one (the counts cover all of them). */
const LISTED_SKIPS = 200;

/** The chosen categories' titles as the import compares them (lower case; none = all). */
export const chosenCategories = (options: ImportOptions) =>
  new Set(options.categories.map((title) => title.trim().toLowerCase()).filter(Boolean));

export type ProposalDocument = ParsedImportFile['documents'][number];

export const templateIdOf = (document: ProposalDocument) =>
  typeof document.template === 'string' ? document.template : document.template.id;

/** A document to import, read through its template, with the title of its category (null: none). */
export interface AcceptedProposal {
  document: ProposalDocument;
  fields: ProposalFields & { title: string };
  categoryTitle: string | null;
}

export interface ImportSelection {
  accepted: AcceptedProposal[];
  skippedCount: number;
  /** The first LISTED_SKIPS skipped documents, with the reason of each. */
  skipped: ImportResult['skipped_proposals'];
}

/**
 * Which documents of the file an import takes (spec §3 "Import options"): the newest version of each, in the chosen
 * categories (none = all), with a title, and with authors the registry knows as the options ask. Refuses a file whose
 * documents name a template it does not hold.
 */
export async function selectDocuments(
  file: ParsedImportFile,
  options: ImportOptions,
  registry: CatalystRegistry,
): Promise<ImportSelection> {
  refuseUnknownTemplates(file);
  const selection: ImportSelection = { accepted: [], skippedCount: 0, skipped: [] };
  const skip = (document: ProposalDocument, title: string | null, reason: string) => {
    selection.skippedCount += 1;
    if (selection.skipped.length < LISTED_SKIPS) selection.skipped.push({ pr_id: document.id, title, reason });
  };
  const latest = latestVersions(file.documents, (older) => skip(older, null, skipped.olderVersion));

  const wanted = chosenCategories(options);
  const needStatus = options.accept_non_existent_users === false || options.accept_non_persistent_users === false;
  const statuses = needStatus ? await authorStatuses(registry, latest) : new Map<string, number>();
  for (const document of latest) {
    const template = file.templates[templateIdOf(document)]!;
    const schema = template.schema as Record<string, unknown>;
    const fields = readProposal(schema, document.payload as Record<string, unknown>);
    const categoryRef = document.category ?? template.category ?? null;
    const named = categoryRef && Object.hasOwn(file.categories, categoryRef) ? file.categories[categoryRef] : undefined;
    const categoryTitle = categoryRef ? (named ?? categoryTitleOfTemplate(schema)) : null;
    const reason =
      wanted.size > 0 && !(categoryTitle && wanted.has(categoryTitle.toLowerCase()))
        ? skipped.notSelected
        : !fields.title
          ? skipped.noTitle
          : needStatus
            ? authorSkipReason(document.authors, statuses, options)
            : null;
    if (reason) skip(document, reason === skipped.noTitle ? null : fields.title, reason);
    else selection.accepted.push({ document, fields: fields as AcceptedProposal['fields'], categoryTitle });
  }
  return selection;
}

function refuseUnknownTemplates(file: ParsedImportFile) {
  const unknown = file.documents.flatMap((document, index) => (Object.hasOwn(file.templates, templateIdOf(document)) ? [] : [index]));
  if (unknown.length === 0) return;
  throw new ValidationFailure(
    unknown.slice(0, 50).map((index) => ({
      loc: ['body', 'import_options', 'file', 'documents', index, 'template'],
      msg: importSelectionMessages.unknownTemplate,
      type: 'unknown_template',
    })),
  );
}

/** The newest version of each document id (uuid7 versions sort by time); `onOlder` hears of each other one. */
function latestVersions(documents: ProposalDocument[], onOlder: (document: ProposalDocument) => void): ProposalDocument[] {
  const latest = new Map<string, ProposalDocument>();
  for (const document of documents) {
    const seen = latest.get(document.id);
    if (!seen || (document.ver ?? '') > (seen.ver ?? '')) {
      if (seen) onOlder(seen);
      latest.set(document.id, document);
    } else onOlder(document);
  }
  return [...latest.values()];
}

/** Registration status per author key, asked once each, 16 at a time. */
async function authorStatuses(registry: CatalystRegistry, documents: ProposalDocument[]) {
  const statuses = new Map<string, number>();
  const unique = [...new Set(documents.flatMap((document) => document.authors))];
  for (let start = 0; start < unique.length; start += 16) {
    const batch = unique.slice(start, start + 16);
    const results = await Promise.all(batch.map((id) => registry.registrationStatus(id)));
    batch.forEach((id, i) => statuses.set(id, results[i]!));
  }
  return statuses;
}

/** Why the authors keep a document out, when the options ask about their registration; null when they don't. */
function authorSkipReason(authors: string[], statuses: Map<string, number>, options: ImportOptions): string | null {
  if (authors.length === 0) return skipped.noAuthor;
  const status = authors.map((author) => statuses.get(author));
  if (options.accept_non_existent_users === false && status.some((value) => value === RegistrationStatus.not_found))
    return skipped.unknownAuthor;
  const notPersistent = (value: number | undefined) => value !== RegistrationStatus.persistent && value !== RegistrationStatus.not_found;
  if (options.accept_non_persistent_users === false && status.some(notPersistent)) return skipped.volatileAuthor;
  return null;
}
