import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** A funding round (spec §3 "Event"). Names are unique regardless of case. */
export const events = pgTable(
  'events',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    active: boolean('active').notNull().default(false),
    startTime: timestamp('start_time', { withTimezone: true }),
    endTime: timestamp('end_time', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('events_name_key').on(sql`lower(${table.name})`), index('events_active_idx').on(table.active)],
);

export type ConfigKind = 'reviews' | 'reviews-level-qualifiers' | 'allocations' | 'status' | 'notifications' | 'appeals';

/**
 * Configuration records as the reference API keeps them: a kind, an event (none for the global status messages)
 * and a JSON value. One record per kind and event.
 */
export const configs = pgTable(
  'configs',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').$type<ConfigKind>().notNull(),
    eventId: integer('event_id').references(() => events.id, { onDelete: 'cascade' }),
    value: jsonb('value').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('configs_kind_event_key').on(table.kind, sql`coalesce(${table.eventId}, 0)`)],
);

/** An event's categories (objectives, challenges); created by the proposal import or the demo data. */
export const categories = pgTable(
  'categories',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description'),
    externalId: text('external_id'),
  },
  (table) => [uniqueIndex('categories_event_title_key').on(table.eventId, sql`lower(${table.title})`)],
);
