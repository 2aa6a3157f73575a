import { index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { events } from './events';
import { proposals } from './proposals';
import { subscriptions } from './subscriptions';

/** A reviewer's review of a proposal (spec §3 "Review"): one per reviewer subscription and proposal. */
export const reviews = pgTable(
  'reviews',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    proposalId: integer('proposal_id')
      .notNull()
      .references(() => proposals.id, { onDelete: 'cascade' }),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    impactRating: smallint('impact_alignment_rating_given').notNull(),
    impactNote: text('impact_alignment_note').notNull(),
    feasibilityRating: smallint('feasibility_rating_given').notNull(),
    feasibilityNote: text('feasibility_note').notNull(),
    auditabilityRating: smallint('auditability_rating_given').notNull(),
    auditabilityNote: text('auditability_note').notNull(),
    /** 0 pending until the review outcomes run; then 1 included, 2 excluded by moderation, 3 excluded by threshold. */
    ranking: smallint('ranking').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('reviews_subscription_proposal_key').on(table.subscriptionId, table.proposalId),
    index('reviews_proposal_idx').on(table.proposalId, table.id),
    index('reviews_event_ranking_idx').on(table.eventId, table.ranking, table.id),
  ],
);
