import { randomBytes } from 'node:crypto';
import {
  ReviewerLevel,
  SubscriptionStatus,
  decideLevel,
  fitsLevel,
  type InvitationAnswer,
  type NewSubscriptionRequest,
  type ReviewHistory,
} from '@cr/contract/subscriptions';
import type { SubscriptionPublic, UserInfo } from '@cr/contract/users';
import type { Db, DbOrTx } from '../../db/client';
import { uniqueViolation } from '../../db/errors';
import { badRequest, conflict, forbidden, notFound } from '../../errors';
import type { EventConfigService } from '../events/event-config.service';
import type { EventsService } from '../events/events.service';
import type { LookupsService } from '../lookups/lookups.service';
import { recordAudit } from '../system/audit.service';
import type { VerificationService } from '../verification/verification.service';
import { reviewHistory } from './review-history.repository';
import * as repo from './subscriptions.repository';

export const subscriptionMessages = {
  closed: 'Subscription to this event is not open at the moment.',
  already: 'You are already subscribed to this event.',
  unknownCategory: 'Choose categories of this event.',
  noInvitation: 'There is no open level-2 invitation for you in this event.',
  alreadyLevel2: 'This user already has a level-2 subscription to this event.',
  sameRewardAddress: 'Use a reward address (wallet) different from the one of your level-1 subscription.',
};

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** A short random id (base32, 50 bits): the only identity of a reviewer the public sees. */
export function newAnonymousId(): string {
  const bytes = randomBytes(10);
  return Array.from(bytes, (byte) => BASE32[byte & 31]).join('');
}

/** Subscriptions of reviewers to events, and the level each user's history earns (DOMAIN.md). */
export function createSubscriptionsService(deps: {
  db: Db;
  events: Pick<EventsService, 'get'>;
  eventConfig: Pick<EventConfigService, 'switchActive' | 'levelQualifiers'>;
  verification: VerificationService;
  lookups: Pick<LookupsService, 'userIdOf'>;
}) {
  const { db, events, eventConfig, verification } = deps;

  /** Subscriptions in the wire shape; the category titles of all of them come in one query. */
  async function toPublic(
    tx: DbOrTx,
    items: { row: repo.SubscriptionRow; event: repo.SubscriptionEvent }[],
  ): Promise<SubscriptionPublic[]> {
    const titles = await repo.categoryTitles(tx, [...new Set(items.flatMap(({ row }) => row.preferredCategories))]);
    return items.map(({ row, event }) => ({
      row_id: row.id,
      event_id: row.eventId,
      // `user_id` and the whole event: the reference API's `ReviewerSubscriptionPublic` (issue 17).
      user_id: row.userId,
      event: { row_id: row.eventId, name: event.name, description: event.description, active: event.active },
      role: row.role,
      status: row.status,
      extra: {
        anonymous_id: row.anonymousId,
        sumsub_link: row.verificationLink,
        reward_address: row.rewardAddress,
        public_contact: row.publicContact,
        telegram_handle_private: row.telegramHandlePrivate,
        preferred_categories: row.preferredCategories.filter((id) => titles.has(id)).map((id) => ({ id, title: titles.get(id)! })),
        subscribed_at: row.subscribedAt.toISOString(),
      },
    }));
  }

  /** The user's subscriptions to one event, in the wire shape. */
  const eventSubscriptions = async (tx: DbOrTx, userId: number, event: { row_id: number } & repo.SubscriptionEvent) =>
    toPublic(
      tx,
      (await repo.listForUserEvent(tx, userId, event.row_id)).map((row) => ({ row, event })),
    );

  /**
   * The user's review history in the rounds before this one (those whose review outcomes were generated), the very
   * figures their profile shows (`historicStats`): what the level qualifiers are checked against.
   */
  async function history(userId: number, eventId: number): Promise<ReviewHistory> {
    const { valid, submitted, blank, activeFunds } = await reviewHistory(db, userId, eventId);
    return { valid, submitted, blank, activeFunds };
  }

  return {
    /**
     * Subscribes a user while subscription is open and they have none for the event. The level comes from their
     * history: LV2 answers an invited level-2 subscription, LV1 keeps the chosen categories, LV0 none.
     */
    async subscribe(userId: number, input: NewSubscriptionRequest): Promise<SubscriptionPublic[]> {
      const event = await events.get(input.event_id);
      if (!(await eventConfig.switchActive(event.row_id, 'reviewer_subscription_enabled'))) throw forbidden(subscriptionMessages.closed);
      const qualifiers = (await eventConfig.levelQualifiers(event.row_id)).value;
      const level = decideLevel(await history(userId, event.row_id), qualifiers);
      const chosen = [...new Set(await repo.categoryIdsOf(db, event.row_id, input.preferred_categories ?? []))];
      if (level === ReviewerLevel.level_1 && chosen.length > 0) {
        const known = await repo.eventCategoryIds(db, event.row_id);
        if (chosen.some((id) => !known.has(id))) throw badRequest(subscriptionMessages.unknownCategory);
      }
      try {
        return await db.transaction(async (tx) => {
          if ((await repo.listForUserEvent(tx, userId, event.row_id)).length > 0) throw conflict(subscriptionMessages.already);
          // An invitee verifies their identity after answering the second form (spec §4).
          const check = level === ReviewerLevel.level_2 ? { status: SubscriptionStatus.invited } : verification.identityCheck();
          await repo.insertSubscription(tx, {
            userId,
            eventId: event.row_id,
            role: level,
            ...check,
            anonymousId: newAnonymousId(),
            preferredCategories: level === ReviewerLevel.level_1 ? chosen : [],
          });
          return eventSubscriptions(tx, userId, event);
        });
      } catch (error) {
        if (uniqueViolation(error) === 'subscriptions_user_event_role_key') throw conflict(subscriptionMessages.already);
        throw error;
      }
    },

    /**
     * The answer to an LV2 invitation (DOMAIN.md): yes keeps the second form's details on the level-2 subscription,
     * which then needs identity verification (active at once when verification is off) and starts due diligence; no
     * refuses it and subscribes the user at the level their history earns below LV2.
     */
    async answerInvitation(userId: number, answer: InvitationAnswer): Promise<SubscriptionPublic[]> {
      const event = await events.get(answer.event_id);
      const qualifiers = (await eventConfig.levelQualifiers(event.row_id)).value;
      const lowerLevel = fitsLevel(await history(userId, event.row_id), qualifiers.lv1) ? ReviewerLevel.level_1 : ReviewerLevel.level_0;
      return db.transaction(async (tx) => {
        const rows = await repo.lockForUserEvent(tx, userId, event.row_id);
        const invitation = rows.find((row) => row.role === ReviewerLevel.level_2 && row.status === SubscriptionStatus.invited);
        if (!invitation) throw notFound(subscriptionMessages.noInvitation);
        if (answer.status === 1) {
          const rewardAddress = answer.reward_address?.trim() ?? '';
          const lv1 = rows.find((row) => row.role === ReviewerLevel.level_1);
          if (lv1?.rewardAddress && lv1.rewardAddress === rewardAddress) throw badRequest(subscriptionMessages.sameRewardAddress);
          await repo.updateSubscription(tx, invitation.id, {
            ...verification.identityCheck(),
            publicContact: answer.public_contact?.trim() ?? null,
            telegramHandlePrivate: answer.telegram_handle_private?.trim() ?? null,
            rewardAddress,
          });
          await verification.startDueDiligence(tx, userId);
        } else {
          await repo.updateSubscription(tx, invitation.id, { status: SubscriptionStatus.refused });
          if (!rows.some((row) => row.role !== ReviewerLevel.level_2)) {
            await repo.insertSubscription(tx, {
              userId,
              eventId: event.row_id,
              role: lowerLevel,
              ...verification.identityCheck(),
              anonymousId: newAnonymousId(),
              preferredCategories: [],
            });
          }
        }
        return eventSubscriptions(tx, userId, event);
      });
    },

    /**
     * An admin invites a user to level 2 of an event whose subscription is open and where the user has no level-2
     * subscription (spec §2.16); the user answers with the second form.
     */
    async invite(actorUserId: number, input: { event_id: number; catalyst_id: string }): Promise<SubscriptionPublic[]> {
      const userId = await deps.lookups.userIdOf(input.catalyst_id);
      const event = await events.get(input.event_id);
      if (!(await eventConfig.switchActive(event.row_id, 'reviewer_subscription_enabled'))) throw forbidden(subscriptionMessages.closed);
      try {
        return await db.transaction(async (tx) => {
          const rows = await repo.lockForUserEvent(tx, userId, event.row_id);
          if (rows.some((row) => row.role === ReviewerLevel.level_2)) throw conflict(subscriptionMessages.alreadyLevel2);
          const created = await repo.insertSubscription(tx, {
            userId,
            eventId: event.row_id,
            role: ReviewerLevel.level_2,
            status: SubscriptionStatus.invited,
            anonymousId: newAnonymousId(),
            preferredCategories: [],
          });
          await recordAudit(tx, {
            actorUserId,
            action: 'subscription.invite',
            entity: 'subscription',
            entityId: String(created.id),
            eventId: event.row_id,
            before: null,
            after: { user_id: userId, role: 2, status: SubscriptionStatus.invited },
          });
          return eventSubscriptions(tx, userId, event);
        });
      } catch (error) {
        if (uniqueViolation(error) === 'subscriptions_user_event_role_key') throw conflict(subscriptionMessages.alreadyLevel2);
        throw error;
      }
    },

    /**
     * The profile's historic stats (spec §2.16, §3 "Reviewer stats"; user info `extra.historic_stats`): the user's
     * reviews and moderations in every round whose review outcomes were generated, with the approval rate.
     */
    async historicStats(userId: number): Promise<UserInfo['extra']['historic_stats']> {
      const history = await reviewHistory(db, userId);
      return {
        reviews: {
          active_funds: history.activeFunds,
          submitted: history.submitted,
          blank: history.blank,
          valid: history.valid,
          approval_rate: history.approvalRate,
        },
        moderations: { active_funds: history.moderationFunds, submitted: history.moderations },
      };
    },

    /** A user's subscriptions, newest first (spec §2.16). */
    async ofUser(userId: number): Promise<SubscriptionPublic[]> {
      const rows = await repo.listForUser(db, userId);
      return toPublic(
        db,
        rows.map(({ subscription, eventName, eventDescription, eventActive }) => ({
          row: subscription,
          event: { name: eventName, description: eventDescription, active: eventActive },
        })),
      );
    },
  };
}
export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;
