import { createHash } from 'node:crypto';
import { importFile, type ImportFile, type ImportOptions, type ImportResult, type ParsedImportFile } from '@cr/contract/proposals';
import { RegistrationStatus } from '@cr/contract/users';
import type { CatalystRegistry } from '../../adapters/catalyst-registry';
import type { Db, DbOrTx } from '../../db/client';
import { catalystKey, categoryTitleOfTemplate, readProposal, type ProposalFields } from '../../domain/proposal-document';
import { AppError, badRequest, ValidationFailure } from '../../errors';
import { GatewayError, GatewayRefused } from '../../adapters/catalyst-gateway';
import { hostPermitted } from '../../lib/outbound';
import type { EventsService } from '../events/events.service';
import { recordAudit } from '../system/audit.service';
import * as repo from './proposals.repository';
import { authorsProblem, fieldsProblem } from './proposal-import-limits';
import { sampleImportFile } from './sample';

export const importMessages = {
  noGateway: 'No Catalyst Gateway is configured: set PROPOSALS_SOURCE_URL or give a gateway URL.',
  gatewayNotAllowed: 'This gateway is not allowed: the server imports only from PROPOSALS_SOURCE_URL and the hosts in GATEWAY_ALLOWLIST.',
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

/** How many skipped proposals the answer lists one by one (the counts cover all of them). */
const LISTED_SKIPS = 200;

/** Reads documents from a Catalyst Gateway into the upload format (adapters/catalyst-gateway). */
export type GatewaySource = (url: string, options: { categories: string[] }) => Promise<ImportFile>;

class DryRunRollback extends Error {}

type ProposalDocument = ParsedImportFile['documents'][number];

const templateIdOf = (document: ProposalDocument) => (typeof document.template === 'string' ? document.template : document.template.id);

/** A stable fingerprint of what a document puts in the database: equal ones leave the row as it is. */
function fingerprint(values: unknown): string {
  return createHash('sha256').update(JSON.stringify(values)).digest('hex');
}

/**
 * Proposal import (spec §2.17 "Import Proposals", DOMAIN.md "Import and export"): documents read through their
 * templates, upserted by document id, so that importing the same file twice changes nothing. A dry run does all of
 * it in a transaction that is rolled back.
 */
export function createProposalImportService(deps: {
  db: Db;
  events: EventsService;
  registry: CatalystRegistry;
  gateway?: GatewaySource | undefined;
  gatewayUrl?: string | undefined;
  /** GATEWAY_ALLOWLIST: the hosts besides PROPOSALS_SOURCE_URL's that an admin may import from (lib/outbound). */
  gatewayAllowlist?: string[];
  /** Called after a real import changed proposals (the list's cached totals). */
  onChange?: () => void;
}) {
  const { db, events, registry } = deps;

  async function loadFile(options: ImportOptions, categories: string[]): Promise<ParsedImportFile> {
    let content: unknown = options.file;
    if (options.source === 'sample') content = sampleImportFile();
    if (options.source === 'gateway') {
      const url = options.gateway_url ?? deps.gatewayUrl;
      if (!url || !deps.gateway) throw badRequest(importMessages.noGateway);
      const notAllowed = (msg: string) =>
        new ValidationFailure([{ loc: ['body', 'import_options', 'gateway_url'], msg, type: 'not_allowed' }]);
      if (!hostPermitted(new URL(url), { sourceUrl: deps.gatewayUrl, allowlist: deps.gatewayAllowlist ?? [] })) {
        throw notAllowed(importMessages.gatewayNotAllowed);
      }
      try {
        content = await deps.gateway(url, { categories });
      } catch (error) {
        // A gateway_url the admin gave that resolves to a private address is their request refused (422, issue 26
        // item 9), as a host outside the allowlist is; PROPOSALS_SOURCE_URL refused, or any gateway failing, is 502.
        if (error instanceof GatewayRefused && options.gateway_url) throw notAllowed(error.message);
        if (error instanceof GatewayError) throw new AppError(502, error.message);
        throw error;
      }
    }
    const parsed = importFile.safeParse(content);
    if (!parsed.success) {
      throw new ValidationFailure(
        parsed.error.issues.slice(0, 50).map((issue) => ({
          loc: ['body', 'import_options', 'file', ...issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part))],
          msg: issue.message,
          type: issue.code,
        })),
      );
    }
    return parsed.data;
  }

  /** Registration status per author key, asked once each. */
  async function authorStatuses(documents: ProposalDocument[]) {
    const statuses = new Map<string, number>();
    const unique = [...new Set(documents.flatMap((document) => document.authors))];
    for (let start = 0; start < unique.length; start += 16) {
      const batch = unique.slice(start, start + 16);
      const results = await Promise.all(batch.map((id) => registry.registrationStatus(id)));
      batch.forEach((id, i) => statuses.set(id, results[i]!));
    }
    return statuses;
  }

  return {
    async import(actorUserId: number, eventId: number, input: ImportOptions): Promise<ImportResult> {
      const event = await events.get(eventId);
      const options = input;
      const wanted = new Set(options.categories.map((title) => title.trim().toLowerCase()).filter(Boolean));
      const file = await loadFile(options, [...wanted]);

      const unknown = file.documents.flatMap((document, index) => (Object.hasOwn(file.templates, templateIdOf(document)) ? [] : [index]));
      if (unknown.length > 0) {
        throw new ValidationFailure(
          unknown.slice(0, 50).map((index) => ({
            loc: ['body', 'import_options', 'file', 'documents', index, 'template'],
            msg: importMessages.unknownTemplate,
            type: 'unknown_template',
          })),
        );
      }

      const skipped: ImportResult['skipped_proposals'] = [];
      let skippedCount = 0;
      const skip = (document: ProposalDocument, title: string | null, reason: string) => {
        skippedCount += 1;
        if (skipped.length < LISTED_SKIPS) skipped.push({ pr_id: document.id, title, reason });
      };

      // The newest version of each document id (uuid7 versions sort by time).
      const latest = new Map<string, ProposalDocument>();
      for (const document of file.documents) {
        const seen = latest.get(document.id);
        if (!seen || (document.ver ?? '') > (seen.ver ?? '')) {
          if (seen) skip(seen, null, importMessages.skipped.olderVersion);
          latest.set(document.id, document);
        } else skip(document, null, importMessages.skipped.olderVersion);
      }

      const needStatus = options.accept_non_existent_users === false || options.accept_non_persistent_users === false;
      // Authors past the limits are never looked up: their documents are skipped below.
      const statuses = needStatus
        ? await authorStatuses([...latest.values()].filter((document) => !authorsProblem(document)))
        : new Map<string, number>();

      const accepted: { document: ProposalDocument; fields: ProposalFields & { title: string }; categoryTitle: string | null }[] = [];
      for (const document of latest.values()) {
        const template = file.templates[templateIdOf(document)]!;
        const schema = template.schema as Record<string, unknown>;
        const fields = readProposal(schema, document.payload as Record<string, unknown>);
        const categoryRef = document.category ?? template.category ?? null;
        const named = categoryRef && Object.hasOwn(file.categories, categoryRef) ? file.categories[categoryRef] : undefined;
        const categoryTitle = categoryRef ? (named ?? categoryTitleOfTemplate(schema)) : null;
        if (wanted.size > 0 && !(categoryTitle && wanted.has(categoryTitle.toLowerCase()))) {
          skip(document, fields.title, importMessages.skipped.notSelected);
          continue;
        }
        if (!fields.title) {
          skip(document, null, importMessages.skipped.noTitle);
          continue;
        }
        const problem = fieldsProblem(fields, categoryTitle) ?? authorsProblem(document);
        if (problem) {
          skip(document, fields.title, problem);
          continue;
        }
        if (needStatus && document.authors.length === 0) {
          skip(document, fields.title, importMessages.skipped.noAuthor);
          continue;
        }
        const authorStatus = document.authors.map((author) => statuses.get(author));
        if (options.accept_non_existent_users === false && authorStatus.some((status) => status === RegistrationStatus.not_found)) {
          skip(document, fields.title, importMessages.skipped.unknownAuthor);
          continue;
        }
        if (
          options.accept_non_persistent_users === false &&
          authorStatus.some((status) => status !== RegistrationStatus.persistent && status !== RegistrationStatus.not_found)
        ) {
          skip(document, fields.title, importMessages.skipped.volatileAuthor);
          continue;
        }
        accepted.push({ document, fields: fields as ProposalFields & { title: string }, categoryTitle });
      }

      const write = async (tx: DbOrTx) => {
        // One import per event at a time; a re-import of the same file then finds every row unchanged.
        await events.lockEvent(tx, event.row_id);
        const before = new Set((await events.categoriesOf(tx, event.row_id)).map((category) => category.title.toLowerCase()));
        const titles = [
          ...new Map(
            accepted.filter((item) => item.categoryTitle).map((item) => [item.categoryTitle!.toLowerCase(), item.categoryTitle!]),
          ).values(),
        ];
        const categoryRows = await events.ensureCategories(
          tx,
          event.row_id,
          titles.map((title) => ({ title })),
        );
        const categoryId = new Map(categoryRows.map((row) => [row.title.toLowerCase(), row.id]));
        const existing = await repo.existingByPrId(tx, event.row_id);
        let created = 0;
        let updated = 0;
        let unchanged = 0;
        const inserts: repo.ProposalInsert[] = [];
        const authorsOf = new Map<string, string[]>();
        for (const { document, fields, categoryTitle } of accepted) {
          const authors = [...new Set([...document.authors, ...document.collaborators].map(catalystKey))].sort();
          const values = {
            eventId: event.row_id,
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
            created += 1;
          } else if (found.contentHash === contentHash) {
            unchanged += 1;
          } else {
            await repo.updateProposal(tx, found.id, { ...values, contentHash });
            authorsOf.set(document.id, authors);
            updated += 1;
          }
        }
        for (let start = 0; start < inserts.length; start += 500) {
          const rows = await repo.insertProposals(tx, inserts.slice(start, start + 500));
          const ids = new Map(rows.map((row) => [row.prId, row.id]));
          await repo.replaceAuthors(
            tx,
            [],
            rows.flatMap((row) => (authorsOf.get(row.prId) ?? []).map((key) => ({ proposalId: ids.get(row.prId)!, catalystKey: key }))),
          );
        }
        const updatedIds = [...existing.values()].filter((row) => authorsOf.has(row.prId)).map((row) => row.id);
        await repo.replaceAuthors(
          tx,
          updatedIds,
          [...existing.values()]
            .filter((row) => authorsOf.has(row.prId))
            .flatMap((row) => authorsOf.get(row.prId)!.map((key) => ({ proposalId: row.id, catalystKey: key }))),
        );
        const result: ImportResult = {
          dry_run: options.dry_run,
          created,
          updated,
          unchanged,
          skipped: skippedCount,
          categories_created: titles.filter((title) => !before.has(title.toLowerCase())),
          skipped_proposals: skipped,
        };
        if (options.dry_run) throw new DryRunRollback(JSON.stringify(result));
        await recordAudit(tx, {
          actorUserId,
          action: 'proposals.import',
          entity: 'event',
          entityId: String(event.row_id),
          eventId: event.row_id,
          before: null,
          after: {
            source: options.source,
            categories: options.categories,
            accept_non_existent_users: options.accept_non_existent_users,
            accept_non_persistent_users: options.accept_non_persistent_users,
            created,
            updated,
            unchanged,
            skipped: skippedCount,
          },
        });
        return result;
      };

      try {
        const result = await db.transaction(write);
        deps.onChange?.();
        return result;
      } catch (error) {
        if (error instanceof DryRunRollback) return JSON.parse(error.message) as ImportResult;
        throw error;
      }
    },
  };
}
export type ProposalImportService = ReturnType<typeof createProposalImportService>;
