/**
 * The codes and rules the web app needs on every page (navigation, bars, stage, the proposals table), without zod:
 * importing a schema module pulls all of zod into the first load (issue 16). The schema modules re-export these, so
 * `@cr/contract/users`, `/events`, `/subscriptions`, `/rules` and `/proposals` answer the same names as before.
 */

// ---------- users (spec §4, §6) ----------

/** Account status, spec §4. */
export const AccountStatus = { inactive: 0, email_verified: 1, active: 2, banned: 3 } as const;
export type AccountStatus = (typeof AccountStatus)[keyof typeof AccountStatus];
/** Issue 47: the longest reason an admin may give for a ban (shown to the person on their next login attempt). */
export const BAN_REASON_MAX = 500;
/**
 * Issue 47: a closed account keeps its row with `closed:<user id>` as its Catalyst ID (never a real one: a Catalyst
 * ID always has a '/'), so that the person's own ID is free again.
 */
export const closedCatalystId = (userId: number) => `closed:${userId}`;
export const isClosedCatalystId = (id: string) => /^(?:id\.catalyst:\/\/)?closed:\d+$/.test(id);
/** On-chain registration status, spec §4. */
export const RegistrationStatus = { initialized: 0, not_found: 1, volatile: 2, persistent: 3 } as const;
/** Due-diligence status, spec §4. */
export const DueDiligenceStatus = { unknown: 0, initialized: 1, pending: 2, green: 3, red: 4 } as const;
/** User role, spec §6: admin is 100. */
export const UserRole = { user: 0, admin: 100 } as const;

// ---------- Catalyst IDs (spec §5, §9) ----------

export const CATALYST_ID_SCHEME = 'id.catalyst://';
const SCHEME_PREFIX = /^[a-z][a-z0-9+.-]*:\/\//i;
const ENCRYPT_SUFFIX = '#encrypt';

/** The stored form of a Catalyst ID: scheme prefix stripped and the '#encrypt' suffix kept apart. */
export function normalizeCatalystId(value: string): { id: string; encrypt: boolean } {
  let id = value.trim().replace(SCHEME_PREFIX, '');
  const encrypt = id.toLowerCase().endsWith(ENCRYPT_SUFFIX);
  if (encrypt) id = id.slice(0, -ENCRYPT_SUFFIX.length);
  return { id, encrypt };
}

/** Display form: the fixed scheme prefix followed by the network part, e.g. 'id.catalyst://cardano/…' (spec §9). */
export function displayCatalystId(value: string): string {
  return CATALYST_ID_SCHEME + normalizeCatalystId(value).id;
}

// ---------- event switches and stage (spec §3 "Event config", §4) ----------

type ConfigValue = Record<string, boolean | string | null>;

/** The switches and windows the server knows (reference API "ReviewsSwitches" plus review visibility). */
export const SWITCHES = [
  'user_registration_enabled',
  'reviewer_subscription_enabled',
  'review_visibility_enabled',
  'review_submission_enabled',
  'moderation_submission_enabled',
] as const;
export type SwitchName = (typeof SWITCHES)[number];

/** Switches that have a time window: `<x>_starts_at` and `<x>_ends_at` next to `<x>_enabled`. */
export const WINDOWED = ['reviewer_subscription', 'review_submission', 'moderation_submission'] as const;

/**
 * Whether a switch counts now: it is on and, where its window's start and end are set, now lies between them.
 * The server enforces this; the web app uses the same rule for the stage and the navigation.
 */
export function switchActive(config: ConfigValue | undefined, name: SwitchName, now: Date = new Date()): boolean {
  if (!config || config[name] !== true) return false;
  const prefix = name.slice(0, -'_enabled'.length);
  const starts = config[`${prefix}_starts_at`];
  const ends = config[`${prefix}_ends_at`];
  const time = now.getTime();
  if (typeof starts === 'string' && time < Date.parse(starts)) return false;
  if (typeof ends === 'string' && time > Date.parse(ends)) return false;
  return true;
}

/**
 * Whether an event's reviews are visible to the public: review visibility on, or moderation submission on, which
 * overrides it (spec §3 "Event config"). The reviews endpoints apply it.
 */
export function reviewsVisible(config: ConfigValue | undefined, now: Date = new Date()): boolean {
  return switchActive(config, 'moderation_submission_enabled', now) || switchActive(config, 'review_visibility_enabled', now);
}

export const EVENT_STAGES = ['inter_fund_period', 'inactive', 'subscription_open', 'review_open', 'moderation_open'] as const;
export type EventStage = (typeof EVENT_STAGES)[number];

/**
 * moderation_open when any current event has moderation submission enabled, otherwise review_open when any has
 * review submission enabled, otherwise subscription_open when any has reviewer subscription enabled, otherwise
 * inactive. inter_fund_period is never derived (DOMAIN.md decision 10).
 */
export function deriveStage(configs: readonly (ConfigValue | undefined)[], now: Date = new Date()): EventStage {
  const any = (name: SwitchName) => configs.some((config) => switchActive(config, name, now));
  if (any('moderation_submission_enabled')) return 'moderation_open';
  if (any('review_submission_enabled')) return 'review_open';
  if (any('reviewer_subscription_enabled')) return 'subscription_open';
  return 'inactive';
}

// ---------- subscriptions (spec §4, DOMAIN.md "Subscriptions and levels") ----------

export const SubscriptionStatus = { subscribed: 0, active: 1, excluded: 2, invited: 3, refused: 4 } as const;
export type SubscriptionStatusValue = (typeof SubscriptionStatus)[keyof typeof SubscriptionStatus];

export const ReviewerLevel = { level_0: 0, level_1: 1, level_2: 2 } as const;
export type ReviewerLevelValue = (typeof ReviewerLevel)[keyof typeof ReviewerLevel];

/**
 * What the reviewer rules below read of a user; `UserInfo` (users.ts) has this shape. Named here rather than imported,
 * as users.ts builds on this file and a type-only import back would close a loop (issue 26 item 17).
 */
export interface ReviewerFacts {
  catalyst_id: { status: number; rbac_reg_status: number };
  extra: { subscriptions: readonly { event_id: number; role: number; status: number }[] };
}

/** A user's account may do reviewer work: active, and validated on the blockchain (spec §4 "fully activated"). */
export function accountReady(user: Pick<ReviewerFacts, 'catalyst_id'>): boolean {
  return user.catalyst_id.status === AccountStatus.active && user.catalyst_id.rbac_reg_status === RegistrationStatus.persistent;
}

/** Whether the user can review an event: a ready account and an active LV0 or LV1 subscription to it (DOMAIN.md "Reviews"). */
export function canReview(user: ReviewerFacts, eventId: number): boolean {
  return (
    accountReady(user) &&
    user.extra.subscriptions.some(
      (item) => item.event_id === eventId && item.role !== ReviewerLevel.level_2 && item.status === SubscriptionStatus.active,
    )
  );
}

/** Whether the user moderates an event: a ready account and an active level-2 subscription to it. */
export function isModerator(user: ReviewerFacts, eventId: number): boolean {
  return (
    accountReady(user) &&
    user.extra.subscriptions.some(
      (item) => item.event_id === eventId && item.role === ReviewerLevel.level_2 && item.status === SubscriptionStatus.active,
    )
  );
}

// ---------- proposals ----------

/** The short id of the list (spec §2.11): the part of pr_id before the first hyphen. */
export const shortId = (prId: string) => prId.split('-')[0] ?? prId;

// ---------- reviews (the form's rules; reviews.ts builds its schemas from them) ----------

export const NOTE_MIN = 200;
export const NOTE_MAX = 3000;
export const RATING_MAX = 5;

/**
 * Length of a text not counting white space (spec §5 Review notes), in characters as a person counts them: an emoji
 * or any other character outside the Basic Multilingual Plane is one, not two UTF-16 units.
 */
export function nonWhitespaceLength(text: string): number {
  let count = 0;
  for (const _char of text.replace(/\s/gu, '')) count += 1;
  return count;
}

// ---------- reviews ----------

/** On the wire (DOMAIN.md "Reference"): 0 pending, 1 included, 2 excluded by moderation, 3 excluded by threshold. */
export const ReviewRanking = { pending: 0, included: 1, excluded_moderation: 2, excluded_threshold: 3 } as const;
export type ReviewRanking = (typeof ReviewRanking)[keyof typeof ReviewRanking];

/** The ranking as shown (spec §4): pending reads 'pending moderation' unless the review is moderated. */
export function rankingLabel(
  ranking: number | null,
  moderated: boolean,
): 'pending' | 'pending_moderation' | 'included' | 'excluded_moderation' | 'excluded_threshold' {
  switch (ranking) {
    case ReviewRanking.included:
      return 'included';
    case ReviewRanking.excluded_moderation:
      return 'excluded_moderation';
    case ReviewRanking.excluded_threshold:
      return 'excluded_threshold';
    default:
      return moderated ? 'pending' : 'pending_moderation';
  }
}

// ---------- subscriptions ----------

/** Displayed 'LV' plus the number (spec §4). */
export const levelLabel = (level: number) => `LV${level}`;

/** The counts a reviewer's approval rate and excluded reviews come from (spec §2.16). */
export interface CountedReviews {
  valid: number;
  submitted: number;
  blank: number;
}

/**
 * Approval rate (spec §2.16): valid divided by (submitted minus blank); 0 when nothing was submitted or all was blank.
 */
export function approvalRate(history: CountedReviews): number {
  const counted = history.submitted - history.blank;
  return counted > 0 ? history.valid / counted : 0;
}

/** Excluded reviews (spec §2.16): submitted minus blank minus valid. */
export function excludedReviews(history: CountedReviews): number {
  return Math.max(0, history.submitted - history.blank - history.valid);
}

// ---------- flags ----------

/** On the wire a flag type is an integer: 0 profanity, 1 similarity, 2 ai_generated. */
export const FlagType = { profanity: 0, similarity: 1, ai_generated: 2 } as const;
export type FlagType = (typeof FlagType)[keyof typeof FlagType];
export const flagTypeName = (type: number): keyof typeof FlagType | undefined =>
  (Object.keys(FlagType) as (keyof typeof FlagType)[]).find((name) => FlagType[name] === type);

// ---------- proposals ----------

/** The field types of spec §2.12, by their template element names. */
export const FieldType = {
  markdown: 'multiLineTextEntryMarkdown',
  singleLine: 'singleLineTextEntry',
  multiLine: 'multiLineTextEntry',
  yesNo: 'yesNoChoice',
  agreement: 'agreementConfirmation',
  urlList: 'singleLineHttpsURLEntryList',
  tagInput: 'tagInput',
  groupedTag: 'singleGroupedTagSelector',
} as const;

// ---------- moderations ----------

/** On the wire (§4): 0 excluded, 1 included. */
export const ModerationClassification = { excluded: 0, included: 1 } as const;
export type ModerationClassification = (typeof ModerationClassification)[keyof typeof ModerationClassification];

/** §5 reason lists; 'other' is always last and asks for the moderator's own words. */
export const EXCLUSION_REASONS = [
  'not_own_opinion',
  'profanity',
  'similarity',
  'rationale_does_not_correspond',
  'false_statement',
  'other',
] as const;
export const APPROVAL_REASONS = ['valid', 'own_opinion', 'not_profanity', 'not_similarity', 'not_similarity_variant', 'other'] as const;
export type ModerationReason = (typeof EXCLUSION_REASONS)[number] | (typeof APPROVAL_REASONS)[number];
export const reasonsFor = (classification: number): readonly ModerationReason[] =>
  classification === ModerationClassification.excluded ? EXCLUSION_REASONS : APPROVAL_REASONS;

/** §5, §9: a custom reason reaches at most 499 characters (500 shows 'max length'); rationale 0–3000 without spaces. */
export const CUSTOM_REASON_MAX = 500;
export const RATIONALE_MAX = 3000;

export const moderationMessages = {
  classificationRequired: 'classification required',
  customReasonRequired: 'custom reason required',
  maxLength: 'max length',
  rationaleRequired: 'A rationale is required',
  customRationaleRequired: 'A custom rationale is required',
  rationaleMax: 'Maximum length for rationale reached',
  reasonRequired: 'A reason from the list is required',
} as const;

// ---------- appeals ----------

export const APPEAL_RATIONALE_MIN = 200;
export const APPEAL_RATIONALE_MAX = 2000;

/** A decision on an appeal: 1 upheld (the review should be included), 0 rejected; with the reasons of spec §5. */
export const AppealDecision = { rejected: 0, upheld: 1 } as const;
/** Upholding an appeal includes the review: the approval reasons; rejecting keeps it excluded: the exclusion reasons. */
export const appealReasonsFor = (decision: number): readonly ModerationReason[] =>
  decision === AppealDecision.upheld ? APPROVAL_REASONS : EXCLUSION_REASONS;

// ---------- Catalyst IDs ----------

/** Optional identifier-scheme prefix, text, a slash, text, optional '#encrypt' suffix (spec §5 Registration). */
export const CATALYST_ID_PATTERN = /^(?:[a-z][a-z0-9+.-]*:\/\/)?[^\s/#]+\/[^\s/#]+(?:#encrypt)?$/i;

export function isCatalystId(value: string): boolean {
  return CATALYST_ID_PATTERN.test(value.trim());
}

// ---------- API tokens ----------

export const TOKEN_SCOPES = ['read', 'review', 'moderate', 'admin-read'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];
export const TOKEN_EXPIRY_DAYS_DEFAULT = 90;

// ---------- notifications ----------

/** Every notification kind, in the order the profile lists them. */
export const NOTIFICATION_KINDS = [
  'review_allocation',
  'review_reminder',
  'moderation_allocation',
  'moderation_reminder',
  'review_outcomes',
  'lv2_invitation',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
export const isNotificationKind = (value: string): value is NotificationKind => (NOTIFICATION_KINDS as readonly string[]).includes(value);
