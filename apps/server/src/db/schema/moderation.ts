import { doublePrecision, index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { events } from './events';
import { reviews } from './reviews';
import { subscriptions } from './subscriptions';

/**
 * A flag on a review (spec §3 "Flag", DOMAIN.md "Flags"): computed by the "Compute flags" run or loaded from an
 * outside tool's file (`source`). One row per review and flag type.
 */
export const reviewFlags = pgTable(
  'review_flags',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    reviewId: integer('review_id')
      .notNull()
      .references(() => reviews.id, { onDelete: 'cascade' }),
    /** 0 profanity, 1 similarity, 2 ai_generated. */
    flagType: smallint('flag_type').notNull(),
    score: doublePrecision('score').notNull(),
    relatedReviews: integer('related_reviews').array().notNull().default([]),
    /** One of impact_note, feasibility_note, auditability_note per related review, or null. */
    relatedCriteria: text('related_criteria').array(),
    /** 0 computed by the server, 1 loaded from a file. */
    source: smallint('source').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('review_flags_review_type_key').on(table.reviewId, table.flagType),
    index('review_flags_event_type_idx').on(table.eventId, table.flagType),
  ],
);

/** A review allocated to an LV2 moderator (their LV2 subscription) by the moderation allocation run. */
export const moderationAllocations = pgTable(
  'moderation_allocations',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    reviewId: integer('review_id')
      .notNull()
      .references(() => reviews.id, { onDelete: 'cascade' }),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
  },
  (table) => [
    uniqueIndex('moderation_allocations_subscription_review_key').on(table.subscriptionId, table.reviewId),
    index('moderation_allocations_review_idx').on(table.reviewId),
    index('moderation_allocations_event_idx').on(table.eventId),
  ],
);

/** A moderator's decision on a review (spec §3 "Moderation"): one per moderator (LV2 subscription) and review. */
export const moderations = pgTable(
  'moderations',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    reviewId: integer('review_id')
      .notNull()
      .references(() => reviews.id, { onDelete: 'cascade' }),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    /** 1 included, 0 excluded. */
    classification: smallint('classification').notNull(),
    rationale: text('rationale').notNull(),
    /** The reason chosen from the list (spec §5), or null. */
    predefinedReason: text('predefined_reason'),
    /** The moderator's own words when the reason is 'other'. */
    customRationale: text('custom_rationale'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('moderations_subscription_review_key').on(table.subscriptionId, table.reviewId),
    index('moderations_review_idx').on(table.reviewId),
    index('moderations_event_idx').on(table.eventId, table.id),
  ],
);
