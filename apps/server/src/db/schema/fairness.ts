import { bigserial, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { events } from './events';
import { reviews } from './reviews';
import { subscriptions } from './subscriptions';

/*
 * Issue 28: moderation coverage, appeals, and the history of reviews and moderations.
 */

export type VersionAction = 'create' | 'edit' | 'delete';

/**
 * Every create, edit and delete of a review, with the whole content, written in the transaction of the change. No
 * foreign key to the review: a deleted review's last version stays for admins.
 */
export const reviewVersions = pgTable(
  'review_versions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    reviewId: integer('review_id').notNull(),
    eventId: integer('event_id').notNull(),
    proposalId: integer('proposal_id').notNull(),
    subscriptionId: integer('subscription_id').notNull(),
    /** 1 for the create, then one more per edit and for the delete. */
    version: integer('version').notNull(),
    action: text('action').$type<VersionAction>().notNull(),
    /** Who made the change (the author, or an admin), null when the account is gone. */
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The review as it was after the change (as it was before, for a delete): ratings and notes. */
    content: jsonb('content').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('review_versions_review_version_key').on(table.reviewId, table.version)],
);

/** The same for moderations. */
export const moderationVersions = pgTable(
  'moderation_versions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    moderationId: integer('moderation_id').notNull(),
    reviewId: integer('review_id').notNull(),
    eventId: integer('event_id').notNull(),
    subscriptionId: integer('subscription_id').notNull(),
    version: integer('version').notNull(),
    action: text('action').$type<VersionAction>().notNull(),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** classification, rationale, predefined_reason, custom_rationale. */
    content: jsonb('content').$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('moderation_versions_moderation_version_key').on(table.moderationId, table.version),
    index('moderation_versions_review_idx').on(table.reviewId, table.createdAt),
  ],
);

/**
 * Moderation allocations added by a coverage top-up run (the first allocation run's rows stay in
 * moderation_allocations; a top-up adds rows there too and records here which run added them).
 */
export const moderationTopUps = pgTable(
  'moderation_top_ups',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    /** The moderation_allocations row the run added. */
    allocationId: integer('allocation_id').notNull(),
    /** The audit entry of the run (one per real run). */
    runAuditId: integer('run_audit_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('moderation_top_ups_event_idx').on(table.eventId),
    uniqueIndex('moderation_top_ups_allocation_key').on(table.allocationId),
  ],
);

export type AppealStatus = 'open' | 'allocated' | 'upheld' | 'rejected' | 'closed';

/** A reviewer's appeal of an excluded review: one per review, within the event's appeal window. */
export const appeals = pgTable(
  'appeals',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    reviewId: integer('review_id')
      .notNull()
      .references(() => reviews.id, { onDelete: 'cascade' }),
    /** The reviewer's subscription (the review's author). */
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    rationale: text('rationale').notNull(),
    status: text('status').$type<AppealStatus>().notNull().default('open'),
    /** The review's ranking when the appeal was made (2 or 3), to restore on a reversal. */
    rankingBefore: smallint('ranking_before').notNull(),
    /**
     * N: the decisions of eligible moderators the appeal needs (the event's setting when it was made). The allocation
     * runs keep it allocated to N eligible moderators; its majority is of N.
     */
    decisionsNeeded: smallint('decisions_needed').notNull().default(3),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (table) => [uniqueIndex('appeals_review_key').on(table.reviewId), index('appeals_event_status_idx').on(table.eventId, table.status)],
);

/** An appeal allocated to a fresh moderator (their LV2 subscription). */
export const appealAllocations = pgTable(
  'appeal_allocations',
  {
    id: serial('id').primaryKey(),
    appealId: integer('appeal_id')
      .notNull()
      .references(() => appeals.id, { onDelete: 'cascade' }),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('appeal_allocations_appeal_subscription_key').on(table.appealId, table.subscriptionId),
    index('appeal_allocations_subscription_idx').on(table.subscriptionId),
  ],
);

/** A moderator's decision on an appeal: 1 upheld (the review is included), 0 rejected; with the reasons of §5. */
export const appealDecisions = pgTable(
  'appeal_decisions',
  {
    id: serial('id').primaryKey(),
    appealId: integer('appeal_id')
      .notNull()
      .references(() => appeals.id, { onDelete: 'cascade' }),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    decision: smallint('decision').notNull(),
    rationale: text('rationale').notNull(),
    predefinedReason: text('predefined_reason'),
    customRationale: text('custom_rationale'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('appeal_decisions_appeal_subscription_key').on(table.appealId, table.subscriptionId)],
);
