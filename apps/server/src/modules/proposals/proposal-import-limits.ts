import { FUNDS_PATH, MAX_FUNDS, type ProposalFields } from '../../domain/proposal-document';

/**
 * What one proposal document may put in the database (issue 26 items 2 and 3; docs/features.md "Importing proposals"). A
 * document past a limit is skipped with the reason, as one without a title is: a gateway serves every proposer's
 * document, and one of them must not fail the import of all the others with a 500 — a bigint overflow, a Catalyst ID
 * or category title too long for its index, or 100,000 authors in one statement (a stack overflow in the query
 * builder; 30,000 took 3 s).
 */
export const IMPORT_LIMITS = {
  /** Authors and collaborators named by one document: a proposal's team, not a crowd. */
  authors: 100,
  /** The length of an author's Catalyst ID, as registration bounds it (contract `catalystIdSchema`). */
  catalystIdLength: 500,
  /** The length of a category title, as an event name's. */
  categoryTitleLength: 200,
} as const;

export const limitReasons = {
  funds: `the requested funds (${FUNDS_PATH}) are more than ${MAX_FUNDS}`,
  authors: `the document names more than ${IMPORT_LIMITS.authors} authors and collaborators`,
  catalystId: `an author’s Catalyst ID is longer than ${IMPORT_LIMITS.catalystIdLength} characters`,
  categoryTitle: `the category title is longer than ${IMPORT_LIMITS.categoryTitleLength} characters`,
};

/** Why the document's authors cannot be kept, or null. Cheap: asked before any registration is looked up. */
export function authorsProblem(document: { authors: string[]; collaborators: string[] }): string | null {
  if (document.authors.length + document.collaborators.length > IMPORT_LIMITS.authors) return limitReasons.authors;
  const tooLong = (id: string) => id.length > IMPORT_LIMITS.catalystIdLength;
  if (document.authors.some(tooLong) || document.collaborators.some(tooLong)) return limitReasons.catalystId;
  return null;
}

/** Why the document's columns cannot be kept, or null. */
export function fieldsProblem(fields: ProposalFields, categoryTitle: string | null): string | null {
  if (fields.fundsOutOfRange) return limitReasons.funds;
  if (categoryTitle && categoryTitle.length > IMPORT_LIMITS.categoryTitleLength) return limitReasons.categoryTitle;
  return null;
}
