import { doublePrecision, index, integer, pgTable } from 'drizzle-orm/pg-core';
import { events } from './events';
import { proposals } from './proposals';

/**
 * A proposal's scores, written once by the proposal scores run (DOMAIN.md "Proposal scores", spec §3 "Score
 * parameters"): the weighted means over its included reviews (null when it has none) and the counts. The proposal
 * page's score widget and the exports read them.
 */
export const proposalScores = pgTable(
  'proposal_scores',
  {
    proposalId: integer('proposal_id')
      .primaryKey()
      .references(() => proposals.id, { onDelete: 'cascade' }),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    overall: doublePrecision('overall'),
    impact: doublePrecision('impact'),
    feasibility: doublePrecision('feasibility'),
    valueForMoney: doublePrecision('value_for_money'),
    nrReviews: integer('nr_reviews').notNull(),
    nrAllocatedReviews: integer('nr_allocated_reviews').notNull(),
    nrIncludedReviews: integer('nr_included_reviews').notNull(),
    nrExcludedReviews: integer('nr_excluded_reviews').notNull(),
    nrExcludedByModerationReviews: integer('nr_excluded_by_moderation_reviews').notNull(),
    nrExcludedByThresholdReviews: integer('nr_excluded_by_threshold_reviews').notNull(),
  },
  (table) => [index('proposal_scores_event_idx').on(table.eventId, table.proposalId)],
);
