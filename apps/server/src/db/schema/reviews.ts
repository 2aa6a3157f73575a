import { index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { categories, events } from './events';
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
    /** The proposal's objective, copied at submission so that the objective filter reads one index. */
    categoryId: integer('category_id').references(() => categories.id, { onDelete: 'set null' }),
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
    // A proposal's or an objective's reviews in id order; event and subscription after the id (which orders alone) let
    // the totals of these filters, under a viewer's visibility (db/rules reviewVisibleTo), count from the index only.
    index('reviews_proposal_idx').on(table.proposalId, table.id, table.eventId, table.subscriptionId),
    index('reviews_event_ranking_idx').on(table.eventId, table.ranking, table.id),
    // The lists read newest first: an event's (or an objective's) reviews in id order straight from an index.
    index('reviews_event_id_idx').on(table.eventId, table.id),
    index('reviews_category_id_idx').on(table.categoryId, table.id, table.eventId, table.subscriptionId),
    // The dashboard's reviews per day: an index-only scan, not a read of every review's notes.
    index('reviews_event_created_idx').on(table.eventId, table.createdAt),
  ],
);
