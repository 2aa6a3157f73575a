import type { OutcomeParams, OutcomeStats } from '@cr/contract/outcomes';
import { computeReviewOutcomes, isValidReview, type OutcomeReview, type OutcomeResult } from '../../domain/review-outcomes';
import type { DbOrTx } from '../../db/client';
import type { AdminRun, RunsService } from '../runs/runs.service';
import * as repo from './outcomes.repository';

interface Loaded {
  reviews: OutcomeReview[];
  /** Reviewer (user id) → their anonymous id: the statistics list excluded reviewers by it, never by name. */
  assessorOf: Map<number, string>;
}

/** Excluded reviewers with their approval rate (valid ÷ moderated), lowest first: the statistics modal's list. */
function excludedReviewers(loaded: Loaded, result: OutcomeResult, validityThreshold: number) {
  const excluded = new Map<number, { moderated: number; valid: number }>();
  for (const review of loaded.reviews) {
    if (result.rankings.get(review.id) !== repo.ReviewRanking.excluded_threshold) continue;
    const tally = excluded.get(review.reviewer) ?? { moderated: 0, valid: 0 };
    if (review.moderations.length > 0) {
      tally.moderated += 1;
      if (isValidReview(review.moderations, validityThreshold)) tally.valid += 1;
    }
    excluded.set(review.reviewer, tally);
  }
  return [...excluded.entries()]
    .map(([reviewer, tally]) => ({
      assessor: loaded.assessorOf.get(reviewer) ?? '',
      moderated: tally.moderated,
      approval_rate: tally.moderated === 0 ? 0 : Math.round((tally.valid / tally.moderated) * 10_000) / 10_000,
    }))
    .sort((a, b) => a.approval_rate - b.approval_rate || a.assessor.localeCompare(b.assessor));
}

/**
 * Review outcomes (DOMAIN.md "Review outcomes", spec §2.17, §3 "Outcome parameters", §7
 * `POST proposal-reviews/generate-results`) as an irreversible admin run: every review of the event with its
 * moderations' classifications is ranked by the pure rule; a real run writes every ranking in its transaction and
 * sets review_outcomes_generated, after which reviews are public (DOMAIN.md "Reviews").
 */
export const reviewOutcomesRun: AdminRun<OutcomeParams, Loaded, OutcomeResult, OutcomeStats> = {
  action: 'reviews.outcomes',
  flag: 'review_outcomes_generated',
  once: true,

  load: (tx, params) => repo.outcomeReviews(tx, params.event_id),

  compute(loaded, params) {
    const result = computeReviewOutcomes(loaded.reviews, {
      validityThreshold: params.validity_threshold,
      acceptanceThreshold: params.acceptance_threshold,
      minimumSample: params.minimum_sample,
    });
    return {
      result,
      stats: {
        event_id: params.event_id,
        ...result.stats,
        excluded_reviewers: excludedReviewers(loaded, result, params.validity_threshold),
        dry_run: params.dry_run,
      },
    };
  },

  write: (tx, result, params) => repo.writeRankings(tx, params.event_id, result.rankings),

  // The audit entry keeps the counts; the excluded reviewers are in the rankings themselves.
  auditedStats: ({ excluded_reviewers: _excluded, ...counts }) => counts,
};

/** `POST proposal-reviews/generate-results`. */
export function createReviewOutcomesService(deps: {
  runs: RunsService;
  /** Mails each reviewer of the round their own outcome (issue 27), in the run's transaction. */
  notifications?: { reviewOutcomesDone(tx: DbOrTx, eventId: number): Promise<unknown> };
}) {
  const { notifications } = deps;
  const run: typeof reviewOutcomesRun = notifications
    ? { ...reviewOutcomesRun, notify: (tx, params) => notifications.reviewOutcomesDone(tx, params.event_id) }
    : reviewOutcomesRun;
  return {
    generate: (actorUserId: number, params: OutcomeParams): Promise<OutcomeStats> => deps.runs.execute(actorUserId, run, params),
  };
}
export type ReviewOutcomesService = ReturnType<typeof createReviewOutcomesService>;
