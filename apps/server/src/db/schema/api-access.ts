import { index, integer, jsonb, pgTable, primaryKey, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './accounts';

/**
 * Issue 29 item 3: personal API tokens. The secret is shown once; only its SHA-256 is kept (a token is 256 random
 * bits, so a fast hash is enough: nothing to guess). A deleted account takes its tokens with it; a banned one's stop
 * at the next request (the status is read with the token).
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** read, review, moderate, admin-read. */
    scopes: text('scopes').array().notNull(),
    /** hex SHA-256 of the whole token. */
    tokenHash: text('token_hash').notNull(),
    /** The token's first characters (prefix and four more), to tell tokens apart in lists and logs. */
    hint: text('hint').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('api_tokens_token_hash_key').on(table.tokenHash), index('api_tokens_user_idx').on(table.userId)],
);

/**
 * Issue 29 item 1: idempotency keys of writes (`Idempotency-Key` header). A replay with the same key and body answers
 * the first answer; the same key with another body is refused. Kept a day.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** Method and route, e.g. `POST /api/reviews/proposal-reviews/`. */
    route: text('route').notNull(),
    /** hex SHA-256 of the request (method, URL, body). */
    requestHash: text('request_hash').notNull(),
    /** Null while the first request is in flight. */
    statusCode: smallint('status_code'),
    response: jsonb('response'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.key] }), index('idempotency_keys_created_idx').on(table.createdAt)],
);
