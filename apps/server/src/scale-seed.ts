import { sql } from 'drizzle-orm';
import { DEFAULT_REVIEWS_CONFIG } from '@cr/contract/events';
import type { ProposalExtraField } from '@cr/contract/proposals';
import type { Db } from './db/client';
import { createPrng } from './domain/prng';
import { syntheticReviews } from './lib/note-corpus';
import { hashPassword } from './lib/secrets';
import { upsertConfig } from './db/config-records';
import { insertEvent } from './modules/events/events.repository';
import { rowsOf } from './db/rows';

/**
 * `npm run cli -- seed-scale`: a round at a given size for benchmarks and load tests: one active event open for
 * subscription and review, its categories, proposals with realistic extra information, accounts (password
 * `Scale-pass1`, active and registered) and their LV0/LV1 subscriptions, their reviews, and optionally LV2 moderators
 * with moderation allocations and moderations, written in set-based batches. With `flagsNotes` the reviews' notes
 * are the flags bench's synthetic corpus (varied text with planted near-duplicates) instead of one fixed note.
 */
export interface ScaleOptions {
  proposals: number;
  reviewers: number;
  categories: number;
  /** Share of reviewers at LV1 (with two preferred categories). */
  lv1Share: number;
  /** Share of reviewers who also authored a proposal (conflicts of interest). */
  authorShare: number;
  /** Reviews each reviewer has written (distinct proposals; a mix of rankings so that every filter has matches). */
  reviewsPerReviewer: number;
  seed: number;
  name?: string;
  /** Notes from the synthetic corpus (lib/note-corpus.ts) with this share of planted near-duplicates; else fixed text. */
  flagsNotes: boolean;
  duplicateRate: number;
  /** Active LV2 moderators subscribed to the round (accounts of their own, no conflicts of interest). */
  moderators: number;
  /**
   * Moderation allocations: min(4, moderators) distinct moderators per selected review, the selected reviews spread
   * evenly over the round's reviews, the moderators' loads differing by at most one.
   */
  moderationAllocations: number;
  /** Moderations written on the first of those allocations (four in five include, the rest exclude). */
  moderations: number;
}

export const SCALE_DEFAULTS: ScaleOptions = {
  proposals: 20_000,
  reviewers: 5_000,
  categories: 40,
  lv1Share: 0.3,
  authorShare: 0.05,
  reviewsPerReviewer: 10,
  seed: 1,
  flagsNotes: false,
  duplicateRate: 0.01,
  moderators: 0,
  moderationAllocations: 0,
  moderations: 0,
};
export const SCALE_PASSWORD = 'Scale-pass1';

const WORDS = [
  'open',
  'source',
  'wallet',
  'governance',
  'education',
  'identity',
  'payments',
  'defi',
  'oracle',
  'tooling',
  'community',
  'africa',
  'privacy',
  'stablecoin',
  'nft',
  'supply',
  'chain',
  'data',
  'mobile',
  'bridge',
  'audit',
  'indexer',
  'staking',
  'dao',
  'farming',
  'energy',
  'health',
  'music',
  'gaming',
  'translation',
];

const BATCH = 5_000;

function title(prng: ReturnType<typeof createPrng>, n: number) {
  const pick = () => WORDS[prng.below(WORDS.length)]!;
  const words = [pick(), pick(), pick(), pick()];
  return `${words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join(' ')} #${n}`;
}

function extraFor(text: string): { fields: ProposalExtraField[] } {
  const field = (ref: string, fieldTitle: string, answer: unknown): ProposalExtraField => ({
    ref,
    title: fieldTitle,
    answer,
    sub_fields: null,
  });
  const section = (sectionTitle: string, fields: ProposalExtraField[]): ProposalExtraField => ({
    ref: 'section',
    title: sectionTitle,
    answer: null,
    sub_fields: fields,
  });
  return {
    fields: [
      {
        ref: 'segment',
        title: 'Proposal Summary',
        answer: null,
        sub_fields: [section('Problem Statement', [field('multiLineTextEntry', 'What is the problem you want to solve?', text)])],
      },
      {
        ref: 'segment',
        title: 'Your Project and Solution',
        answer: null,
        sub_fields: [
          section('Solution', [
            field(
              'multiLineTextEntryMarkdown',
              'Please describe your proposed solution',
              `**${text}**\n\n- milestone one\n- milestone two`,
            ),
          ]),
        ],
      },
    ],
  };
}

/** A PostgreSQL array literal of the values (one text parameter, whatever the driver does with JS arrays). */
export function arrayLiteral(values: unknown[]): string {
  return `{${values.map((value) => (value === null || value === undefined ? 'NULL' : `"${String(value).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)).join(',')}}`;
}

/** Inserts rows through `insert … select from unnest(…)`, a batch per statement. */
async function unnestInsert(db: Db, table: string, columns: { name: string; type: string }[], rows: unknown[][], batchSize = BATCH) {
  for (let start = 0; start < rows.length; start += batchSize) {
    const batch = rows.slice(start, start + batchSize);
    const arrays = columns.map((_, c) => batch.map((row) => row[c]));
    const params = columns.map((column, c) => sql`${arrayLiteral(arrays[c]!)}::${sql.raw(column.type)}[]`);
    await db.execute(
      sql`insert into ${sql.identifier(table)} (${sql.raw(columns.map((column) => `"${column.name}"`).join(', '))}) select * from unnest(${sql.join(params, sql`, `)})`,
    );
  }
}

/** `count` active, registered accounts whose Catalyst IDs start with `prefix`; answers their users in id order. */
async function createAccounts(db: Db, prefix: string, emailPrefix: string, count: number, passwordHash: string) {
  if (count === 0) return [];
  await unnestInsert(
    db,
    'catalyst_ids',
    [
      { name: 'catalyst_id', type: 'text' },
      { name: 'email', type: 'text' },
    ],
    Array.from({ length: count }, (_, n) => [`${prefix}${n}`, `${emailPrefix}${n}@scale.test`]),
  );
  await db.execute(
    sql`update catalyst_ids set status = 2, rbac_reg_status = 3, email_verified_at = now() where catalyst_id like ${`${prefix}%`}`,
  );
  await db.execute(sql`
    insert into users (catalyst_id_ref, password_hash, policy_acknowledgments)
    select id, ${passwordHash}, '{"privacy_policy": true, "terms_and_conditions": true}'::jsonb from catalyst_ids where catalyst_id like ${`${prefix}%`}`);
  return rowsOf<{ id: number; catalyst_id: string }>(
    await db.execute(
      sql`select u.id, c.catalyst_id from users u join catalyst_ids c on c.id = u.catalyst_id_ref where c.catalyst_id like ${`${prefix}%`} order by u.id`,
    ),
  );
}

/**
 * Writes `count` notes of the synthetic corpus (three per review, `duplicateRate` of the reviews copying a note of an
 * earlier one with a few words changed) into the work table scale_seed_notes(n, impact, feasibility, auditability).
 */
async function writeCorpusNotes(db: Db, count: number, options: ScaleOptions) {
  await db.execute(sql`drop table if exists scale_seed_notes`);
  await db.execute(sql`create unlogged table scale_seed_notes (n int primary key, impact text, feasibility text, auditability text)`);
  const corpus = syntheticReviews(count, { seed: options.seed, duplicateRate: options.duplicateRate });
  await unnestInsert(
    db,
    'scale_seed_notes',
    [
      { name: 'n', type: 'int' },
      { name: 'impact', type: 'text' },
      { name: 'feasibility', type: 'text' },
      { name: 'auditability', type: 'text' },
    ],
    corpus.map((review, n) => [n, ...review.notes]),
    1_000,
  );
  return true;
}

/**
 * The moderation stage: `moderators` active LV2 subscriptions, `moderationAllocations` allocations (allocation k goes
 * to moderator k mod M and to selected review ⌊k / N⌋, N = min(4, M) moderators per review, the selected reviews
 * spread evenly over the round), and `moderations` on the first allocations: a review of every seventh reviewer is
 * excluded by all its moderators, one moderation in ten otherwise.
 */
async function seedModeration(db: Db, eventId: number, prefix: string, emailPrefix: string, options: ScaleOptions, passwordHash: string) {
  const moderators = await createAccounts(db, prefix, emailPrefix, options.moderators, passwordHash);
  await unnestInsert(
    db,
    'subscriptions',
    [
      { name: 'user_id', type: 'int' },
      { name: 'event_id', type: 'int' },
      { name: 'role', type: 'smallint' },
      { name: 'status', type: 'smallint' },
      { name: 'anonymous_id', type: 'text' },
      { name: 'public_contact', type: 'text' },
    ],
    moderators.map((user, n) => [user.id, eventId, 2, 1, `m${eventId}x${n.toString(36)}`, `moderator${n}@scale.test`]),
  );
  const reviewCount = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from reviews where event_id = ${eventId}`))[0]!
    .n;
  const perReview = Math.min(4, moderators.length);
  const allocations = perReview === 0 ? 0 : Math.min(options.moderationAllocations, reviewCount * perReview);
  if (allocations > 0) {
    const step = Math.max(1, Math.floor(reviewCount / Math.ceil(allocations / perReview)));
    await db.execute(sql`
      with revs as (select id, row_number() over (order by id) - 1 as rn from reviews where event_id = ${eventId}),
           mods as (select id, row_number() over (order by id) - 1 as rn from subscriptions where event_id = ${eventId} and role = 2)
      insert into moderation_allocations (event_id, review_id, subscription_id)
      select ${eventId}, revs.id, mods.id from generate_series(0, ${allocations - 1}) as k
      join revs on revs.rn = (k / ${perReview}) * ${step}
      join mods on mods.rn = k % ${moderators.length}
      order by k`);
  }
  const moderationCount = Math.min(options.moderations, allocations);
  if (moderationCount > 0)
    await db.execute(sql`
      insert into moderations (event_id, review_id, subscription_id, classification, rationale, predefined_reason)
      select a.event_id, a.review_id, a.subscription_id, c.classification,
             case when c.classification = 0 then 'The notes do not correspond to the proposal.' else 'A valid review.' end,
             case when c.classification = 0 then 'rationale_does_not_correspond' else 'valid' end
      from (select * from moderation_allocations where event_id = ${eventId} order by id limit ${moderationCount}) a
      join reviews r on r.id = a.review_id
      cross join lateral (select case when r.subscription_id % 7 = 0 or a.id % 10 = 0 then 0 else 1 end as classification) c`);
  return { moderators: moderators.length, moderationAllocations: allocations, moderations: moderationCount };
}

export async function seedScale(
  db: Db,
  input: Partial<ScaleOptions> = {},
): Promise<{
  eventId: number;
  proposals: number;
  reviewers: number;
  categories: number;
  reviews: number;
  moderators: number;
  moderationAllocations: number;
  moderations: number;
  seconds: number;
}> {
  const options = { ...SCALE_DEFAULTS, ...input };
  const started = performance.now();
  const prng = createPrng(options.seed);
  const now = Date.now();
  // Milliseconds and the seed: two runs within one second (a test file, a script) still get distinct names.
  const name = options.name ?? `Scale round ${new Date(now).toISOString().slice(0, 23)} #${options.seed}`;
  const event = await insertEvent(db, {
    name,
    description: `Generated by seed-scale: ${options.proposals} proposals, ${options.reviewers} reviewers.`,
    active: true,
    startTime: new Date(now - 86_400_000),
    endTime: new Date(now + 90 * 86_400_000),
  });
  await upsertConfig(db, 'reviews', event.id, {
    ...DEFAULT_REVIEWS_CONFIG,
    reviewer_subscription_enabled: true,
    review_submission_enabled: true,
    review_visibility_enabled: true,
  });

  const categoryRows = await db.execute<{ id: number }>(
    sql`insert into categories (event_id, title) select ${event.id}, 'Category ' || n from generate_series(1, ${options.categories}) as n returning id`,
  );
  const categoryIds =
    (categoryRows as unknown as { rows?: { id: number }[] }).rows?.map((row) => row.id) ??
    (categoryRows as unknown as { id: number }[]).map((row) => row.id);

  const tag = `${event.id}-${Math.floor(now / 1000).toString(36)}`;
  const proposalRows: unknown[][] = [];
  for (let n = 0; n < options.proposals; n += 1) {
    const text = `Proposal ${n} solves a real problem for the ${WORDS[n % WORDS.length]} community with a clear plan, a budget and milestones.`;
    proposalRows.push([
      event.id,
      `scale-${tag}-${n}`,
      title(prng, n),
      text,
      `Proposer ${n % 997}`,
      15_000 + prng.below(985) * 1000,
      'ADA',
      categoryIds[n % categoryIds.length],
      JSON.stringify(extraFor(text)),
      `scale-${n}`,
    ]);
  }
  await unnestInsert(
    db,
    'proposals',
    [
      { name: 'event_id', type: 'int' },
      { name: 'pr_id', type: 'text' },
      { name: 'title', type: 'text' },
      { name: 'summary', type: 'text' },
      { name: 'proposer_name', type: 'text' },
      { name: 'funds', type: 'bigint' },
      { name: 'currency', type: 'text' },
      { name: 'category_id', type: 'int' },
      { name: 'extra', type: 'jsonb' },
      { name: 'content_hash', type: 'text' },
    ],
    proposalRows,
  );

  // Accounts: Catalyst IDs, users and subscriptions, in three set-based steps.
  const passwordHash = await hashPassword(SCALE_PASSWORD);
  const users = await createAccounts(db, `cardano/scale-${tag}-`, `scale-${tag}-`, options.reviewers, passwordHash);
  const subscriptionRows: unknown[][] = [];
  users.forEach((user, n) => {
    const lv1 = prng.next() < options.lv1Share;
    const preferred = lv1 ? [categoryIds[prng.below(categoryIds.length)]!, categoryIds[prng.below(categoryIds.length)]!] : [];
    subscriptionRows.push([user.id, event.id, lv1 ? 1 : 0, 1, `s${tag}${n.toString(36)}`, JSON.stringify([...new Set(preferred)])]);
  });
  await unnestInsert(
    db,
    'subscriptions',
    [
      { name: 'user_id', type: 'int' },
      { name: 'event_id', type: 'int' },
      { name: 'role', type: 'smallint' },
      { name: 'status', type: 'smallint' },
      { name: 'anonymous_id', type: 'text' },
      { name: 'preferred_categories', type: 'jsonb' },
    ],
    subscriptionRows,
  );
  // Some reviewers authored proposals: conflicts of interest for the allocation.
  const authors = Math.floor(options.reviewers * options.authorShare);
  if (authors > 0) {
    await db.execute(sql`
      insert into proposal_authors (proposal_id, catalyst_key)
      select p.id, c.catalyst_id from (select id, row_number() over (order by id) as r from proposals where event_id = ${event.id}) p
      join (select catalyst_id, row_number() over (order by id) as r from catalyst_ids where catalyst_id like ${`cardano/scale-${tag}-%`}) c on c.r = p.r
      where p.r <= ${authors}`);
  }
  // Fresh statistics and visibility map, as autovacuum would leave them on a live database.
  const perReviewer = Math.min(options.reviewsPerReviewer, options.proposals);
  if (perReviewer > 0) {
    // Flags-ready notes: the corpus's note n goes to the review of reviewer r and k with n = r·k_max + k.
    const corpus = options.flagsNotes ? await writeCorpusNotes(db, options.reviewers * perReviewer, options) : false;
    // Reviewer r reviews proposals r·k … r·k+k−1 (mod the count): distinct per reviewer, spread over all proposals.
    const note = `${'The plan is clear, the budget is itemised and the milestones can be checked. '.repeat(3)}`;
    const notes = corpus
      ? sql`n.impact, n.feasibility, n.auditability`
      : sql`'Impact ' || subs.rn || '. ' || ${note} as impact, 'Feasibility ' || k || '. ' || ${note} as feasibility,
           'Value ' || k || '. ' || ${note} as auditability`;
    const join = corpus ? sql`join scale_seed_notes n on n.n = subs.rn * ${perReviewer} + k` : sql``;
    for (let from = 0; from < options.reviewers; from += 2_000) {
      await db.execute(sql`
        with subs as (select id, row_number() over (order by id) - 1 as rn from subscriptions where event_id = ${event.id} and role < 2),
             props as (select id, category_id, row_number() over (order by id) - 1 as rn from proposals where event_id = ${event.id}),
             rows as (
               select props.id as proposal_id, props.category_id, subs.id as subscription_id, subs.rn, k, ${notes}
               from subs cross join generate_series(0, ${perReviewer - 1}) as k
               join props on props.rn = (subs.rn * ${perReviewer} + k) % ${options.proposals}
               ${join}
               where subs.rn >= ${from} and subs.rn < ${from + 2_000})
        insert into reviews (event_id, proposal_id, category_id, subscription_id, impact_alignment_rating_given, impact_alignment_note,
                             feasibility_rating_given, feasibility_note, auditability_rating_given, auditability_note, ranking)
        select ${event.id}, proposal_id, category_id, subscription_id, 1 + (rn + k) % 5, impact,
               1 + (rn + 2 * k) % 5, feasibility, 1 + (rn * 3 + k) % 5, auditability,
               case when (rn + k) % 4 = 0 then 0 when (rn + k) % 4 = 1 then 1 else (rn + k) % 4 end
        from rows order by subscription_id, k
        on conflict do nothing`);
    }
    if (corpus) await db.execute(sql`drop table scale_seed_notes`);
  }
  const moderation = await seedModeration(db, event.id, `cardano/scalemod-${tag}-`, `scalemod-${tag}-`, options, passwordHash);
  await db.execute(sql`vacuum analyze`);
  return {
    eventId: event.id,
    proposals: options.proposals,
    reviewers: options.reviewers,
    categories: options.categories,
    reviews: options.reviewers * perReviewer,
    ...moderation,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}
