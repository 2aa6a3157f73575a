import { outcomeMessages, type ScoreParams, type ScoreResult } from '@cr/contract/outcomes';
import { computeProposalScores, type ProposalScore, type ScoreReview } from '../../domain/proposal-scores';
import type { DbOrTx } from '../../db/client';
import { conflict } from '../../errors';
import type { AdminRun, RunsService } from '../runs/runs.service';
import { readRunFlags } from '../runs/runs.service';
import * as repo from './outcomes.repository';

interface Loaded {
  proposals: { id: number; prId: string; title: string }[];
  reviews: ScoreReview[];
}

interface Scored {
  scores: ProposalScore[];
  rows: ScoreResult;
}

/**
 * Proposal scores (DOMAIN.md "Proposal scores", spec §3 "Score parameters", §7 `POST proposals/generate-results`)
 * as an irreversible admin run over the included reviews, so the review outcomes must exist first (409 otherwise,
 * dry run included). Value for money is the third criterion, the auditability rating. A real run stores the scores
 * (table proposal_scores) and sets proposal_scores_generated; the answer is the §3 list, one row per proposal.
 */
export const proposalScoresRun: AdminRun<ScoreParams, Loaded, Scored, ScoreResult> = {
  action: 'proposals.scores',
  flag: 'proposal_scores_generated',
  once: true,

  async load(tx, params) {
    const flags = await readRunFlags(tx, params.event_id);
    if (!flags.value.review_outcomes_generated) throw conflict(outcomeMessages.outcomesFirst);
    const proposals = await repo.scoreProposals(tx, params.event_id);
    return { proposals, reviews: await repo.scoreReviews(tx, params.event_id) };
  },

  compute(loaded, params) {
    const scores = computeProposalScores(
      loaded.proposals.map((proposal) => proposal.id),
      loaded.reviews,
      { allocationWeights: params.allocation_weights, levelWeights: params.level_weights },
    );
    const rows = scores.map(({ proposal: _id, ...score }, i) => {
      const proposal = loaded.proposals[i]!;
      return { proposal: { row_id: proposal.id, pr_id: proposal.prId, title: proposal.title }, ...score };
    });
    return { result: { scores, rows }, stats: rows };
  },

  write: (tx, scored, params) => repo.writeScores(tx, params.event_id, scored.scores),

  // The audit entry keeps a summary, not one row per proposal.
  auditedStats: (rows) => ({
    nr_of_proposals: rows.length,
    nr_of_scored_proposals: rows.filter((row) => row.score_weighted_avg !== null).length,
  }),
};

/** `POST proposals/generate-results`. */
export function createProposalScoresService(deps: {
  runs: RunsService;
  /** Closes the event's undecided appeals (issue 28 item 2) in the run's transaction: the scores end their window. */
  appeals?: { closeForScores(tx: DbOrTx, eventId: number, actorUserId: number): Promise<unknown> };
}) {
  const { appeals } = deps;
  const runOf = (actorUserId: number): typeof proposalScoresRun =>
    appeals
      ? {
          ...proposalScoresRun,
          write: async (tx, scored, params) => {
            await proposalScoresRun.write(tx, scored, params);
            await appeals.closeForScores(tx, params.event_id, actorUserId);
          },
        }
      : proposalScoresRun;
  return {
    generate: (actorUserId: number, params: ScoreParams): Promise<ScoreResult> =>
      deps.runs.execute(actorUserId, runOf(actorUserId), params),
  };
}
export type ProposalScoresService = ReturnType<typeof createProposalScoresService>;
