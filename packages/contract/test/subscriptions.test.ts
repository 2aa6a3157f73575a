import { describe, expect, it } from 'vitest';
import type { LevelQualifier } from '../src/events';
import {
  approvalRate,
  decideLevel,
  excludedReviews,
  fitsLevel,
  levelLabel,
  newSubscription,
  ReviewerLevel,
  SubscriptionStatus,
  type ReviewHistory,
} from '../src/subscriptions';
import { canReview, isModerator } from '../src/subscriptions';

const lv1: LevelQualifier = {
  min_valid_reviews: 5,
  max_valid_reviews: 50,
  min_perc_valid_reviews: 0.5,
  max_perc_valid_reviews: 1,
  min_active_funds: 1,
  max_active_funds: 10,
};
const lv2: LevelQualifier = {
  min_valid_reviews: 30,
  max_valid_reviews: 1000,
  min_perc_valid_reviews: 0.9,
  max_perc_valid_reviews: 1,
  min_active_funds: 3,
  max_active_funds: 100,
};
// Inside every lv1 range: 10 valid of 10 submitted, 2 funds.
const base: ReviewHistory = { valid: 10, submitted: 10, blank: 0, activeFunds: 2 };

describe('enumerations (C-027, C-028)', () => {
  it('numbers subscription statuses 0 subscribed … 4 refused and levels 0–2, shown as LV+number', () => {
    expect(SubscriptionStatus).toEqual({ subscribed: 0, active: 1, excluded: 2, invited: 3, refused: 4 });
    expect(ReviewerLevel).toEqual({ level_0: 0, level_1: 1, level_2: 2 });
    expect(levelLabel(2)).toBe('LV2');
  });
});

describe('approval rate and excluded reviews (spec §2.16)', () => {
  it('is valid / (submitted − blank)', () => {
    expect(approvalRate({ valid: 3, submitted: 4, blank: 0 })).toBe(0.75);
    expect(approvalRate({ valid: 3, submitted: 5, blank: 1 })).toBe(0.75);
  });
  it('is 0 with nothing submitted or everything blank', () => {
    expect(approvalRate({ valid: 0, submitted: 0, blank: 0 })).toBe(0);
    expect(approvalRate({ valid: 0, submitted: 6, blank: 6 })).toBe(0);
  });
  it('counts excluded reviews as submitted − blank − valid', () => {
    expect(excludedReviews({ valid: 3, submitted: 5, blank: 1 })).toBe(1);
    expect(excludedReviews({ valid: 0, submitted: 0, blank: 0 })).toBe(0);
    expect(excludedReviews({ valid: 0, submitted: 7, blank: 7 })).toBe(0);
    expect(excludedReviews({ valid: 0, submitted: 7, blank: 0 })).toBe(7);
  });
});

describe('fitsLevel: each bound is inclusive', () => {
  const cases: [string, Partial<ReviewHistory>, boolean][] = [
    ['valid at min', { valid: 5, submitted: 5 }, true],
    ['valid below min', { valid: 4, submitted: 4 }, false],
    ['valid at max', { valid: 50, submitted: 50 }, true],
    ['valid above max', { valid: 51, submitted: 51 }, false],
    ['rate at min', { valid: 10, submitted: 20 }, true],
    ['rate below min', { valid: 10, submitted: 21 }, false],
    ['rate at max', { valid: 10, submitted: 10 }, true],
    ['funds at min', { activeFunds: 1 }, true],
    ['funds below min', { activeFunds: 0 }, false],
    ['funds at max', { activeFunds: 10 }, true],
    ['funds above max', { activeFunds: 11 }, false],
  ];
  for (const [name, change, expected] of cases) {
    it(name, () => expect(fitsLevel({ ...base, ...change }, lv1)).toBe(expected));
  }
  it('a rate above the maximum does not fit', () => {
    expect(fitsLevel(base, { ...lv1, max_perc_valid_reviews: 0.99 })).toBe(false);
  });
});

describe('decideLevel', () => {
  it('checks LV2 before LV1', () => {
    expect(
      decideLevel(
        { valid: 40, submitted: 40, blank: 0, activeFunds: 4 },
        { lv1: { ...lv1, max_valid_reviews: 1000, max_active_funds: 100 }, lv2 },
      ),
    ).toBe(2);
  });
  it('gives LV1 when only LV1 fits, LV0 when neither does', () => {
    expect(decideLevel(base, { lv1, lv2 })).toBe(1);
    expect(decideLevel({ valid: 0, submitted: 0, blank: 0, activeFunds: 0 }, { lv1, lv2 })).toBe(0);
  });
});

describe('new_subscription (C-004, C-005, C-006)', () => {
  const ok = { want_to_be_reviewer: true, fund_rules_acceptance: true, preferred_categories: [1, 2], event_id: 3 };
  it('accepts a complete subscription', () => expect(newSubscription.safeParse(ok).success).toBe(true));
  it('requires both acknowledgements to be accepted', () => {
    expect(newSubscription.safeParse({ ...ok, want_to_be_reviewer: false }).success).toBe(false);
    expect(newSubscription.safeParse({ ...ok, fund_rules_acceptance: false }).success).toBe(false);
  });
  it('defaults the categories to none and requires the event', () => {
    const { preferred_categories: _unused, ...rest } = ok;
    expect(newSubscription.parse(rest).preferred_categories).toEqual([]);
    expect(newSubscription.safeParse({ ...ok, event_id: undefined }).success).toBe(false);
  });
});

describe('invitation answer and LV2 form (C-018 … C-024)', () => {
  const yes = {
    event_id: 1,
    status: 1,
    public_contact: '@me',
    telegram_handle_private: '@me_tg',
    reward_address: 'addr1qxyz',
    acknowledge_public_contact: true,
  };
  it('accepts a complete yes and a bare no', async () => {
    const { invitationAnswer } = await import('../src/subscriptions');
    expect(invitationAnswer.parse(yes).role).toBe(2);
    expect(invitationAnswer.safeParse({ event_id: 1, status: 0 }).success).toBe(true);
  });
  it("requires the second form's fields for a yes, with the spec's public-contact message", async () => {
    const { invitationAnswer } = await import('../src/subscriptions');
    const result = invitationAnswer.safeParse({ event_id: 1, status: 1 });
    expect(result.success).toBe(false);
    const issues = Object.fromEntries(result.error!.issues.map((issue) => [issue.path.join('.'), issue.message]));
    expect(issues).toMatchObject({
      public_contact: 'validation.publicContact',
      telegram_handle_private: 'validation.required',
      reward_address: 'validation.required',
      acknowledge_public_contact: 'validation.accepted',
    });
  });
  it('wants a reward address beginning with addr1 (C-021)', async () => {
    const { invitationAnswer, lv2Form } = await import('../src/subscriptions');
    expect(invitationAnswer.safeParse({ ...yes, reward_address: 'stake1abc' }).success).toBe(false);
    expect(lv2Form.safeParse({ ...yes, want_to_be_lv2: true, reward_address: 'addr_test1' }).success).toBe(false);
    expect(lv2Form.safeParse({ ...yes, want_to_be_lv2: true }).success).toBe(true);
  });
  it('LV2 form: want_to_be_lv2 and the acknowledgement must be accepted, public contact says so when missing (C-018, C-019, C-020, C-023)', async () => {
    const { lv2Form } = await import('../src/subscriptions');
    const result = lv2Form.safeParse({
      want_to_be_lv2: false,
      public_contact: ' ',
      telegram_handle_private: '',
      reward_address: 'addr1x',
      acknowledge_public_contact: false,
    });
    const issues = Object.fromEntries(result.error!.issues.map((issue) => [issue.path.join('.'), issue.message]));
    expect(issues).toMatchObject({
      want_to_be_lv2: 'validation.accepted',
      public_contact: 'validation.publicContact',
      telegram_handle_private: 'validation.required',
      acknowledge_public_contact: 'validation.accepted',
    });
  });
});

describe('who may review and moderate (A-040, A-041, C-036)', () => {
  const subscription = (role: number, status: number, eventId = 7) => ({
    row_id: 1,
    event_id: eventId,
    event: { name: 'Fund' },
    role,
    status,
    extra: { anonymous_id: 'abc', sumsub_link: null, preferred_categories: [], subscribed_at: '2026-01-01T00:00:00.000Z' },
  });
  const user = (subscriptions: ReturnType<typeof subscription>[], account: { status?: number; rbac?: number } = {}) => ({
    catalyst_id: {
      id: 'cardano/x',
      email: null,
      email_verified: true,
      username: null,
      status: account.status ?? 2,
      rbac_reg_status: account.rbac ?? 3,
    },
    extra: { subscriptions } as never,
  });

  it('an active LV0 or LV1 subscription to the event lets a ready account review it', () => {
    expect(canReview(user([subscription(0, 1)]), 7)).toBe(true);
    expect(canReview(user([subscription(1, 1)]), 7)).toBe(true);
    expect(canReview(user([subscription(1, 1)]), 8)).toBe(false);
  });

  it('a subscription waiting for verification, excluded, invited or refused does not', () => {
    for (const status of [0, 2, 3, 4]) expect(canReview(user([subscription(0, status)]), 7)).toBe(false);
  });

  it('an account not yet validated on the blockchain, or not active, does not (C-036)', () => {
    for (const rbac of [0, 1, 2]) expect(canReview(user([subscription(0, 1)], { rbac }), 7)).toBe(false);
    expect(canReview(user([subscription(0, 1)], { status: 0 }), 7)).toBe(false);
    expect(isModerator(user([subscription(2, 1)], { rbac: 2 }), 7)).toBe(false);
  });

  it('only an active level-2 subscription makes a moderator, and it does not make a reviewer', () => {
    expect(isModerator(user([subscription(2, 1)]), 7)).toBe(true);
    expect(isModerator(user([subscription(2, 3)]), 7)).toBe(false);
    expect(isModerator(user([subscription(1, 1)]), 7)).toBe(false);
    expect(canReview(user([subscription(2, 1)]), 7)).toBe(false);
  });
});
