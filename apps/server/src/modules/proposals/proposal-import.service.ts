import type { ImportOptions, ImportResult } from '@cr/contract/proposals';
import type { CatalystRegistry } from '../../adapters/catalyst-registry';
import type { Db, DbOrTx } from '../../db/client';
import type { EventsService } from '../events/events.service';
import { recordAudit } from '../system/audit.service';
import { loadImportFile, type GatewaySettings } from './proposal-import-source';
import { chosenCategories, selectDocuments } from './proposal-import-selection';
import { writeProposals } from './proposal-import-write';

class DryRunRollback extends Error {}

/**
 * Proposal import (spec §2.17 "Import Proposals", DOMAIN.md "Import and export"): the file of the chosen source
 * (proposal-import-source.ts), the documents it takes (proposal-import-selection.ts), upserted by document id
 * (proposal-import-write.ts), so that importing the same file twice changes nothing. A dry run does all of it in a
 * transaction that is rolled back.
 */
export function createProposalImportService(
  deps: GatewaySettings & {
    db: Db;
    events: EventsService;
    registry: CatalystRegistry;
    /** Called after a real import changed the event's proposals (the list's cached totals, the dashboard). */
    onChange?: (eventId: number) => void;
  },
) {
  const { db, events, registry } = deps;
  return {
    async import(actorUserId: number, eventId: number, options: ImportOptions): Promise<ImportResult> {
      const event = await events.get(eventId);
      const file = await loadImportFile(deps, options, [...chosenCategories(options)]);
      const { accepted, skipped, skippedCount } = await selectDocuments(file, options, registry);

      const write = async (tx: DbOrTx) => {
        // One import per event at a time; a re-import of the same file then finds every row unchanged.
        await events.lockEvent(tx, event.row_id);
        const { created, updated, unchanged, categoriesCreated } = await writeProposals(tx, events, event.row_id, accepted);
        const result: ImportResult = {
          dry_run: options.dry_run,
          created,
          updated,
          unchanged,
          skipped: skippedCount,
          categories_created: categoriesCreated,
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
        deps.onChange?.(event.row_id);
        return result;
      } catch (error) {
        if (error instanceof DryRunRollback) return JSON.parse(error.message) as ImportResult;
        throw error;
      }
    },
  };
}
export type ProposalImportService = ReturnType<typeof createProposalImportService>;
