/**
 * Issue 47: every column of the schema that holds personal data (or could lead back to a person), with what happens to
 * it when the person closes their account (modules/lifecycle/lifecycle.repository.ts `eraseAccount`):
 *
 * - `erased`: set to null (or to a neutral value) in the person's rows;
 * - `tombstoned`: replaced by a value that is unique and means nothing (unique constraints stay free: the same e-mail
 *   address or Catalyst ID can register again);
 * - `deleted`: the person's rows of the table are deleted;
 * - `kept-anonymous`: kept, because the round's integrity or published results depend on it; once the account is
 *   closed it leads only to the tombstoned account (an id and an anonymous id), never to the person;
 * - `not-personal`: looked at and found to hold nothing about a person (listed so that the check below knows it was).
 *
 * apps/server/test/account-close.test.ts walks the real database's columns and fails when one that looks personal
 * (every column of the account tables, any column named like personal data, the free text of any table that points
 * at an account) has no entry here — so a column added later without an erasure rule fails it. The open-data archive
 * reads the same list to know what never to publish.
 */
export type ErasureRule = 'erased' | 'tombstoned' | 'deleted' | 'kept-anonymous' | 'not-personal';

export interface PersonalColumn {
  table: string;
  column: string;
  rule: ErasureRule;
  why: string;
}

const rows = (table: string, rule: ErasureRule, why: string, columns: string[]): PersonalColumn[] =>
  columns.map((column) => ({ table, column, rule, why }));

export const PERSONAL_COLUMNS: readonly PersonalColumn[] = [
  // ---- the account ----
  { table: 'catalyst_ids', column: 'id', rule: 'kept-anonymous', why: 'the row stays as the tombstone other rows point at' },
  {
    table: 'catalyst_ids',
    column: 'catalyst_id',
    rule: 'tombstoned',
    why: "becomes 'closed:<user id>' (never a real Catalyst ID): the unique index stays free for the person's ID",
  },
  { table: 'catalyst_ids', column: 'email', rule: 'erased', why: 'the e-mail address; null frees the unique index' },
  { table: 'catalyst_ids', column: 'email_verified_at', rule: 'erased', why: 'tells about the address' },
  { table: 'catalyst_ids', column: 'username', rule: 'erased', why: 'a name the person chose' },
  { table: 'catalyst_ids', column: 'status', rule: 'erased', why: 'set to inactive: the account is in no pool and gets no mail' },
  { table: 'catalyst_ids', column: 'rbac_reg_status', rule: 'erased', why: 'on-chain registration of the Catalyst ID' },
  { table: 'catalyst_ids', column: 'rbac_checked_at', rule: 'erased', why: 'on-chain registration of the Catalyst ID' },
  {
    table: 'catalyst_ids',
    column: 'created_at',
    rule: 'kept-anonymous',
    why: 'a date without a person: the round statistics count accounts by it',
  },
  { table: 'users', column: 'id', rule: 'kept-anonymous', why: 'the tombstone: finished rounds’ subscriptions and versions point at it' },
  { table: 'users', column: 'catalyst_id_ref', rule: 'kept-anonymous', why: 'points at the tombstoned Catalyst ID row' },
  { table: 'users', column: 'password_hash', rule: 'tombstoned', why: "replaced by '!closed', which no password matches" },
  { table: 'users', column: 'role', rule: 'erased', why: 'set back to user' },
  { table: 'users', column: 'force_reset', rule: 'erased', why: 'set to false' },
  {
    table: 'users',
    column: 'policy_acknowledgments',
    rule: 'kept-anonymous',
    why: 'the record that the policies were accepted, without a person',
  },
  { table: 'users', column: 'registered_at', rule: 'kept-anonymous', why: 'a date without a person' },
  ...rows('users', 'erased', 'identity verification (due diligence) data', [
    'due_diligence_status',
    'due_diligence_url',
    'due_diligence_ref',
  ]),
  { table: 'users', column: 'language', rule: 'erased', why: 'a preference of the person' },
  ...rows('users', 'erased', 'a ban of the account (a closed account was not banned: a banned one cannot log in)', [
    'banned_reason',
    'banned_at',
    'banned_by',
    'status_before_ban',
  ]),
  { table: 'users', column: 'closed_at', rule: 'kept-anonymous', why: 'when the account was closed: marks the tombstone' },

  // ---- subscriptions: kept in finished rounds under the anonymous id, deleted in rounds still in review ----
  { table: 'subscriptions', column: 'user_id', rule: 'kept-anonymous', why: 'points at the tombstone (finished rounds only)' },
  {
    table: 'subscriptions',
    column: 'anonymous_id',
    rule: 'kept-anonymous',
    why: 'the public identity of the reviews in finished rounds: published results depend on it; random, it leads to no one',
  },
  ...rows('subscriptions', 'erased', 'contact and reward data given for LV2 and identity verification', [
    'reward_address',
    'public_contact',
    'telegram_handle_private',
    'verification_link',
    'verification_ref',
  ]),
  { table: 'subscriptions', column: 'preferred_categories', rule: 'kept-anonymous', why: 'choices of objectives, without a person' },

  // ---- sessions, tokens, preferences: deleted ----
  ...rows('refresh_tokens', 'deleted', 'the sessions', ['user_id', 'family_id', 'token_hash']),
  ...rows('one_time_tokens', 'deleted', 'e-mailed links; the payload holds a new e-mail address', [
    'user_id',
    'purpose',
    'token_hash',
    'payload',
  ]),
  ...rows('api_tokens', 'deleted', 'personal API tokens and the names the person gave them', [
    'user_id',
    'name',
    'scopes',
    'token_hash',
    'hint',
  ]),
  ...rows('idempotency_keys', 'deleted', 'kept answers of the person’s writes', ['user_id', 'key', 'route', 'request_hash', 'response']),
  ...rows('notification_opt_outs', 'deleted', 'notification preferences', ['user_id', 'kind']),
  {
    table: 'rate_limits',
    column: 'key',
    rule: 'deleted',
    why: 'counters keyed by Catalyst ID or user id (logins, resets, e-mail changes); the others end with their window',
  },

  // ---- mail: the row stays for the queue's counts, nothing of the person ----
  { table: 'outbox', column: 'recipient', rule: 'tombstoned', why: "replaced by 'erased'; sent mails keep it MAIL_RETENTION_DAYS" },
  ...rows('outbox', 'erased', 'the mail’s content and what it was rendered from (also purged MAIL_RETENTION_DAYS after sending)', [
    'subject',
    'text_body',
    'html_body',
    'link',
    'params',
    'headers',
  ]),
  { table: 'outbox', column: 'user_id', rule: 'erased', why: 'set to null: the row no longer points at the account' },
  ...rows('outbox', 'not-personal', 'the mail’s kind, state and delivery bookkeeping', ['kind', 'status', 'error']),
  {
    table: 'outbox',
    column: 'dedupe_key',
    rule: 'kept-anonymous',
    why: 'kind, event and user id only (a notification queued once): leads to the tombstone',
  },

  // ---- what the person did: kept in finished rounds, deleted in rounds still in review ----
  ...rows('review_versions', 'kept-anonymous', 'finished rounds’ review history (deleted with the round’s subscriptions otherwise)', [
    'subscription_id',
    'actor_user_id',
    'content',
  ]),
  ...rows('review_versions', 'not-personal', 'the kind of change', ['action']),
  ...rows(
    'moderation_versions',
    'kept-anonymous',
    'finished rounds’ moderation history (deleted with the round’s subscriptions otherwise)',
    ['subscription_id', 'actor_user_id', 'content'],
  ),
  ...rows('moderation_versions', 'not-personal', 'the kind of change', ['action']),
  ...rows(
    'audit_log',
    'kept-anonymous',
    'who did what, by user id; the keys of the person’s own entries that name something of theirs (an API token’s name) are removed on close, and the entry is marked redacted (the chain still verifies)',
    ['actor_user_id', 'entity_id', 'before', 'after'],
  ),
  ...rows('audit_log', 'not-personal', 'the kind of change', ['action', 'entity']),
  ...rows(
    'audit_log',
    'not-personal',
    'the hash chain (issue 48): SHA-256 digests of each entry and of its data, and the links; an entry whose words were erased on close keeps its data digest as written and is marked redacted',
    ['data_sha256', 'prev_hash', 'event_prev_hash', 'hash'],
  ),

  // ---- public proposal data, not account data ----
  {
    table: 'proposal_authors',
    column: 'catalyst_key',
    rule: 'kept-anonymous',
    why: 'authorship of a public proposal document imported from Catalyst Voices, not data of an account here',
  },
  {
    table: 'proposals',
    column: 'proposer_name',
    rule: 'kept-anonymous',
    why: 'part of a public proposal document imported from Catalyst Voices, not data of an account here',
  },
];

/** The entry of a column, if it has one. */
export function personalColumn(table: string, column: string): PersonalColumn | undefined {
  return PERSONAL_COLUMNS.find((entry) => entry.table === table && entry.column === column);
}
