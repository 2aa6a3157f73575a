import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { events } from './events';

export type MailStatus = 'queued' | 'sending' | 'sent' | 'failed';

/**
 * The mail queue (transactional outbox, issue 27): every e-mail the product sends, written in the transaction of the
 * change that causes it and delivered by the mail worker. A row is claimed for delivery (status `sending`, a lease
 * in `claimed_until`) with FOR UPDATE SKIP LOCKED, so two instances never send one row; a lease that runs out (the
 * sender died) puts it back. Bulk notifications are queued with `params` only and rendered at delivery; without
 * SMTP this table is where the mails go.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: serial('id').primaryKey(),
    recipient: text('recipient').notNull(),
    kind: text('kind').notNull(),
    /** Null until rendered (a bulk notification is rendered from `params` when it is delivered). */
    subject: text('subject'),
    textBody: text('text_body'),
    htmlBody: text('html_body'),
    link: text('link'),
    /** The account the mail is for, when there is one (preferences, unsubscribe, ban checks). */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    eventId: integer('event_id'),
    /** Template parameters for a mail rendered at delivery. */
    params: jsonb('params').$type<Record<string, unknown>>(),
    /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post). */
    headers: jsonb('headers').$type<Record<string, string>>(),
    status: text('status').$type<MailStatus>().notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** While `sending`: until when the claiming worker holds the row. */
    claimedUntil: timestamp('claimed_until', { withTimezone: true }),
    /** One notification per key (e.g. a reminder per person, event, window and due time): queued at most once. */
    dedupeKey: text('dedupe_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** The last delivery error (a failed row keeps the permanent one). */
    error: text('error'),
  },
  (table) => [
    index('outbox_recipient_idx').on(table.recipient),
    index('outbox_due_idx')
      .on(table.nextAttemptAt, table.id)
      .where(sql`status in ('queued', 'sending')`),
    index('outbox_kind_status_idx').on(table.kind, table.status),
    uniqueIndex('outbox_dedupe_key').on(table.dedupeKey),
  ],
);

/** Notification kinds a person has turned off (account mails cannot be). */
export const notificationOptOuts = pgTable(
  'notification_opt_outs',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.kind] })],
);

/**
 * Reminders that are due or done: one row per event, window, hours-before and window end. The instance that inserts
 * the row sends the reminder (others find it there), so each fires once across instances; a reminder whose window
 * has closed is recorded as skipped.
 */
export const reminderRuns = pgTable(
  'reminder_runs',
  {
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    /** 'review' or 'moderation'. */
    window: text('window').notNull(),
    hoursBefore: integer('hours_before').notNull(),
    /** The window's end the reminder was for (a moved deadline gets its own reminders). */
    windowEnd: timestamp('window_end', { withTimezone: true }).notNull(),
    status: text('status').$type<'sent' | 'skipped'>().notNull(),
    queued: integer('queued').notNull().default(0),
    ranAt: timestamp('ran_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.eventId, table.window, table.hoursBefore, table.windowEnd] })],
);

/** Who changed what and when: admin changes and irreversible runs. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorUserId: integer('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    /** The event the change belongs to, so an event's history can be read in one query. */
    eventId: integer('event_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * Issue 48, the hash chain (modules/system/audit-chain.ts): SHA-256 (hex) of the entry's before and after, of the
     * previous entry of the log and of the previous entry of its event, and the entry's own hash over all of them.
     * Null in the entries written before migration 0019 (the chain starts after them).
     */
    dataSha256: text('data_sha256'),
    prevHash: text('prev_hash'),
    eventPrevHash: text('event_prev_hash'),
    hash: text('hash'),
    /** Set when closing an account erased personal words from before/after: the data digest no longer matches them. */
    redactedAt: timestamp('redacted_at', { withTimezone: true }),
  },
  (table) => [index('audit_log_entity_idx').on(table.entity, table.entityId), index('audit_log_event_idx').on(table.eventId, table.id)],
);

/**
 * The heads of the audit hash chains (issue 48): chain 0 is the whole log, any other the event of that id. An append
 * reads and moves them under one transaction-level advisory lock, so that appends from several instances make one
 * chain; `audit verify` compares the last entries with them (a deleted last entry shows there).
 */
export const auditHeads = pgTable('audit_heads', {
  chain: integer('chain').primaryKey(),
  entryId: bigint('entry_id', { mode: 'number' }).notNull(),
  hash: text('hash').notNull(),
});
