import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { ProposalExtraField } from '@cr/contract/proposals';
import { categories, events } from './events';
import { subscriptions } from './subscriptions';

/**
 * An event's proposals, imported from Catalyst Voices documents (DOMAIN.md "Import and export"): one row per document
 * id (`pr_id`) and event, updated in place by a re-import.
 */
export const proposals = pgTable(
  'proposals',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    prId: text('pr_id').notNull(),
    version: text('version'),
    templateId: text('template_id'),
    title: text('title').notNull(),
    summary: text('summary'),
    solution: text('solution'),
    proposerName: text('proposer_name'),
    funds: bigint('funds', { mode: 'number' }),
    currency: text('currency').notNull().default('ADA'),
    url: text('url'),
    categoryId: integer('category_id').references(() => categories.id, { onDelete: 'set null' }),
    extra: jsonb('extra').$type<{ fields: ProposalExtraField[] }>().notNull(),
    /** A hash of what was imported, so a re-import of the same document changes nothing. */
    contentHash: text('content_hash').notNull(),
    importedAt: timestamp('imported_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('proposals_event_pr_id_key').on(table.eventId, table.prId),
    index('proposals_event_category_idx').on(table.eventId, table.categoryId, table.id),
    // The list's page: an index-only scan in id order, however deep the offset.
    index('proposals_event_id_idx').on(table.eventId, table.id),
    index('proposals_title_trgm_idx').using('gin', sql`lower(${table.title}) gin_trgm_ops`),
  ],
);

/** Authors and co-proposers of a proposal by Catalyst ID key (scheme, username and role suffix stripped). */
export const proposalAuthors = pgTable(
  'proposal_authors',
  {
    proposalId: integer('proposal_id')
      .notNull()
      .references(() => proposals.id, { onDelete: 'cascade' }),
    catalystKey: text('catalyst_key').notNull(),
  },
  (table) => [primaryKey({ columns: [table.proposalId, table.catalystKey] }), index('proposal_authors_key_idx').on(table.catalystKey)],
);

/** Proposal allocation: which reviewer subscription reviews which proposal (DOMAIN.md "Proposal allocation"). */
export const proposalAllocations = pgTable(
  'proposal_allocations',
  {
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    proposalId: integer('proposal_id')
      .notNull()
      .references(() => proposals.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.subscriptionId, table.proposalId] }),
    index('proposal_allocations_proposal_idx').on(table.proposalId),
    index('proposal_allocations_event_idx').on(table.eventId),
  ],
);
