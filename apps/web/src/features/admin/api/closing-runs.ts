import type { OutcomeParams, OutcomeStats, ScoreParams, ScoreResult, VoteExportConfig } from '@cr/contract/outcomes';
import { api } from '../../../lib/api-client';
import { useInvalidatingMutation } from '../../../lib/invalidations';

/**
 * Closing a round (issue 15; spec §7): the review outcomes and proposal scores runs and the exports. A real run
 * sets its flag in the event's allocation config (review_outcomes_generated, proposal_scores_generated), which the
 * event configuration screen reads to disable the form; that config, the rankings, the scores, the profiles' stats
 * and the Overview go stale after one (lib/invalidations).
 */

/** `POST proposal-reviews/generate-results` with results_params (G-005); 409 after a real run. */
export function generateReviewOutcomes(params: OutcomeParams) {
  return api<OutcomeStats>('proposal-reviews/generate-results', { method: 'POST', body: { results_params: params } });
}

/** `POST proposals/generate-results` with results_params (G-014); 409 after a real run or before the outcomes. */
export function generateProposalScores(params: ScoreParams) {
  return api<ScoreResult>('proposals/generate-results', { method: 'POST', body: { results_params: params } });
}

/** `_eventId`: what the run forms pass; the table's prefixes reach every event, so it is not needed. */
export function useGenerateReviewOutcomes(_eventId?: number) {
  return useInvalidatingMutation('generateOutcomes', {
    mutationFn: (params: OutcomeParams) => generateReviewOutcomes(params),
    changedNothing: (stats) => stats.dry_run,
  });
}

export function useGenerateProposalScores(_eventId?: number) {
  return useInvalidatingMutation('generateScores', {
    mutationFn: (params: ScoreParams) => generateProposalScores(params),
    changedNothing: (_rows, params) => params.dry_run === true,
  });
}

/** The four CSV downloads of spec §7 "Exports" (G-025..G-028), by the paths of the reference. */
export const CSV_EXPORTS = ['reviews', 'fullReviews', 'moderations', 'moderatorStats'] as const;
export type CsvExport = (typeof CSV_EXPORTS)[number];

export function csvExportPath(which: CsvExport, eventId: number): { path: string; query?: Record<string, number> } {
  switch (which) {
    case 'reviews':
      return { path: `proposal-reviews/export/csv/${eventId}/` };
    case 'fullReviews':
      return { path: `proposal-reviews/export/full-csv/${eventId}` };
    case 'moderations':
      return { path: 'moderations/export/csv', query: { event_id: eventId } };
    case 'moderatorStats':
      return { path: 'moderations/moderator-stats/', query: { event_id: eventId } };
  }
}

/** Downloads one CSV through the API client (bearer token), saved under the server's file name. */
export function downloadCsv(which: CsvExport, eventId: number) {
  const { path, query } = csvExportPath(which, eventId);
  return api<void>(path, { query, download: true });
}

/** `POST admin/vitss-export` with export_config (G-024): the answer is saved as a file. */
export function downloadVoteExport(config: VoteExportConfig) {
  return api<void>('admin/vitss-export', { method: 'POST', body: { export_config: config }, download: true });
}
