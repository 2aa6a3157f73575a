import { FlagType, type ComputeFlagsParams, type ExternalFlag, type FlagRunStats } from '@cr/contract/flags';
import { type FlagResult } from '../../domain/flags/compute-flags';
import { computeFlagsOnThreads } from './flag-threads';
import { ProfanityMatcher } from '../../domain/flags/profanity';
import type { Db, DbOrTx } from '../../db/client';
import { ValidationFailure } from '../../errors';
import { recordAudit } from '../system/audit.service';
import type { AdminRun, RunsService } from '../runs/runs.service';
import * as repo from './flags.repository';

/** Flag rows are computed (0) or loaded from an outside tool's file (1). */
export const FlagSource = { computed: 0, file: 1 } as const;
const COMPUTED_TYPES = [FlagType.profanity, FlagType.similarity, FlagType.ai_generated];

/** One matcher per process: its token cache makes every later run faster. */
const profanity = new ProfanityMatcher();

/** Loads an event's notes and computes its flags (DOMAIN.md "Flags"); pure apart from the read. */
export async function loadAndComputeFlags(db: DbOrTx, eventId: number, thresholds: { similarity: number; aiGenerated: number }) {
  const rows = await repo.reviewNotes(db, eventId);
  const result = await computeFlagsOnThreads(
    rows.map((row) => ({ id: row.id, notes: [row.impact, row.feasibility, row.auditability] as const })),
    {
      similarityThreshold: thresholds.similarity,
      aiGeneratedThreshold: thresholds.aiGenerated,
      profanity,
      onThreadError: (error) => console.warn('Compute flags: the worker thread failed; computing on the main thread.', error),
    },
  );
  return { reviews: rows.length, result };
}

export function flagRows(eventId: number, result: FlagResult): repo.FlagRowInsert[] {
  const rows: repo.FlagRowInsert[] = [];
  for (const [reviewId, flags] of result.flags)
    for (const flag of flags)
      rows.push({
        eventId,
        reviewId,
        flagType: flag.flag_type,
        score: flag.score,
        relatedReviews: flag.related_reviews,
        relatedCriteria: flag.related_criteria,
        source: FlagSource.computed,
      });
  return rows;
}

export function flagStats(reviews: number, result: FlagResult, dryRun: boolean): FlagRunStats & { dry_run: boolean } {
  return { reviews, flagged: result.flags.size, per_type: result.perType, dry_run: dryRun };
}

/**
 * "Compute flags" as an admin run: a dry run answers the counts per type; a real run replaces the event's computed
 * flags of all three types and sets `flags_computed`. It may run again (flags follow the reviews), so not `once`.
 */
export const computeFlagsRun: AdminRun<
  ComputeFlagsParams,
  Awaited<ReturnType<typeof loadAndComputeFlags>>,
  FlagResult,
  FlagRunStats & { dry_run: boolean }
> = {
  action: 'flags.compute',
  flag: 'flags_computed',
  once: false,
  load: (tx, params) =>
    loadAndComputeFlags(tx, params.event_id, { similarity: params.similarity_threshold, aiGenerated: params.ai_generated_threshold }),
  compute: (input, params) => ({ result: input.result, stats: flagStats(input.reviews, input.result, params.dry_run) }),
  write: (tx, result, params) => replaceComputedFlags(tx, params.event_id, result),
};

/** Replaces the event's flags of all three types with computed ones. */
export const replaceComputedFlags = (tx: DbOrTx, eventId: number, result: FlagResult) =>
  repo.replaceFlags(tx, eventId, COMPUTED_TYPES, flagRows(eventId, result));

/** The ids of the event's flagged reviews (computed or loaded). */
export const flaggedReviewIds = repo.flaggedReviewIds;

export const flagErrors = {
  unknownReviews: (ids: number[]) =>
    `Not reviews of this event: ${ids.slice(0, 20).join(', ')}${ids.length > 20 ? ` and ${ids.length - 20} more` : ''}`,
};

export function createFlagsService(deps: { db: Db; runs: RunsService; events: { get(eventId: number): Promise<unknown> } }) {
  const { db } = deps;
  return {
    compute: (actorUserId: number, params: ComputeFlagsParams) => deps.runs.execute(actorUserId, computeFlagsRun, params),

    /**
     * Loads flags computed by an outside tool: each line names a review of the event; the file replaces the event's
     * flags of every type it contains (computed or loaded before), in one transaction, audited. Lines naming a review
     * outside the event are refused together (422), so nothing is half-loaded.
     */
    async importFile(actorUserId: number, eventId: number, lines: ExternalFlag[]) {
      await deps.events.get(eventId);
      const ids = [...new Set(lines.flatMap((line) => [line.review_id, ...line.related_reviews]))];
      const known = await repo.reviewIdsOfEvent(db, eventId, ids);
      const unknown = ids.filter((id) => !known.has(id));
      if (unknown.length > 0)
        throw new ValidationFailure([{ loc: ['body', 'flags'], msg: flagErrors.unknownReviews(unknown), type: 'value_error' }]);
      const types = [...new Set(lines.map((line) => line.flag_type))].sort();
      // One row per review and type: a later line for the same pair wins.
      const byKey = new Map<string, ExternalFlag>();
      for (const line of lines) byKey.set(`${line.review_id}/${line.flag_type}`, line);
      const rows = [...byKey.values()].map((line) => ({
        eventId,
        reviewId: line.review_id,
        flagType: line.flag_type,
        score: line.score,
        relatedReviews: line.related_reviews,
        relatedCriteria: line.related_criteria,
        source: FlagSource.file,
      }));
      await db.transaction(async (tx) => {
        await repo.replaceFlags(tx, eventId, types, rows);
        await recordAudit(tx, {
          actorUserId,
          action: 'flags.import',
          entity: 'event',
          entityId: String(eventId),
          eventId,
          before: null,
          after: { types, flags: rows.length },
        });
      });
      return { flags: rows.length, types };
    },
  };
}
export type FlagsService = ReturnType<typeof createFlagsService>;
