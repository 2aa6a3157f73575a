import { describe, expect, it } from 'vitest';
import { MAX_ROW_ID } from '../src/common';
import {
  DEFAULT_LEVEL_QUALIFIER,
  DEFAULT_REVIEWS_CONFIG,
  EVENT_STAGES,
  categoriesQuery,
  eventIdParams,
  deriveStage,
  eventInput,
  levelQualifier,
  levelQualifiers,
  newEventBody,
  reviewsConfigValue,
  rowIdParams,
  settingKind,
  statusConfigBody,
  statusMessageInput,
  switchActive,
  type ReviewsConfigValue,
  mergeReviewsConfig,
  REVIEWS_SETTINGS,
  GENERAL_SETTINGS,
  reviewsConfig,
  SWITCHES,
} from '../src/events';
import { messages } from '../src/rules';

type Issue = { path: PropertyKey[]; message: string };
const issuesOf = (schema: { safeParse(value: unknown): { success: boolean; error?: { issues: Issue[] } } }, value: unknown) =>
  (schema.safeParse(value).error?.issues ?? []).map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message }));

const NOW = new Date('2030-06-15T12:00:00.000Z');
const BEFORE = '2030-06-01T00:00:00.000Z';
const AFTER = '2030-07-01T00:00:00.000Z';

describe('settingKind (B-049)', () => {
  it.each([
    ['user_registration_enabled', 'switch'],
    ['anything_enabled', 'switch'],
    ['review_submission_starts_at', 'datetime'],
    ['moderation_submission_ends_at', 'datetime'],
    ['custom_at', 'datetime'],
    ['welcome_text', 'text'],
    ['enabled_note', 'text'],
    ['at_home', 'text'],
    ['enabled', 'text'],
  ] as const)('%s is a %s', (name, kind) => {
    expect(settingKind(name)).toBe(kind);
  });
});

describe('switchActive', () => {
  const config = (values: ReviewsConfigValue): ReviewsConfigValue => ({ ...DEFAULT_REVIEWS_CONFIG, ...values });

  it('is off when the switch is off, even inside its window', () => {
    expect(
      switchActive(
        config({ review_submission_enabled: false, review_submission_starts_at: BEFORE, review_submission_ends_at: AFTER }),
        'review_submission_enabled',
        NOW,
      ),
    ).toBe(false);
  });

  it('is off for a missing config or a switch that is not exactly true', () => {
    expect(switchActive(undefined, 'review_submission_enabled', NOW)).toBe(false);
    expect(switchActive({ review_submission_enabled: 'true' }, 'review_submission_enabled', NOW)).toBe(false);
    expect(switchActive({}, 'review_submission_enabled', NOW)).toBe(false);
  });

  it('is on when on and no window is set', () => {
    expect(switchActive(config({ review_submission_enabled: true }), 'review_submission_enabled', NOW)).toBe(true);
  });

  it('is off before the window starts', () => {
    expect(
      switchActive(
        config({ review_submission_enabled: true, review_submission_starts_at: '2030-06-20T00:00:00Z', review_submission_ends_at: AFTER }),
        'review_submission_enabled',
        NOW,
      ),
    ).toBe(false);
  });

  it('is off after the window ends', () => {
    expect(
      switchActive(
        config({ review_submission_enabled: true, review_submission_starts_at: BEFORE, review_submission_ends_at: '2030-06-10T00:00:00Z' }),
        'review_submission_enabled',
        NOW,
      ),
    ).toBe(false);
  });

  it('is on inside the window', () => {
    expect(
      switchActive(
        config({ moderation_submission_enabled: true, moderation_submission_starts_at: BEFORE, moderation_submission_ends_at: AFTER }),
        'moderation_submission_enabled',
        NOW,
      ),
    ).toBe(true);
  });

  it('with only a start: off before it, on from it onwards', () => {
    const c = config({ reviewer_subscription_enabled: true, reviewer_subscription_starts_at: '2030-06-15T12:00:01Z' });
    expect(switchActive(c, 'reviewer_subscription_enabled', NOW)).toBe(false);
    expect(switchActive(c, 'reviewer_subscription_enabled', new Date('2031-01-01T00:00:00Z'))).toBe(true);
  });

  it('with only an end: on until it, off after it', () => {
    const c = config({ reviewer_subscription_enabled: true, reviewer_subscription_ends_at: '2030-06-15T11:59:59Z' });
    expect(switchActive(c, 'reviewer_subscription_enabled', NOW)).toBe(false);
    expect(switchActive(c, 'reviewer_subscription_enabled', new Date('2020-01-01T00:00:00Z'))).toBe(true);
  });

  it('counts both boundaries as inside the window', () => {
    const c = config({ review_submission_enabled: true, review_submission_starts_at: BEFORE, review_submission_ends_at: AFTER });
    expect(switchActive(c, 'review_submission_enabled', new Date(BEFORE))).toBe(true);
    expect(switchActive(c, 'review_submission_enabled', new Date(AFTER))).toBe(true);
    expect(switchActive(c, 'review_submission_enabled', new Date(Date.parse(BEFORE) - 1))).toBe(false);
    expect(switchActive(c, 'review_submission_enabled', new Date(Date.parse(AFTER) + 1))).toBe(false);
  });

  it('compares instants, not text: an offset start is the same moment as its UTC form', () => {
    const c = config({ review_submission_enabled: true, review_submission_starts_at: '2030-06-15T14:00:00+02:00' });
    expect(switchActive(c, 'review_submission_enabled', NOW)).toBe(true);
    expect(switchActive(c, 'review_submission_enabled', new Date(NOW.getTime() - 1))).toBe(false);
  });

  it('treats a switch without window settings (user registration) as on whenever it is on', () => {
    expect(switchActive(config({ user_registration_enabled: true }), 'user_registration_enabled', NOW)).toBe(true);
    expect(switchActive(config({ user_registration_enabled: false }), 'user_registration_enabled', NOW)).toBe(false);
  });
});

describe('deriveStage (B-009 to B-013)', () => {
  const on = (name: string, window: { starts?: string; ends?: string } = {}): ReviewsConfigValue => {
    const prefix = name.slice(0, -'_enabled'.length);
    return {
      ...DEFAULT_REVIEWS_CONFIG,
      [name]: true,
      ...(window.starts ? { [`${prefix}_starts_at`]: window.starts } : {}),
      ...(window.ends ? { [`${prefix}_ends_at`]: window.ends } : {}),
    };
  };

  it('is moderation_open when any current event has moderation submission enabled (B-010)', () => {
    expect(deriveStage([DEFAULT_REVIEWS_CONFIG, on('moderation_submission_enabled')], NOW)).toBe('moderation_open');
  });

  it('is review_open when none moderates and any has review submission enabled (B-011)', () => {
    expect(deriveStage([on('review_submission_enabled'), DEFAULT_REVIEWS_CONFIG], NOW)).toBe('review_open');
  });

  it('is subscription_open when only reviewer subscription is enabled (B-012)', () => {
    expect(deriveStage([on('reviewer_subscription_enabled')], NOW)).toBe('subscription_open');
  });

  it('is inactive otherwise (B-013): no events, default configs, missing configs', () => {
    expect(deriveStage([], NOW)).toBe('inactive');
    expect(deriveStage([DEFAULT_REVIEWS_CONFIG], NOW)).toBe('inactive');
    expect(deriveStage([undefined], NOW)).toBe('inactive');
    expect(deriveStage([{ ...DEFAULT_REVIEWS_CONFIG, user_registration_enabled: true, review_visibility_enabled: true }], NOW)).toBe(
      'inactive',
    );
  });

  it('lets moderation beat review and review beat subscription, in one event or across events', () => {
    const all = { ...on('reviewer_subscription_enabled'), review_submission_enabled: true, moderation_submission_enabled: true };
    expect(deriveStage([all], NOW)).toBe('moderation_open');
    expect(
      deriveStage([on('reviewer_subscription_enabled'), on('review_submission_enabled'), on('moderation_submission_enabled')], NOW),
    ).toBe('moderation_open');
    expect(deriveStage([on('reviewer_subscription_enabled'), on('review_submission_enabled')], NOW)).toBe('review_open');
    expect(deriveStage([{ ...on('reviewer_subscription_enabled'), review_submission_enabled: true }], NOW)).toBe('review_open');
  });

  it('never derives inter_fund_period (B-009), though it is a known stage', () => {
    expect(EVENT_STAGES).toEqual(['inter_fund_period', 'inactive', 'subscription_open', 'review_open', 'moderation_open']);
    const samples = [
      [],
      [DEFAULT_REVIEWS_CONFIG],
      [on('reviewer_subscription_enabled')],
      [on('review_submission_enabled')],
      [on('moderation_submission_enabled')],
    ];
    for (const configs of samples) expect(deriveStage(configs, NOW)).not.toBe('inter_fund_period');
  });

  it('does not count a switch outside its window', () => {
    const moderationLater = on('moderation_submission_enabled', { starts: '2030-07-01T00:00:00Z' });
    const reviewOver = on('review_submission_enabled', { ends: '2030-06-01T00:00:00Z' });
    expect(deriveStage([moderationLater], NOW)).toBe('inactive');
    expect(deriveStage([moderationLater, on('review_submission_enabled', { starts: BEFORE, ends: AFTER })], NOW)).toBe('review_open');
    expect(deriveStage([moderationLater, reviewOver, on('reviewer_subscription_enabled')], NOW)).toBe('subscription_open');
    expect(deriveStage([moderationLater], new Date('2030-07-02T00:00:00Z'))).toBe('moderation_open');
  });
});

describe('reviewsConfigValue: suffix typing (B-049, B-050)', () => {
  it('accepts the default map, a part of it, and the windows of every switch', () => {
    expect(reviewsConfigValue.safeParse(DEFAULT_REVIEWS_CONFIG).success).toBe(true);
    expect(reviewsConfigValue.safeParse({ review_submission_enabled: true }).success).toBe(true);
    expect(reviewsConfigValue.safeParse({ user_registration_starts_at: null, review_visibility_ends_at: AFTER }).success).toBe(true);
    expect(REVIEWS_SETTINGS).toHaveLength(15);
  });

  it('refuses names it does not know, reporting at most ten (issue 13 item 12)', () => {
    expect(issuesOf(reviewsConfigValue, { ...DEFAULT_REVIEWS_CONFIG, welcome_text: 'Hello' })).toEqual([
      { path: 'welcome_text', message: messages.unknownSetting },
    ]);
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`extra_${index}_enabled`, true]));
    expect(issuesOf(reviewsConfigValue, many)).toHaveLength(10);
  });

  it('merges a save over the stored known settings, dropping unknown stored ones', () => {
    expect(mergeReviewsConfig({ review_submission_enabled: true, junk: 'x' }, { moderation_submission_enabled: true })).toEqual({
      ...DEFAULT_REVIEWS_CONFIG,
      review_submission_enabled: true,
      moderation_submission_enabled: true,
    });
  });

  it('leaves a window that is not set out: a save clears one with null, and a stored null is not served (issue 17)', () => {
    const stored = { ...DEFAULT_REVIEWS_CONFIG, review_submission_starts_at: BEFORE, review_submission_ends_at: null };
    expect(mergeReviewsConfig(stored)).toEqual({ ...DEFAULT_REVIEWS_CONFIG, review_submission_starts_at: BEFORE });
    expect(mergeReviewsConfig(stored, { review_submission_starts_at: null, moderation_submission_ends_at: AFTER })).toEqual({
      ...DEFAULT_REVIEWS_CONFIG,
      moderation_submission_ends_at: AFTER,
    });
    expect(reviewsConfig.safeParse(mergeReviewsConfig(stored)).success).toBe(true);
    expect(reviewsConfig.safeParse({ review_submission_starts_at: null }).success).toBe(false);
  });

  it('sets no window by default: the defaults are the five switches', () => {
    expect(Object.keys(DEFAULT_REVIEWS_CONFIG).sort()).toEqual([...SWITCHES].sort());
  });

  it('shows the five switches and the three windows in General Configuration, set or not (B-050)', () => {
    expect([...GENERAL_SETTINGS].sort()).toEqual(
      [
        'user_registration_enabled',
        'reviewer_subscription_enabled',
        'review_visibility_enabled',
        'review_submission_enabled',
        'moderation_submission_enabled',
        'reviewer_subscription_starts_at',
        'reviewer_subscription_ends_at',
        'review_submission_starts_at',
        'review_submission_ends_at',
        'moderation_submission_starts_at',
        'moderation_submission_ends_at',
      ].sort(),
    );
  });

  it.each([
    ['a switch given as text', { review_submission_enabled: 'yes' }, 'review_submission_enabled', messages.settingType],
    ['a switch given as null', { review_submission_enabled: null }, 'review_submission_enabled', messages.settingType],
    ['a date-time that is not ISO', { review_submission_starts_at: '15/06/2030' }, 'review_submission_starts_at', messages.date],
    ['a date-time without offset', { review_submission_starts_at: '2030-06-15T12:00:00' }, 'review_submission_starts_at', messages.date],
    ['a date-time given as a boolean', { review_submission_ends_at: true }, 'review_submission_ends_at', messages.date],
    [
      'an end before the start',
      { moderation_submission_starts_at: AFTER, moderation_submission_ends_at: BEFORE },
      'moderation_submission_ends_at',
      messages.endAfterStart,
    ],
    [
      'an end equal to the start',
      { review_submission_starts_at: BEFORE, review_submission_ends_at: BEFORE },
      'review_submission_ends_at',
      messages.endAfterStart,
    ],
  ])('refuses %s', (_label, value, path, message) => {
    expect(issuesOf(reviewsConfigValue, value)).toContainEqual({ path, message });
  });

  it('accepts null date-times and an end after the start with offsets', () => {
    expect(reviewsConfigValue.safeParse({ review_submission_starts_at: null, review_submission_ends_at: null }).success).toBe(true);
    expect(
      reviewsConfigValue.safeParse({
        review_submission_starts_at: '2030-06-15T12:00:00+02:00',
        review_submission_ends_at: '2030-06-15T11:00:00Z',
      }).success,
    ).toBe(true);
  });

  it.each(['Bad-Name', '', '1st', 'with space', 'x'.repeat(65), 'constructor'])('refuses the setting name %j', (name) => {
    expect(issuesOf(reviewsConfigValue, { [name]: 'x' })).toEqual([{ path: name, message: messages.unknownSetting }]);
  });
});

describe('levelQualifier (B-053, B-054, B-055)', () => {
  const valid = { ...DEFAULT_LEVEL_QUALIFIER };

  it('accepts the defaults and both bounds', () => {
    expect(levelQualifier.safeParse(valid).success).toBe(true);
    expect(
      levelQualifier.safeParse({
        ...valid,
        min_valid_reviews: 0,
        max_valid_reviews: 0,
        min_perc_valid_reviews: 0,
        max_perc_valid_reviews: 1.0,
      }).success,
    ).toBe(true);
    expect(levelQualifier.safeParse({ ...valid, min_perc_valid_reviews: 1, max_perc_valid_reviews: 1 }).success).toBe(true);
  });

  it.each([
    ['a negative count (B-054)', { min_valid_reviews: -1 }, 'min_valid_reviews', messages.atLeast0],
    ['a negative active-funds count (B-054)', { max_active_funds: -1 }, 'max_active_funds', messages.atLeast0],
    ['a non-integer count (B-054)', { max_valid_reviews: 2.5 }, 'max_valid_reviews', messages.integer],
    ['a count given as text (B-054)', { min_active_funds: '1' }, 'min_active_funds', messages.number],
    ['a missing count (B-054 required)', { min_valid_reviews: undefined }, 'min_valid_reviews', messages.number],
    ['a percentage below 0 (B-055)', { min_perc_valid_reviews: -0.01 }, 'min_perc_valid_reviews', messages.ratio],
    ['a percentage above 1 (B-055)', { max_perc_valid_reviews: 1.01 }, 'max_perc_valid_reviews', messages.ratio],
    ['a missing percentage (B-055 required)', { max_perc_valid_reviews: undefined }, 'max_perc_valid_reviews', messages.number],
    ['a percentage of null (B-055 required)', { min_perc_valid_reviews: null }, 'min_perc_valid_reviews', messages.number],
  ])('refuses %s', (_label, overrides, path, message) => {
    expect(issuesOf(levelQualifier, { ...valid, ...overrides })).toContainEqual({ path, message });
  });

  it.each([
    ['valid reviews', { min_valid_reviews: 5, max_valid_reviews: 4 }, 'max_valid_reviews'],
    ['percentages', { min_perc_valid_reviews: 0.9, max_perc_valid_reviews: 0.8 }, 'max_perc_valid_reviews'],
    ['active funds', { min_active_funds: 3, max_active_funds: 2 }, 'max_active_funds'],
  ])('refuses a max below its min (%s), reported on the max', (_label, overrides, path) => {
    expect(issuesOf(levelQualifier, { ...valid, ...overrides })).toEqual([{ path, message: messages.notBelowMin }]);
  });

  it('accepts max equal to min', () => {
    expect(
      levelQualifier.safeParse({
        ...valid,
        min_valid_reviews: 4,
        max_valid_reviews: 4,
        min_perc_valid_reviews: 0.5,
        max_perc_valid_reviews: 0.5,
      }).success,
    ).toBe(true);
  });

  it('requires both levels, each with every field (B-053)', () => {
    expect(levelQualifiers.safeParse({ lv1: valid, lv2: valid }).success).toBe(true);
    expect(issuesOf(levelQualifiers, { lv1: valid }).map((issue) => issue.path)).toEqual(['lv2']);
    expect(issuesOf(levelQualifiers, { lv1: valid, lv2: { ...valid, max_perc_valid_reviews: 2 } }).map((issue) => issue.path)).toEqual([
      'lv2.max_perc_valid_reviews',
    ]);
  });
});

describe('status message rules (B-038 to B-041)', () => {
  const base = { message: '<b>Hello</b>', severity: 'info' };

  it('accepts a message with HTML, each severity, and fills the optional fields (B-038)', () => {
    for (const severity of ['info', 'warning', 'critical', 'success']) {
      expect(statusMessageInput.parse({ ...base, severity })).toEqual({
        message: '<b>Hello</b>',
        severity,
        is_active: true,
        action_text: null,
        action_url: null,
      });
    }
  });

  it('requires a message (B-039)', () => {
    expect(issuesOf(statusMessageInput, { severity: 'info' })).toEqual([{ path: 'message', message: messages.required }]);
    expect(issuesOf(statusMessageInput, { ...base, message: '' })).toEqual([{ path: 'message', message: messages.required }]);
  });

  it('refuses a message that is blank after trimming and trims a kept one (B-040)', () => {
    expect(issuesOf(statusMessageInput, { ...base, message: ' \n\t ' })).toEqual([{ path: 'message', message: messages.required }]);
    expect(statusMessageInput.parse({ ...base, message: '  Maintenance tonight  ' }).message).toBe('Maintenance tonight');
  });

  it('refuses an unknown or missing severity (B-038)', () => {
    expect(issuesOf(statusMessageInput, { ...base, severity: 'danger' })).toEqual([{ path: 'severity', message: messages.invalid }]);
    expect(issuesOf(statusMessageInput, { message: 'x' })).toEqual([{ path: 'severity', message: messages.required }]);
  });

  it.each(['not a url', 'www.example.org', 'javascript:alert(1)', 'ftp://example.org/file', 'http://', 'mailto:a@example.org'])(
    'refuses action_url %j (B-041)',
    (url) => {
      expect(issuesOf(statusMessageInput, { ...base, action_url: url })).toEqual([{ path: 'action_url', message: messages.url }]);
    },
  );

  it.each(['https://example.org/path?q=1', 'http://localhost:3000', 'HTTPS://EXAMPLE.ORG'])('accepts action_url %j (B-041)', (url) => {
    expect(statusMessageInput.parse({ ...base, action_url: url }).action_url).toBe(url);
  });

  it('treats an empty or blank action url and text as absent', () => {
    expect(statusMessageInput.parse({ ...base, action_url: '  ', action_text: '' })).toMatchObject({ action_url: null, action_text: null });
    expect(statusMessageInput.parse({ ...base, action_url: null, action_text: null })).toMatchObject({
      action_url: null,
      action_text: null,
    });
  });

  it('takes the list of messages as record_update.messages (B-043)', () => {
    expect(statusConfigBody.safeParse({ record_update: { messages: [base] } }).success).toBe(true);
    expect(statusConfigBody.safeParse({ record_update: { messages: [] } }).success).toBe(true);
    expect(
      issuesOf(statusConfigBody, { record_update: { messages: [base, { ...base, message: ' ' }] } }).map((issue) => issue.path),
    ).toEqual(['record_update.messages.1.message']);
  });
});

describe('event input (B-001, B-026, B-028)', () => {
  it('requires a name and a description (B-026)', () => {
    expect(issuesOf(eventInput, {})).toEqual([
      { path: 'name', message: messages.required },
      { path: 'description', message: messages.required },
    ]);
    expect(issuesOf(eventInput, { name: '   ', description: '\n' })).toEqual([
      { path: 'name', message: messages.required },
      { path: 'description', message: messages.required },
    ]);
  });

  it('makes a new event inactive by default and without times (B-028)', () => {
    expect(eventInput.parse({ name: 'Fund 14', description: 'A round' })).toEqual({
      name: 'Fund 14',
      description: 'A round',
      active: false,
      start_time: null,
      end_time: null,
    });
    expect(newEventBody.parse({ new_event: { name: 'Fund 14', description: 'A round' } }).new_event.active).toBe(false);
  });

  it('keeps active when given and trims name and description', () => {
    expect(eventInput.parse({ name: ' Fund 14 ', description: ' d ', active: true })).toMatchObject({
      name: 'Fund 14',
      description: 'd',
      active: true,
    });
  });

  it('refuses a name that is too long', () => {
    expect(issuesOf(eventInput, { name: 'n'.repeat(201), description: 'd' })).toEqual([{ path: 'name', message: messages.maxLength }]);
    expect(eventInput.safeParse({ name: 'n'.repeat(200), description: 'd' }).success).toBe(true);
  });

  it('refuses a time that is not an ISO date-time and an end not after the start', () => {
    expect(issuesOf(eventInput, { name: 'n', description: 'd', start_time: '2030-01-01' })).toEqual([
      { path: 'start_time', message: messages.date },
    ]);
    expect(issuesOf(eventInput, { name: 'n', description: 'd', start_time: AFTER, end_time: BEFORE })).toEqual([
      { path: 'end_time', message: messages.endAfterStart },
    ]);
    expect(issuesOf(eventInput, { name: 'n', description: 'd', start_time: BEFORE, end_time: BEFORE })).toEqual([
      { path: 'end_time', message: messages.endAfterStart },
    ]);
    expect(eventInput.safeParse({ name: 'n', description: 'd', start_time: BEFORE, end_time: null }).success).toBe(true);
    expect(eventInput.safeParse({ name: 'n', description: 'd', start_time: BEFORE, end_time: AFTER }).success).toBe(true);
  });
});

describe('row ids in paths and queries', () => {
  it('accepts positive integers up to the database integer range, as text too', () => {
    expect(eventIdParams.parse({ eventId: '12' })).toEqual({ eventId: 12 });
    expect(rowIdParams.parse({ row_id: String(MAX_ROW_ID) })).toEqual({ row_id: 2_147_483_647 });
    expect(categoriesQuery.parse({})).toEqual({});
  });

  // Issue 26 item 5: only plain decimal digits are an id; z.coerce read all of the loose forms as 12.
  const looseForms = ['0xc', '12e0', '12.0', '012', ' 12', '12 ', '+12', '\t12', '0o14', '0b1100', '1_2', ''];
  it.each(['0', '-1', '1.5', 'abc', String(MAX_ROW_ID + 1), ...looseForms])('refuses %j', (value) => {
    expect(eventIdParams.safeParse({ eventId: value }).success).toBe(false);
    expect(rowIdParams.safeParse({ row_id: value }).success).toBe(false);
    expect(categoriesQuery.safeParse({ event_id: value }).success).toBe(false);
  });
});

describe('review visibility (B-008)', () => {
  it('moderation submission overrides the review-visibility setting', async () => {
    const { reviewsVisible } = await import('../src/events');
    expect(reviewsVisible({ review_visibility_enabled: false, moderation_submission_enabled: false })).toBe(false);
    expect(reviewsVisible({ review_visibility_enabled: true, moderation_submission_enabled: false })).toBe(true);
    expect(reviewsVisible({ review_visibility_enabled: false, moderation_submission_enabled: true })).toBe(true);
    // A moderation window that has ended no longer overrides.
    expect(
      reviewsVisible({
        review_visibility_enabled: false,
        moderation_submission_enabled: true,
        moderation_submission_ends_at: '2000-01-01T00:00:00Z',
      }),
    ).toBe(false);
    expect(reviewsVisible(undefined)).toBe(false);
  });
});
