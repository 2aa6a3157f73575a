import { z } from 'zod';
import { bodyRowId } from './common';
import type { LevelQualifier, LevelQualifiers } from './events';
import { messages, requiredText, text, missingOr } from './rules';
import { approvalRate, ReviewerLevel, type ReviewerLevelValue } from './plain';

/**
 * Reviewer subscriptions and levels (spec §3 "Subscription", §4 "Subscription status" and "Reviewer level", §5
 * "Subscription" and "LV2 form", DOMAIN.md "Subscriptions and levels").
 */

// Statuses, levels and who may review or moderate live in plain.ts (no zod: the web app's every page uses them).
export {
  accountReady,
  approvalRate,
  canReview,
  excludedReviews,
  levelLabel,
  isModerator,
  ReviewerLevel,
  SubscriptionStatus,
  type ReviewerLevelValue,
  type SubscriptionStatusValue,
} from './plain';

/** A reward address is a Cardano main-net address (spec §9: it starts with addr1). */
export const REWARD_ADDRESS_PREFIX = 'addr1';

const accepted = z.literal(true, { error: messages.accepted });

export const newSubscription = z.object({
  want_to_be_reviewer: accepted,
  fund_rules_acceptance: accepted,
  /** Category ids; only an LV1 reviewer's choice is kept (spec §2.4, §6). */
  preferred_categories: z.array(bodyRowId).max(100).default([]),
  event_id: bodyRowId,
});
export type NewSubscription = z.input<typeof newSubscription>;
/**
 * The API body. As the reference API allows (issue 17): `want_to_be_reviewer` left out means yes (subscribing is
 * asking to review), and a preferred category may be named by its document id instead of our id.
 */
export const newSubscriptionRequest = newSubscription.extend({
  want_to_be_reviewer: accepted.default(true),
  preferred_categories: z
    .array(z.union([bodyRowId, text().trim().min(1).max(100)]))
    .max(100)
    .default([]),
});
export type NewSubscriptionRequest = z.infer<typeof newSubscriptionRequest>;
export const newSubscriptionBody = z.object({ new_subscription: newSubscriptionRequest });

/** A user's review history, over earlier events (DOMAIN.md). */
export interface ReviewHistory {
  /** Reviews included by the outcome. */
  valid: number;
  submitted: number;
  blank: number;
  /** Earlier events with at least one submitted review. */
  activeFunds: number;
}

/** Whether a history lies within every min/max range of a level's qualifier (bounds included). */
export function fitsLevel(history: ReviewHistory, qualifier: LevelQualifier): boolean {
  const rate = approvalRate(history);
  return (
    history.valid >= qualifier.min_valid_reviews &&
    history.valid <= qualifier.max_valid_reviews &&
    rate >= qualifier.min_perc_valid_reviews &&
    rate <= qualifier.max_perc_valid_reviews &&
    history.activeFunds >= qualifier.min_active_funds &&
    history.activeFunds <= qualifier.max_active_funds
  );
}

/** The level a history earns for an event: LV2 checked first, then LV1, else LV0 (DOMAIN.md). */
export function decideLevel(history: ReviewHistory, qualifiers: LevelQualifiers): ReviewerLevelValue {
  if (fitsLevel(history, qualifiers.lv2)) return ReviewerLevel.level_2;
  if (fitsLevel(history, qualifiers.lv1)) return ReviewerLevel.level_1;
  return ReviewerLevel.level_0;
}

/**
 * `POST subscriptions/invitation` (spec §3, §5 "LV2 form"): the answer to an LV2 invitation. `status` is the answer,
 * 1 yes or 0 no (DOMAIN.md decision 6); the second form's fields are required only for a yes.
 */
export const invitationAnswer = z
  .object({
    event_id: bodyRowId,
    status: z.union([z.literal(0), z.literal(1)], { error: missingOr(messages.invalid) }),
    role: z.literal(ReviewerLevel.level_2).default(ReviewerLevel.level_2),
    public_contact: text().trim().max(500, messages.maxLength).default(''),
    telegram_handle_private: text().trim().max(100, messages.maxLength).default(''),
    reward_address: text().trim().max(200, messages.maxLength).default(''),
    acknowledge_public_contact: z.boolean().default(false),
  })
  .superRefine((answer, ctx) => {
    if (answer.status !== 1) return;
    if (!answer.public_contact) ctx.addIssue({ code: 'custom', message: messages.publicContact, path: ['public_contact'] });
    if (!answer.telegram_handle_private) ctx.addIssue({ code: 'custom', message: messages.required, path: ['telegram_handle_private'] });
    if (!answer.reward_address) ctx.addIssue({ code: 'custom', message: messages.required, path: ['reward_address'] });
    else if (!answer.reward_address.startsWith(REWARD_ADDRESS_PREFIX))
      ctx.addIssue({ code: 'custom', message: messages.rewardAddress, path: ['reward_address'] });
    if (!answer.acknowledge_public_contact)
      ctx.addIssue({ code: 'custom', message: messages.accepted, path: ['acknowledge_public_contact'] });
  });
export type InvitationAnswer = z.input<typeof invitationAnswer>;
export const invitationAnswerBody = z.object({ invitation_answer: invitationAnswer });

/** The LV2 second form (spec §5): every field required for the yes it sends. */
export const lv2Form = z.object({
  want_to_be_lv2: z.literal(true, { error: messages.accepted }),
  public_contact: text({ error: messages.publicContact }).trim().min(1, messages.publicContact).max(500, messages.maxLength),
  telegram_handle_private: requiredText.max(100, messages.maxLength),
  reward_address: requiredText
    .max(200, messages.maxLength)
    .refine((value) => value.startsWith(REWARD_ADDRESS_PREFIX), messages.rewardAddress),
  acknowledge_public_contact: z.literal(true, { error: messages.accepted }),
});

/** `POST subscriptions/invite` (admin): invite a user to level 2 of an event (spec §2.16, §7). */
export const invitation = z.object({
  event_id: bodyRowId,
  catalyst_id: requiredText.max(500, messages.maxLength),
});
export const invitationBody = z.object({ invitation });
