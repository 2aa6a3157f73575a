import type { Language } from '@cr/contract/languages';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** A Catalyst ID (normalised: no scheme prefix, no '#encrypt') with its e-mail and account status (spec §4). */
export const catalystIds = pgTable(
  'catalyst_ids',
  {
    id: serial('id').primaryKey(),
    catalystId: text('catalyst_id').notNull(),
    email: text('email'),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    username: text('username'),
    status: smallint('status').notNull().default(0),
    rbacRegStatus: smallint('rbac_reg_status').notNull().default(0),
    /** When the registry was last asked; a status short of persistent is asked again after a while. */
    rbacCheckedAt: timestamp('rbac_checked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('catalyst_ids_catalyst_id_key').on(table.catalystId),
    uniqueIndex('catalyst_ids_email_key').on(sql`lower(${table.email})`),
    // The admin's user search (part of a Catalyst ID, username or e-mail, any case) from trigram indexes, not a scan.
    index('catalyst_ids_catalyst_id_trgm_idx').using('gin', sql`${table.catalystId} gin_trgm_ops`),
    index('catalyst_ids_username_trgm_idx').using('gin', sql`${table.username} gin_trgm_ops`),
    index('catalyst_ids_email_trgm_idx').using('gin', sql`${table.email} gin_trgm_ops`),
  ],
);

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  catalystIdRef: integer('catalyst_id_ref')
    .notNull()
    .unique()
    .references(() => catalystIds.id, { onDelete: 'cascade' }),
  passwordHash: text('password_hash').notNull(),
  role: smallint('role').notNull().default(0),
  forceReset: boolean('force_reset').notNull().default(false),
  policyAcknowledgments: jsonb('policy_acknowledgments').$type<{ privacy_policy: boolean; terms_and_conditions: boolean }>().notNull(),
  registeredAt: timestamp('registered_at', { withTimezone: true }).notNull().defaultNow(),
  /** Due diligence (spec §4): 0 unknown … 4 red, the provider's link, and our reference the provider echoes back. */
  dueDiligenceStatus: smallint('due_diligence_status').notNull().default(0),
  dueDiligenceUrl: text('due_diligence_url'),
  dueDiligenceRef: text('due_diligence_ref').unique(),
  /** The interface language the person chose (issue 31): their mails follow it; null = not chosen (English mails). */
  language: text('language').$type<Language>(),
  /**
   * Issue 47: a ban's reason (shown to the person when they try to log in), when and by whom, and the account status
   * the ban replaced (an unban restores it). Null while the account is not banned.
   */
  bannedReason: text('banned_reason'),
  bannedAt: timestamp('banned_at', { withTimezone: true }),
  bannedBy: integer('banned_by'),
  statusBeforeBan: smallint('status_before_ban'),
  /** Issue 47: when the person closed the account; its personal data was erased then (db/personal-columns.ts). */
  closedAt: timestamp('closed_at', { withTimezone: true }),
});

export type TokenPurpose = 'activation' | 'email_verification' | 'password_reset';

/** Single-use tokens sent in e-mailed links; only their SHA-256 is stored. */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose').$type<TokenPurpose>().notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    payload: jsonb('payload').$type<Record<string, string>>(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('one_time_tokens_user_purpose_idx').on(table.userId, table.purpose)],
);

/** Rotating refresh tokens; a family is one login. Reuse of a rotated token revokes the family. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('refresh_tokens_family_idx').on(table.familyId), index('refresh_tokens_user_idx').on(table.userId)],
);

/** Fixed-window counters for rate limits, shared by every server instance. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  hits: integer('hits').notNull(),
});
