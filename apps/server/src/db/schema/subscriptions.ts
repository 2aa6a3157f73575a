import { index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { events } from './events';

/**
 * A user's enrolment in an event as a reviewer at level 0, 1 or 2 (spec §3 "Subscription"). One per user, event and
 * level; the anonymous id is the only identity of a reviewer the public ever sees.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    role: smallint('role').notNull(),
    status: smallint('status').notNull(),
    anonymousId: text('anonymous_id').notNull(),
    preferredCategories: jsonb('preferred_categories').$type<number[]>().notNull().default([]),
    rewardAddress: text('reward_address'),
    publicContact: text('public_contact'),
    telegramHandlePrivate: text('telegram_handle_private'),
    verificationLink: text('verification_link'),
    /** Our reference of the identity check, echoed back by the verification provider's webhook. */
    verificationRef: text('verification_ref').unique(),
    subscribedAt: timestamp('subscribed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('subscriptions_user_event_role_key').on(table.userId, table.eventId, table.role),
    uniqueIndex('subscriptions_anonymous_id_key').on(table.anonymousId),
    index('subscriptions_event_idx').on(table.eventId, table.role, table.status),
  ],
);
