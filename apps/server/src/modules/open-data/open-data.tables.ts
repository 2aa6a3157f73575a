import { csvText } from '../exports/exports.service';

/**
 * The open data's tables (issue 48 item 1; docs/open-data.md): one CSV file each, described in datapackage.json
 * (Frictionless Data, Tabular Data Resource). A column is its name, its SQL over the event's rows, its Table Schema
 * type and what it means. Nothing here names a person beyond the anonymous ids of subscriptions: no e-mail, Catalyst
 * ID, public contact, Telegram handle, reward address, proposer name or verification data (the no-personal-field test
 * reads the archive's bytes).
 *
 * Free texts written by people (notes, rationales, titles) are neutralised against spreadsheet formulas as the
 * exports are (exports/csv.ts); the codes, hashes and JSON are written as they are, for programs.
 */
export type ColumnType = 'integer' | 'number' | 'string' | 'boolean' | 'datetime';

export interface Column {
  name: string;
  sql: string;
  type: ColumnType;
  description: string;
  /** A free text written by a person: neutralised against formulas. */
  freeText?: boolean;
  enum?: readonly string[];
  required?: boolean;
}

export interface Table {
  name: string;
  title: string;
  description: string;
  /**
   * `from … where …` for event `e` (an integer, inlined: COPY takes no parameters); `upTo`, the audit head's entry
   * when the archive began (later entries, an export's say, belong to a later archive).
   */
  from: (e: number, upTo: number) => string;
  orderBy: string;
  columns: readonly Column[];
  primaryKey?: readonly string[];
  foreignKeys?: readonly { fields: string; reference: { resource: string; fields: string } }[];
}

export const OUTCOMES = ['pending', 'included', 'excluded_moderation', 'excluded_threshold'] as const;
const outcomeOf = (column: string) =>
  `case ${column} when 0 then 'pending' when 1 then 'included' when 2 then 'excluded_moderation' when 3 then 'excluded_threshold' end`;
const bool = (condition: string) => `case when ${condition} then 'true' else 'false' end`;
const iso = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The audit actions whose data (before, after) the open data carries; of the others only the digest. */
export const PUBLISHED_AUDIT_ACTIONS = [
  'event.create',
  'event.update',
  'proposals.import',
  'proposals.allocate',
  'flags.compute',
  'flags.import',
  'moderations.allocate',
  'moderations.top_up',
  'reviews.outcomes',
  'appeals.allocate',
  'appeals.decided',
  'appeals.close',
  'proposals.scores',
] as const;
const publishedAction = (column: string) =>
  `(${column} in (${PUBLISHED_AUDIT_ACTIONS.map((action) => `'${action}'`).join(', ')}) or ${column} like 'config.%')`;

/** The runs whose parameters, as run, round.json lists (their audit entries' `after.params`). */
export const RUN_ACTIONS = [
  'proposals.allocate',
  'moderations.allocate',
  'moderations.top_up',
  'reviews.outcomes',
  'appeals.allocate',
  'proposals.scores',
] as const;

export const TABLES: readonly Table[] = [
  {
    name: 'proposals',
    title: 'Proposals',
    description: "The round's proposals.",
    from: (e) => `from proposals p left join categories c on c.id = p.category_id where p.event_id = ${e}`,
    orderBy: 'p.id',
    primaryKey: ['proposal_id'],
    columns: [
      { name: 'proposal_id', sql: 'p.id', type: 'integer', description: "The proposal's id in this application.", required: true },
      { name: 'pr_id', sql: 'p.pr_id', type: 'string', description: "The proposal's document id in the proposal system." },
      { name: 'title', sql: 'p.title', type: 'string', description: "The proposal's title.", freeText: true },
      { name: 'category', sql: 'c.title', type: 'string', description: "The proposal's category (objective).", freeText: true },
    ],
  },
  {
    name: 'reviews',
    title: 'Reviews',
    description:
      'Every review of the round: its writer by anonymous id and level, whether its writer had the proposal allocated, its three ratings (1–5) and notes, and its outcome (after any upheld appeal).',
    from: (e) =>
      `from reviews r join subscriptions s on s.id = r.subscription_id
       left join proposal_allocations pa on pa.subscription_id = r.subscription_id and pa.proposal_id = r.proposal_id
       where r.event_id = ${e}`,
    orderBy: 'r.id',
    primaryKey: ['review_id'],
    foreignKeys: [{ fields: 'proposal_id', reference: { resource: 'proposals', fields: 'proposal_id' } }],
    columns: [
      { name: 'review_id', sql: 'r.id', type: 'integer', description: "The review's id.", required: true },
      { name: 'proposal_id', sql: 'r.proposal_id', type: 'integer', description: 'The proposal reviewed.', required: true },
      {
        name: 'reviewer',
        sql: 's.anonymous_id',
        type: 'string',
        description: "The reviewer's anonymous id in this round.",
        required: true,
      },
      { name: 'level', sql: 's.role', type: 'integer', description: "The reviewer's level (0 LV0, 1 LV1).", required: true },
      {
        name: 'allocated',
        sql: bool('pa.proposal_id is not null'),
        type: 'boolean',
        description: 'Whether the proposal allocation gave the reviewer this proposal.',
        required: true,
      },
      {
        name: 'impact_alignment_rating',
        sql: 'r.impact_alignment_rating_given',
        type: 'integer',
        description: 'Impact alignment, 1–5.',
        required: true,
      },
      { name: 'feasibility_rating', sql: 'r.feasibility_rating_given', type: 'integer', description: 'Feasibility, 1–5.', required: true },
      {
        name: 'auditability_rating',
        sql: 'r.auditability_rating_given',
        type: 'integer',
        description: 'Auditability (value for money), 1–5.',
        required: true,
      },
      {
        name: 'outcome',
        sql: outcomeOf('r.ranking'),
        type: 'string',
        enum: OUTCOMES,
        description: 'The review outcome: included, excluded by moderation, excluded by threshold (an upheld appeal includes it).',
        required: true,
      },
      {
        name: 'impact_alignment_note',
        sql: 'r.impact_alignment_note',
        type: 'string',
        description: 'The impact alignment note.',
        freeText: true,
      },
      { name: 'feasibility_note', sql: 'r.feasibility_note', type: 'string', description: 'The feasibility note.', freeText: true },
      { name: 'auditability_note', sql: 'r.auditability_note', type: 'string', description: 'The auditability note.', freeText: true },
    ],
  },
  {
    name: 'moderations',
    title: 'Moderations',
    description: "Every moderation of the round's reviews: the moderator by anonymous id, the classification, the reason and rationale.",
    from: (e) => `from moderations m join subscriptions s on s.id = m.subscription_id where m.event_id = ${e}`,
    orderBy: 'm.id',
    primaryKey: ['moderation_id'],
    foreignKeys: [{ fields: 'review_id', reference: { resource: 'reviews', fields: 'review_id' } }],
    columns: [
      { name: 'moderation_id', sql: 'm.id', type: 'integer', description: "The moderation's id.", required: true },
      { name: 'review_id', sql: 'm.review_id', type: 'integer', description: 'The review moderated.', required: true },
      {
        name: 'moderator',
        sql: 's.anonymous_id',
        type: 'string',
        description: "The moderator's anonymous id in this round.",
        required: true,
      },
      {
        name: 'classification',
        sql: `case m.classification when 1 then 'included' else 'excluded' end`,
        type: 'string',
        enum: ['included', 'excluded'],
        description: "The moderator's classification of the review.",
        required: true,
      },
      { name: 'predefined_reason', sql: 'm.predefined_reason', type: 'string', description: 'The reason chosen from the list (spec §5).' },
      {
        name: 'custom_rationale',
        sql: 'm.custom_rationale',
        type: 'string',
        description: "The moderator's own reason when 'other'.",
        freeText: true,
      },
      { name: 'rationale', sql: 'm.rationale', type: 'string', description: "The moderator's rationale.", freeText: true },
    ],
  },
  {
    name: 'appeals',
    title: 'Appeals',
    description:
      'Appeals of excluded reviews by their writers, with their state and the number of decisions they need (N; upheld by more than N/2).',
    from: (e) => `from appeals a where a.event_id = ${e}`,
    orderBy: 'a.id',
    primaryKey: ['appeal_id'],
    foreignKeys: [{ fields: 'review_id', reference: { resource: 'reviews', fields: 'review_id' } }],
    columns: [
      { name: 'appeal_id', sql: 'a.id', type: 'integer', description: "The appeal's id.", required: true },
      { name: 'review_id', sql: 'a.review_id', type: 'integer', description: 'The review appealed.', required: true },
      {
        name: 'status',
        sql: 'a.status',
        type: 'string',
        enum: ['open', 'allocated', 'upheld', 'rejected', 'closed'],
        description: 'upheld (the review is included), rejected, or closed undecided by the scores run.',
        required: true,
      },
      {
        name: 'outcome_before',
        sql: outcomeOf('a.ranking_before'),
        type: 'string',
        enum: OUTCOMES,
        description: "The review's outcome when it was appealed.",
        required: true,
      },
      {
        name: 'decisions_needed',
        sql: 'a.decisions_needed',
        type: 'integer',
        description: 'N, the decisions the appeal needs.',
        required: true,
      },
      { name: 'rationale', sql: 'a.rationale', type: 'string', description: "The reviewer's rationale for the appeal.", freeText: true },
    ],
  },
  {
    name: 'appeal_decisions',
    title: 'Appeal decisions',
    description: "The fresh moderators' decisions on the appeals.",
    from: (e) =>
      `from appeal_decisions d join appeals a on a.id = d.appeal_id join subscriptions s on s.id = d.subscription_id where a.event_id = ${e}`,
    orderBy: 'd.id',
    primaryKey: ['decision_id'],
    foreignKeys: [{ fields: 'appeal_id', reference: { resource: 'appeals', fields: 'appeal_id' } }],
    columns: [
      { name: 'decision_id', sql: 'd.id', type: 'integer', description: "The decision's id.", required: true },
      { name: 'appeal_id', sql: 'd.appeal_id', type: 'integer', description: 'The appeal decided.', required: true },
      {
        name: 'moderator',
        sql: 's.anonymous_id',
        type: 'string',
        description: "The moderator's anonymous id in this round.",
        required: true,
      },
      {
        name: 'decision',
        sql: `case d.decision when 1 then 'upheld' else 'rejected' end`,
        type: 'string',
        enum: ['upheld', 'rejected'],
        description: "The moderator's decision.",
        required: true,
      },
      { name: 'predefined_reason', sql: 'd.predefined_reason', type: 'string', description: 'The reason chosen from the list.' },
      {
        name: 'custom_rationale',
        sql: 'd.custom_rationale',
        type: 'string',
        description: "The moderator's own reason when 'other'.",
        freeText: true,
      },
      { name: 'rationale', sql: 'd.rationale', type: 'string', description: "The moderator's rationale.", freeText: true },
    ],
  },
  {
    name: 'reviewers',
    title: 'Reviewers',
    description:
      "Each reviewer's outcome: accepted, or excluded by threshold (their approval rate, valid ÷ moderated reviews, below the acceptance threshold with at least the minimum sample moderated).",
    from: (e) =>
      `from reviews r join subscriptions s on s.id = r.subscription_id
       left join appeals ap on ap.review_id = r.id and ap.status = 'upheld'
       where r.event_id = ${e} group by s.anonymous_id`,
    orderBy: 's.anonymous_id',
    primaryKey: ['reviewer'],
    columns: [
      {
        name: 'reviewer',
        sql: 's.anonymous_id',
        type: 'string',
        description: "The reviewer's anonymous id in this round.",
        required: true,
      },
      { name: 'level', sql: 'max(s.role)', type: 'integer', description: "The reviewer's level.", required: true },
      { name: 'reviews', sql: 'count(*)::int', type: 'integer', description: 'Reviews written.', required: true },
      {
        name: 'outcome',
        sql: `case when bool_or(r.ranking = 3 or ap.ranking_before = 3) then 'excluded_threshold' else 'accepted' end`,
        type: 'string',
        enum: ['accepted', 'excluded_threshold'],
        description: "The reviewer's outcome as the review outcomes run decided it.",
        required: true,
      },
    ],
  },
  {
    name: 'proposal_scores',
    title: 'Proposal scores',
    description:
      "Each proposal's scores as the proposal scores run stored them (rounded to four decimals; empty: no included review) and its review counts.",
    from: (e) => `from proposal_scores ps where ps.event_id = ${e}`,
    orderBy: 'ps.proposal_id',
    primaryKey: ['proposal_id'],
    foreignKeys: [{ fields: 'proposal_id', reference: { resource: 'proposals', fields: 'proposal_id' } }],
    columns: [
      { name: 'proposal_id', sql: 'ps.proposal_id', type: 'integer', description: 'The proposal.', required: true },
      { name: 'overall', sql: 'ps.overall', type: 'number', description: 'The mean of the three criteria.' },
      { name: 'impact', sql: 'ps.impact', type: 'number', description: 'Impact alignment, weighted mean.' },
      { name: 'feasibility', sql: 'ps.feasibility', type: 'number', description: 'Feasibility, weighted mean.' },
      { name: 'value_for_money', sql: 'ps.value_for_money', type: 'number', description: 'Auditability (value for money), weighted mean.' },
      { name: 'nr_reviews', sql: 'ps.nr_reviews', type: 'integer', description: 'Reviews of the proposal.', required: true },
      { name: 'nr_allocated_reviews', sql: 'ps.nr_allocated_reviews', type: 'integer', description: 'Of which allocated.', required: true },
      { name: 'nr_included_reviews', sql: 'ps.nr_included_reviews', type: 'integer', description: 'Included.', required: true },
      { name: 'nr_excluded_reviews', sql: 'ps.nr_excluded_reviews', type: 'integer', description: 'Excluded.', required: true },
      {
        name: 'nr_excluded_by_moderation_reviews',
        sql: 'ps.nr_excluded_by_moderation_reviews',
        type: 'integer',
        description: 'Excluded by moderation.',
        required: true,
      },
      {
        name: 'nr_excluded_by_threshold_reviews',
        sql: 'ps.nr_excluded_by_threshold_reviews',
        type: 'integer',
        description: 'Excluded by threshold.',
        required: true,
      },
    ],
  },
  {
    name: 'audit_chain',
    title: "The round's audit chain",
    description:
      "The round's audit entries with their hash chain (docs/security.md): each entry's hash is the SHA-256 of the canonical JSON of its header (v, id, created_at, actor_user_id, action, entity, entity_id, event_id, data_sha256, prev_hash, event_prev_hash); data_sha256 that of {before, after}, given in `data` for the runs and configuration changes. event_prev_hash links the round's entries; the last entry's hash is the head.",
    from: (e, upTo) => `from audit_log a where a.event_id = ${e} and a.hash is not null and a.id <= ${upTo}`,
    orderBy: 'a.id',
    primaryKey: ['entry_id'],
    columns: [
      { name: 'entry_id', sql: 'a.id', type: 'integer', description: "The entry's id.", required: true },
      {
        name: 'created_at',
        sql: iso('a.created_at'),
        type: 'string',
        description: 'When (UTC, ISO 8601, to the millisecond).',
        required: true,
      },
      {
        name: 'actor_user_id',
        sql: 'a.actor_user_id',
        type: 'integer',
        description: "The acting admin's account number (no name), empty for an operator command.",
      },
      { name: 'action', sql: 'a.action', type: 'string', description: 'What was done.', required: true },
      { name: 'entity', sql: 'a.entity', type: 'string', description: 'On what.', required: true },
      { name: 'entity_id', sql: 'a.entity_id', type: 'string', description: 'Which one.' },
      { name: 'event_id', sql: 'a.event_id', type: 'integer', description: 'The round.', required: true },
      {
        name: 'data_sha256',
        sql: 'a.data_sha256',
        type: 'string',
        description: 'SHA-256 of the canonical JSON of {before, after}.',
        required: true,
      },
      { name: 'prev_hash', sql: 'a.prev_hash', type: 'string', description: "The hash of the log's previous entry." },
      { name: 'event_prev_hash', sql: 'a.event_prev_hash', type: 'string', description: "The hash of the round's previous entry." },
      { name: 'hash', sql: 'a.hash', type: 'string', description: "The entry's hash.", required: true },
      {
        name: 'data',
        sql: `case when ${publishedAction('a.action')} then jsonb_build_object('before', a.before, 'after', a.after)::text end`,
        type: 'string',
        description: '{before, after} as JSON, for the runs and configuration changes; empty for the rest (their digest only).',
      },
    ],
  },
];

/** The SELECT of a table for COPY, and the columns COPY quotes (every text column, as the other writer does). */
export function tableQuery(table: Table, eventId: number, upTo: number) {
  const select = table.columns.map((column) => `${column.freeText ? csvText(column.sql) : column.sql} as ${column.name}`).join(', ');
  return {
    query: `select ${select} ${table.from(eventId, upTo)} order by ${table.orderBy}`,
    textColumns: table.columns.filter((column) => column.type === 'string').map((column) => column.name),
  };
}
