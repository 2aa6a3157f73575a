import { z } from 'zod';
import { messages, requiredText, text, missingOr } from './rules';
import { bodyRowId, rowId } from './common';

/**
 * Events (funding rounds), their configuration, review-level qualifiers, status messages and categories
 * (spec §3 "Event", "Event config", "Status message", "Review level qualifiers", §4 "Event stage", §5, §7).
 */

const isoDateTime = z.iso.datetime({ offset: true, error: messages.date });
const optionalDateTime = z
  .union([isoDateTime, z.null()])
  .optional()
  .transform((value) => value ?? null);

// ---------- events ----------

export const eventInput = z
  .object({
    name: requiredText.max(200, messages.maxLength),
    description: requiredText.max(5000, messages.maxLength),
    /** A new event is inactive unless said otherwise (spec §5 Event form). */
    active: z.boolean().default(false),
    start_time: optionalDateTime,
    end_time: optionalDateTime,
  })
  .refine((event) => !event.start_time || !event.end_time || Date.parse(event.end_time) > Date.parse(event.start_time), {
    message: messages.endAfterStart,
    path: ['end_time'],
  });
export type EventInput = z.input<typeof eventInput>;

export const newEventBody = z.object({ new_event: eventInput });
export const eventUpdateBody = z.object({ event_update: eventInput });

export const eventPublic = z.object({
  row_id: z.number().int(),
  name: z.string(),
  description: z.string(),
  active: z.boolean(),
  start_time: z.string().nullable(),
  end_time: z.string().nullable(),
});
export type EventPublic = z.infer<typeof eventPublic>;

export const eventIdParams = z.object({ eventId: rowId });
export const rowIdParams = z.object({ row_id: rowId });

// ---------- general configuration (configs/reviews/{eventId}) ----------

// The switches, their rule and the stage live in plain.ts (no zod: the web app's navigation uses them).
import { SWITCHES, WINDOWED } from './plain';
export { deriveStage, EVENT_STAGES, reviewsVisible, switchActive, SWITCHES, WINDOWED, type EventStage, type SwitchName } from './plain';

/**
 * A configuration as stored and served: a window that is not set is left out (never `null`), as the reference API's
 * ConfigPublic has it: its `*_at` are date-time strings (issue 17). A reader takes a missing window as unset.
 */
export const reviewsConfig = z.record(z.string(), z.union([z.boolean(), z.string()]));
export type ReviewsConfig = z.infer<typeof reviewsConfig>;

/** The switches of an event that has no configuration stored yet; its windows are not set. */
export const DEFAULT_REVIEWS_CONFIG: ReviewsConfig = {
  user_registration_enabled: true,
  reviewer_subscription_enabled: false,
  review_visibility_enabled: false,
  review_submission_enabled: false,
  moderation_submission_enabled: false,
};

/** What General Configuration shows for every event, set or not (B-050): the five switches and the three windows. */
export const GENERAL_SETTINGS: readonly string[] = [
  ...Object.keys(DEFAULT_REVIEWS_CONFIG),
  ...WINDOWED.flatMap((prefix) => [`${prefix}_starts_at`, `${prefix}_ends_at`]),
];

/**
 * Every setting the general configuration knows (issue 13 item 12): each switch and its window's start and end. Any
 * other name is refused, so that nobody can make the public configuration carry whatever they like.
 */
export const REVIEWS_SETTINGS: readonly string[] = SWITCHES.flatMap((name) => {
  const prefix = name.slice(0, -'_enabled'.length);
  return [name, `${prefix}_starts_at`, `${prefix}_ends_at`];
});
const KNOWN_SETTINGS = new Set(REVIEWS_SETTINGS);
export const isKnownSetting = (name: string) => KNOWN_SETTINGS.has(name);

/** The known settings of a stored map (one saved before unknown names were refused may hold others). */
export function knownSettings(map: ReviewsConfigValue): ReviewsConfigValue {
  return Object.fromEntries(Object.entries(map).filter(([name]) => KNOWN_SETTINGS.has(name)));
}

/**
 * A configuration as stored and served: the stored known settings (defaults where none is) with a save's settings
 * over them. A setting that ends up `null` is not set and is left out: a save clears a window by sending `null`, and
 * a record stored while unset windows were kept as `null` is served without them.
 */
export function mergeReviewsConfig(stored: ReviewsConfigValue, update: ReviewsConfigValue = {}): ReviewsConfig {
  const merged = { ...DEFAULT_REVIEWS_CONFIG, ...knownSettings(stored), ...update };
  return Object.fromEntries(Object.entries(merged).filter((entry): entry is [string, boolean | string] => entry[1] !== null));
}

/** The `<x>_ends_at` settings of a map whose end is not after its start. */
export function windowsEndingBeforeStart(map: ReviewsConfigValue): string[] {
  return SWITCHES.flatMap((name) => {
    const prefix = name.slice(0, -'_enabled'.length);
    const start = map[`${prefix}_starts_at`];
    const end = map[`${prefix}_ends_at`];
    return typeof start === 'string' && typeof end === 'string' && Date.parse(end) <= Date.parse(start) ? [`${prefix}_ends_at`] : [];
  });
}

/** Unknown names reported at most this often in one answer, so that a map of thousands of them stays a short one. */
const MAX_UNKNOWN_REPORTED = 10;

export type SettingKind = 'switch' | 'datetime' | 'text';

/** A name ending _enabled is a switch, _at a date-time, anything else text (spec §3 "Event config"). */
export function settingKind(name: string): SettingKind {
  if (name.endsWith('_enabled')) return 'switch';
  if (name.endsWith('_at')) return 'datetime';
  return 'text';
}

const settingValue = z.union([z.boolean(), text().max(2000, messages.maxLength), z.null()]);

/**
 * The flat map of settings; only known names (REVIEWS_SETTINGS), each value of the type its name's suffix says. A
 * save may send some of them only: the others keep their stored values. Names are checked in the refinement, not by
 * a key schema: zod reports a failed record key as 'Invalid key in record' and drops its message.
 */
export const reviewsConfigValue = z.record(z.string(), settingValue).superRefine((map, ctx) => {
  let unknown = 0;
  for (const [name, value] of Object.entries(map)) {
    if (!KNOWN_SETTINGS.has(name)) {
      unknown += 1;
      if (unknown <= MAX_UNKNOWN_REPORTED) ctx.addIssue({ code: 'custom', message: messages.unknownSetting, path: [name] });
      continue;
    }
    const kind = settingKind(name);
    const ok =
      kind === 'switch'
        ? typeof value === 'boolean'
        : kind === 'datetime'
          ? value === null || isoDateTime.safeParse(value).success
          : typeof value === 'string' || value === null;
    if (!ok) ctx.addIssue({ code: 'custom', message: kind === 'datetime' ? messages.date : messages.settingType, path: [name] });
  }
  for (const name of windowsEndingBeforeStart(map)) ctx.addIssue({ code: 'custom', message: messages.endAfterStart, path: [name] });
});
/** The settings a save sends: `null` clears one (the web form sends it for an empty window). */
export type ReviewsConfigValue = Record<string, boolean | string | null>;

export const reviewsConfigBody = z.object({ record_update: reviewsConfigValue });

/**
 * A stored configuration record, as the reference API's ConfigPublic: `id` is its kind, `id2` the event; its
 * AllocationGenerationPublic names them `config_type` and `event` (both are sent, issue 17).
 */
export function configRecord<T extends z.ZodType>(value: T) {
  return z.object({ row_id: z.number().int(), id: z.string(), id2: z.string(), config_type: z.string(), event: z.string(), value });
}
export const reviewsConfigPublic = configRecord(reviewsConfig);

// ---------- stage (spec §4) ----------

// ---------- review-level qualifiers ----------

const count = z.number({ error: messages.number }).int(messages.integer).min(0, messages.atLeast0);
const ratio = z.number({ error: messages.number }).min(0, messages.ratio).max(1, messages.ratio);

const qualifierFields = {
  min_valid_reviews: count,
  max_valid_reviews: count,
  min_perc_valid_reviews: ratio,
  max_perc_valid_reviews: ratio,
  min_active_funds: count,
  max_active_funds: count,
};
const maxNotBelowMin = (q: Record<keyof typeof qualifierFields, number>, ctx: z.RefinementCtx) => {
  for (const field of ['valid_reviews', 'perc_valid_reviews', 'active_funds'] as const) {
    if (q[`max_${field}`] < q[`min_${field}`]) ctx.addIssue({ code: 'custom', message: messages.notBelowMin, path: [`max_${field}`] });
  }
};
export const levelQualifier = z.object(qualifierFields).superRefine(maxNotBelowMin);
export type LevelQualifier = z.infer<typeof levelQualifier>;

export const levelQualifiers = z.object({ lv1: levelQualifier, lv2: levelQualifier });
export type LevelQualifiers = z.infer<typeof levelQualifiers>;
/**
 * The API body: a level or a field left out takes the reference API's default (`DEFAULT_LEVEL_QUALIFIER`, issue 17);
 * the form (levelQualifiers) still asks for each.
 */
const levelQualifierWithDefaults = () =>
  z
    .object({
      min_valid_reviews: count.default(0),
      max_valid_reviews: count.default(10),
      min_perc_valid_reviews: ratio.default(0.8),
      max_perc_valid_reviews: ratio.default(1),
      min_active_funds: count.default(0),
      max_active_funds: count.default(10),
    })
    .superRefine(maxNotBelowMin)
    .default({
      min_valid_reviews: 0,
      max_valid_reviews: 10,
      min_perc_valid_reviews: 0.8,
      max_perc_valid_reviews: 1,
      min_active_funds: 0,
      max_active_funds: 10,
    });
export const levelQualifiersBody = z.object({
  record_update: z.object({ lv1: levelQualifierWithDefaults(), lv2: levelQualifierWithDefaults() }),
});
export const levelQualifiersPublic = configRecord(levelQualifiers);

/** The reference API's defaults for both levels. */
export const DEFAULT_LEVEL_QUALIFIER: LevelQualifier = {
  min_valid_reviews: 0,
  max_valid_reviews: 10,
  min_perc_valid_reviews: 0.8,
  max_perc_valid_reviews: 1,
  min_active_funds: 0,
  max_active_funds: 10,
};

// ---------- allocation configuration ----------

export const allocationConfig = z.object({
  moderation_allocation_generated: z.boolean(),
  proposal_allocation_generated: z.boolean(),
  /** Set by the review outcomes and proposal scores runs (issue 15); absent until then. */
  review_outcomes_generated: z.boolean().optional(),
  proposal_scores_generated: z.boolean().optional(),
});
export type AllocationConfig = z.infer<typeof allocationConfig>;
export const allocationConfigPublic = configRecord(allocationConfig);

// ---------- status messages ----------

export const SEVERITIES = ['info', 'warning', 'critical', 'success'] as const;
export type Severity = (typeof SEVERITIES)[number];

const optionalText = (max: number) =>
  text()
    .trim()
    .max(max, messages.maxLength)
    .nullish()
    .transform((value) => value || null);

export const statusMessageInput = z.object({
  row_id: bodyRowId.optional(),
  /** HTML allowed; sanitised before it is stored and again when it is shown. Blank after trimming is refused. */
  message: requiredText.max(5000, messages.maxLength),
  severity: z.enum(SEVERITIES, { error: missingOr(messages.invalid) }),
  is_active: z.boolean().default(true),
  action_text: optionalText(100),
  action_url: optionalText(2000).pipe(
    z
      .string()
      .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), messages.url)
      .nullable(),
  ),
});
export type StatusMessageInput = z.input<typeof statusMessageInput>;

export const statusMessage = z.object({
  row_id: z.number().int(),
  message: z.string(),
  severity: z.enum(SEVERITIES),
  is_active: z.boolean(),
  action_text: z.string().nullable(),
  action_url: z.string().nullable(),
});
export type StatusMessage = z.infer<typeof statusMessage>;

export const statusConfigBody = z.object({ record_update: z.object({ messages: z.array(statusMessageInput).max(50) }) });
export const statusConfigPublic = z.object({
  row_id: z.number().int(),
  id: z.string(),
  value: z.object({ messages: z.array(statusMessage) }),
});

// ---------- categories ----------

export const category = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string().nullable(),
  event_id: z.number().int(),
  /** The reference API's names (issue 17): `row_id` (= id), `event` (= event_id), and the category document's id. */
  row_id: z.number().int(),
  event: z.number().int(),
  document_id: z.string().nullable(),
});
export type Category = z.infer<typeof category>;
export const categoriesQuery = z.object({ event_id: rowId.optional() });

// ---------- audit ----------

export const auditEntry = z.object({
  id: z.number().int(),
  action: z.string(),
  entity: z.string(),
  entity_id: z.string().nullable(),
  actor: z.string().nullable(),
  /** The event the entry belongs to (issue 28 item 4), null for changes that belong to none. */
  event_id: z.number().int().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  created_at: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntry>;
