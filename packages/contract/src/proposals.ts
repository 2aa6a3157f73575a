import { z } from 'zod';
import { bodyRowId, pageQuery, rowId } from './common';
import { messages, missingOr, text } from './rules';

/**
 * Proposals, their import and their allocation to reviewers (spec §2.11, §2.12, §2.17, §3 "Proposal", "Import
 * options", "Allocation parameters (proposals)", §5 "Proposal allocation", §7 "Proposals").
 */

// ---------- proposal ----------

/** One node of a proposal's extra information: a segment, a section or a field (reference API `ProposalExtraField`). */
export interface ProposalExtraField {
  /** The template element: 'segment', 'section', or a field type such as 'multiLineTextEntryMarkdown'; null when untyped. */
  ref: string | null;
  title: string | null;
  description?: string | null | undefined;
  answer?: unknown;
  sub_fields?: ProposalExtraField[] | null | undefined;
}
export const proposalExtraField: z.ZodType<ProposalExtraField> = z.lazy(() =>
  z.object({
    ref: z.string().nullable(),
    title: z.string().nullable(),
    description: z.string().nullable().optional(),
    answer: z.unknown().optional(),
    sub_fields: z.array(proposalExtraField).nullable().optional(),
  }),
);

export { FieldType } from './plain';

export const proposalScore = z.object({ overall: z.number(), impact: z.number(), feasibility: z.number(), value_for_money: z.number() });
export type ProposalScore = z.infer<typeof proposalScore>;

/** A proposal in lists (spec §2.11): no extra information. */
export const proposalRow = z.object({
  row_id: z.number().int(),
  pr_id: z.string(),
  title: z.string(),
  objective: z.number().int().nullable(),
  objective_title: z.string().nullable(),
  /** Same as objective_title (spec §3 names both). */
  category: z.string().nullable(),
  funds: z.number().nullable(),
  /** 'ADA' for every category but those paid in another token (Midnight: 'USDM'). */
  currency: z.string(),
  proposer_name: z.string().nullable(),
  summary: z.string().nullable(),
  url: z.string().nullable(),
  event_id: z.number().int(),
  /** Whether the viewer has submitted a review of it (false for visitors). */
  has_reviewed: z.boolean(),
});
export type ProposalRow = z.infer<typeof proposalRow>;

/** A single proposal (spec §2.12, §3). */
export const proposalPublic = proposalRow.extend({
  solution: z.string().nullable(),
  authors_count: z.number().int(),
  extra: z.object({ fields: z.array(proposalExtraField) }),
  score: proposalScore.nullable(),
});
export type ProposalPublic = z.infer<typeof proposalPublic>;

// The short id of the list (spec §2.11) lives in plain.ts (no zod).
export { shortId } from './plain';

export const proposalsQuery = pageQuery.extend({
  /** Part of the title, case-insensitive; trimmed, and ignored when empty. */
  title: text()
    .max(200)
    .optional()
    .transform((value) => value?.trim() || undefined),
  event_id: rowId.optional(),
  category: rowId.optional(),
});
export type ProposalsQuery = z.infer<typeof proposalsQuery>;

export const proposalIdParams = z.object({ id: rowId });

// ---------- allocation ----------

/** Spec §5 "Proposal allocation" and §9 defaults. */
export const ALLOCATION_DEFAULTS = { allocation_seed: 1, nr_of_proposals_lv0: 20, nr_of_proposals_lv1: 60 } as const;
/** A quota beyond any real round, so that a typo can't ask for millions of rows. */
export const MAX_ALLOCATION_QUOTA = 1000;

/** A required whole number: left out or null is 'required' (missingOr), a fraction or text is 'a whole number'. */
export const requiredInt = z.number({ error: missingOr(messages.integer) }).int({ error: messages.integer });

export const allocationParams = z.object({
  event_id: bodyRowId,
  allocation_seed: requiredInt.min(1, { error: messages.atLeast1 }),
  nr_of_proposals_lv0: requiredInt.min(0, { error: messages.atLeast0 }).max(MAX_ALLOCATION_QUOTA, { error: messages.atMostQuota }),
  nr_of_proposals_lv1: requiredInt.min(1, { error: messages.atLeast1 }).max(MAX_ALLOCATION_QUOTA, { error: messages.atMostQuota }),
  categories: z.array(bodyRowId).max(1000).default([]),
  dry_run: z.boolean().default(true),
});
export type AllocationParams = z.infer<typeof allocationParams>;
export type AllocationParamsInput = z.input<typeof allocationParams>;
/** The API body: a parameter left out takes the spec's default (§4; the reference API has defaults too, issue 17). */
export const allocationParamsBody = z.object({
  allocation_params: allocationParams.extend({
    allocation_seed: allocationParams.shape.allocation_seed.default(ALLOCATION_DEFAULTS.allocation_seed),
    nr_of_proposals_lv0: allocationParams.shape.nr_of_proposals_lv0.default(ALLOCATION_DEFAULTS.nr_of_proposals_lv0),
    nr_of_proposals_lv1: allocationParams.shape.nr_of_proposals_lv1.default(ALLOCATION_DEFAULTS.nr_of_proposals_lv1),
  }),
});

export const averages = z.object({ avg: z.number(), min: z.number(), max: z.number() });
/** Spec §3: tot, nr_of_reviewers (tot, lv0, lv1), per_reviewer and per_proposal (avg, max, min); plus histograms. */
export const allocationStats = z.object({
  tot: z.number().int(),
  nr_of_reviewers: z.object({ tot: z.number().int(), lv0: z.number().int(), lv1: z.number().int() }),
  per_reviewer: averages,
  per_proposal: averages,
  /** [allocations, how many proposals have that many] and the same per reviewer, for the statistics modal. */
  histograms: z.object({
    per_proposal: z.array(z.tuple([z.number().int(), z.number().int()])),
    per_reviewer: z.array(z.tuple([z.number().int(), z.number().int()])),
  }),
  dry_run: z.boolean(),
});
export type AllocationStats = z.infer<typeof allocationStats>;

// ---------- import ----------

/** Spec §3 "Import options", with the source of the documents. */
export const importOptions = z
  .object({
    /** Category titles to import; empty imports all. */
    categories: z.array(text().trim().min(1)).default([]),
    accept_non_existent_users: z.boolean().default(true),
    accept_non_persistent_users: z.boolean().default(true),
    dry_run: z.boolean().default(true),
    /** 'sample': the demo sample; 'file': `file` holds an upload; 'gateway': read from a Catalyst Gateway. */
    source: z.enum(['sample', 'file', 'gateway']).default('file'),
    file: z.unknown().optional(),
    gateway_url: z.url({ protocol: /^https?$/, error: messages.url }).optional(),
  })
  .superRefine((options, context) => {
    if (options.source === 'file' && options.file === undefined)
      context.addIssue({ code: 'custom', path: ['file'], message: messages.required });
  });
export type ImportOptions = z.infer<typeof importOptions>;
export type ImportOptionsInput = z.input<typeof importOptions>;
export const importOptionsBody = z.object({ import_options: importOptions });

/** A proposal template as uploaded: the JSON schema, and the category its proposals belong to. */
const uploadTemplate = z.object({ category: z.string().nullable().optional(), schema: z.record(z.string(), z.unknown()) });

/** One proposal document: the fields of a Catalyst Voices signed document the import needs, and its JSON payload. */
export const proposalDocument = z.object({
  id: z.string().min(1).max(100),
  ver: z.string().min(1).max(100).optional(),
  template: z.union([z.string().min(1), z.object({ id: z.string().min(1), ver: z.string().optional() })]),
  category: z.string().nullable().optional(),
  authors: z.array(z.string().min(1)).default([]),
  collaborators: z.array(z.string().min(1)).default([]),
  url: z
    .url({ protocol: /^https$/ })
    .nullable()
    .optional(),
  payload: z.record(z.string(), z.unknown()),
});
export type ProposalDocument = z.infer<typeof proposalDocument>;

/** The upload file (README "Importing proposals"): categories by id, templates by id, and the documents. */
export const importFile = z.object({
  format: z.literal('catalyst-voices-proposals/1'),
  categories: z.record(z.string(), z.string().min(1)).default({}),
  templates: z.record(z.string(), uploadTemplate),
  documents: z.array(proposalDocument),
});
export type ImportFile = z.input<typeof importFile>;
export type ParsedImportFile = z.infer<typeof importFile>;

/** A template's own title without the fund prefix and the ' Form' suffix: 'F14 Cardano Open: Developers Form' → 'Cardano Open: Developers'. */
export function categoryTitleOfTemplate(schema: Record<string, unknown>): string | null {
  const title = typeof schema.title === 'string' ? schema.title : null;
  if (!title) return null;
  return (
    title
      .replace(/^F\d+\s+/, '')
      .replace(/\s+Form$/, '')
      .trim() || null
  );
}

export const importResult = z.object({
  dry_run: z.boolean(),
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  skipped: z.number().int(),
  categories_created: z.array(z.string()),
  skipped_proposals: z.array(z.object({ pr_id: z.string(), title: z.string().nullable(), reason: z.string() })),
});
export type ImportResult = z.infer<typeof importResult>;
