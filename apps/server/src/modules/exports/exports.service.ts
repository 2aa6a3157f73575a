import { createSnapshotCache } from '../../lib/snapshot-cache';
import type { VoteExportConfig } from '@cr/contract/outcomes';
import type pg from 'pg';
import type { Db } from '../../db/client';
import { recordAudit } from '../system/audit.service';
import { attachment, csvStream } from './csv';
import { copyCsv } from './csv-copy';
import * as repo from './exports.repository';

/** What the open data (issue 48) writes its tables with: PostgreSQL's COPY, and the formula neutralising of free texts. */
export { copyCsv } from './csv-copy';
export { csvText } from './csv';

export const REVIEW_COLUMNS = ['valid', 'row_id', 'user_id', 'moderations_tot', 'moderations_as_valid'] as const;
export const FULL_REVIEW_COLUMNS = [
  ...REVIEW_COLUMNS,
  'proposal_id',
  'pr_id',
  'proposal_title',
  'assessor',
  'assessor_level',
  'ranking',
  'impact_alignment_rating_given',
  'impact_alignment_note',
  'feasibility_rating_given',
  'feasibility_note',
  'auditability_rating_given',
  'auditability_note',
] as const;

export const MODERATION_COLUMNS = [
  'row_id',
  'event_id',
  'review_id',
  'user_id',
  'public_contact',
  'classification',
  'predefined_reason',
  'rationale',
] as const;

/**
 * Exports (spec §7 "Exports", DOMAIN.md "Import and export"), admins only, each audited. Issue 15 item 3. The CSVs are
 * streamed: on PostgreSQL (`pool` given) by PostgreSQL's own `COPY … TO STDOUT` (csv-copy.ts, the same bytes); on
 * PGlite page by page (keyset pages of EXPORT_PAGE rows) through csvStream.
 */
/** How long a moderation progress snapshot is served before it is recounted. */
const MODERATION_STATS_TTL_MS = 5_000;

export function createExportsService(deps: { db: Db; pool?: pg.Pool | undefined; events: { get(eventId: number): Promise<unknown> } }) {
  const { db, pool, events } = deps;
  const stats = createSnapshotCache<Awaited<ReturnType<typeof repo.moderationStats>>>({
    ttlMs: MODERATION_STATS_TTL_MS,
    name: 'moderation_stats',
  });

  async function* reviewPages(eventId: number, full: boolean) {
    let after = 0;
    for (;;) {
      const page = await repo.reviewExportPage(db, eventId, after, full);
      if (page.length > 0) yield page as Record<string, unknown>[];
      if (page.length < repo.EXPORT_PAGE) return;
      after = page.at(-1)!.row_id;
    }
  }

  async function* moderationPages(eventId: number | null) {
    let after = 0;
    for (;;) {
      const page = await repo.moderationExportPage(db, eventId, after);
      if (page.length > 0) yield page as Record<string, unknown>[];
      if (page.length < repo.EXPORT_PAGE) return;
      after = page.at(-1)!.row_id;
    }
  }

  async function* single<Row>(rows: Promise<Row[]>) {
    yield await rows;
  }

  const audited = (actorUserId: number, what: string, eventId: number | null) =>
    recordAudit(db, {
      actorUserId,
      action: `exports.${what}`,
      entity: 'event',
      entityId: eventId === null ? null : String(eventId),
      eventId,
      before: null,
      after: null,
    });

  return {
    /**
     * `POST admin/vitss-export` (G-023, G-024): for the vote system, the events' proposals with their scores and
     * included reviews, the chain vote options (a list) and type, the threshold and the themes, as a JSON file.
     */
    async voteExport(actorUserId: number, config: VoteExportConfig) {
      const eventIds = [...new Set(config.events_id)];
      for (const eventId of eventIds) await events.get(eventId);
      await audited(actorUserId, 'vitss', null);
      const rows = await repo.voteProposals(db, eventIds);
      const reviewsOf = new Map<number, unknown[]>(rows.map((row) => [row.id, []]));
      for (let after = 0; ;) {
        const page = await repo.voteReviewPage(db, eventIds, after);
        for (const { proposal_id: proposalId, ...review } of page) reviewsOf.get(proposalId)?.push(review);
        if (page.length < repo.EXPORT_PAGE) break;
        after = page.at(-1)!.row_id;
      }
      const document = {
        fund_id: config.fund_id,
        fund_name: config.fund_name,
        events_id: eventIds,
        threshold: config.threshold,
        chain_vote_options: config.chain_vote_options
          .split(',')
          .map((option) => option.trim())
          .filter(Boolean),
        chain_vote_type: config.chain_vote_type,
        themes: config.themes,
        proposals: rows.map(({ id, overall, impact, feasibility, value_for_money: valueForMoney, ...proposal }) => ({
          row_id: id,
          ...proposal,
          score: overall === null ? null : { overall, impact, feasibility, value_for_money: valueForMoney },
          reviews: reviewsOf.get(id)!,
        })),
      };
      const date = new Date().toISOString().slice(0, 10);
      return { filename: `attachment; filename="vitss-export-fund-${config.fund_id}-${date}.json"`, document };
    },

    /**
     * `GET moderations/stats/[?event_id=]`: the moderation's progress (the reference's ModerationStatsPublic). Counting
     * a whole round takes a few hundred milliseconds: a snapshot per event is kept MODERATION_STATS_TTL_MS and
     * recounted in the background while the older one is served (only the first request waits).
     */
    async moderationStats(eventId: number | null) {
      if (eventId !== null) await events.get(eventId);
      return stats.get(String(eventId), () => repo.moderationStats(db, eventId));
    },

    /** `GET moderations/export/csv[?event_id=]`: every moderation (of the event when given). */
    async moderationsCsv(actorUserId: number, eventId: number | null) {
      if (eventId !== null) await events.get(eventId);
      await audited(actorUserId, 'moderations', eventId);
      return {
        filename: attachment('moderations', eventId),
        stream: pool
          ? await copyCsv(pool, repo.moderationExportCopy(eventId))
          : csvStream<Record<string, unknown>>(MODERATION_COLUMNS, moderationPages(eventId)),
      };
    },

    /** `GET moderations/moderator-stats/[?event_id=]`: per moderator, the reviews they moderated (one row each). */
    async moderatorStatsCsv(actorUserId: number, eventId: number | null) {
      if (eventId !== null) await events.get(eventId);
      await audited(actorUserId, 'moderator-stats', eventId);
      return {
        filename: attachment('moderator-stats', eventId),
        stream: pool
          ? await copyCsv(pool, repo.moderatorStatsCopy(eventId))
          : csvStream<Record<string, unknown>>(['user_id', 'reviews_moderated'], single(repo.moderatorStats(db, eventId))),
      };
    },

    /** `GET proposal-reviews/export/csv/{event}/` and `…/full-csv/{event}`: the event's reviews with their moderation counts. */
    async reviewsCsv(actorUserId: number, eventId: number, full: boolean) {
      await events.get(eventId);
      const what = full ? 'reviews-full' : 'reviews';
      await recordAudit(db, {
        actorUserId,
        action: `exports.${what}`,
        entity: 'event',
        entityId: String(eventId),
        eventId,
        before: null,
        after: null,
      });
      const columns = full ? FULL_REVIEW_COLUMNS : REVIEW_COLUMNS;
      return {
        filename: attachment(what, eventId),
        stream: pool
          ? await copyCsv(pool, repo.reviewExportCopy(eventId, full))
          : csvStream<Record<string, unknown>>(columns, reviewPages(eventId, full)),
      };
    },
  };
}
export type ExportsService = ReturnType<typeof createExportsService>;
