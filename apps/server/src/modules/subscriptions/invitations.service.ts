import { ReviewerLevel, SubscriptionStatus, fitsLevel, type InvitationAnswer } from '@cr/contract/subscriptions';
import type { SubscriptionPublic } from '@cr/contract/users';
import type { Db, DbOrTx } from '../../db/client';
import { uniqueViolation } from '../../db/errors';
import { badRequest, conflict, forbidden, notFound } from '../../errors';
import type { EventConfigService } from '../events/event-config.service';
import type { EventsService } from '../events/events.service';
import type { LookupsService } from '../lookups/lookups.service';
import { recordAudit } from '../system/audit.service';
import type { VerificationService } from '../verification/verification.service';
import { newAnonymousId } from './anonymous-id';
import { reviewHistory } from './review-history.repository';
import { subscriptionMessages } from './subscriptions.service';
import { eventSubscriptionsPublic } from './subscriptions-public';
import * as repo from './subscriptions.repository';

/**
 * Level-2 invitations (DOMAIN.md "Subscriptions and levels", spec §2.16, §4): an admin invites a user, the user
 * answers yes with the second form or no. Apart from subscribing, as the invitation comes from an admin and the
 * answer changes a subscription that exists.
 */
export function createInvitationsService(deps: {
  db: Db;
  events: Pick<EventsService, 'get'>;
  eventConfig: Pick<EventConfigService, 'switchActive' | 'levelQualifiers'>;
  verification: VerificationService;
  lookups: Pick<LookupsService, 'userIdOf'>;
  /** After an invitation committed: the event's subscriber figures changed (the dashboard forgets its snapshot). */
  onInvited?: (eventId: number) => void;
  /** Mails the invitee (issue 27), in the invitation's transaction. */
  notifications?: { invited(tx: DbOrTx, invitation: { userId: number; eventId: number; subscriptionId: number }): Promise<unknown> };
}) {
  const { db, events, eventConfig, verification } = deps;
  return {
    /**
     * The answer to an LV2 invitation (DOMAIN.md): yes keeps the second form's details on the level-2 subscription,
     * which then needs identity verification (active at once when verification is off) and starts due diligence; no
     * refuses it and subscribes the user at the level their history earns below LV2.
     */
    async answerInvitation(userId: number, answer: InvitationAnswer): Promise<SubscriptionPublic[]> {
      const event = await events.get(answer.event_id);
      const qualifiers = (await eventConfig.levelQualifiers(event.row_id)).value;
      const history = await reviewHistory(db, userId, event.row_id);
      const lowerLevel = fitsLevel(history, qualifiers.lv1) ? ReviewerLevel.level_1 : ReviewerLevel.level_0;
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
        return eventSubscriptionsPublic(tx, userId, event);
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
        const invited = await db.transaction(async (tx) => {
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
          await deps.notifications?.invited(tx, { userId, eventId: event.row_id, subscriptionId: created.id });
          return eventSubscriptionsPublic(tx, userId, event);
        });
        deps.onInvited?.(event.row_id);
        return invited;
      } catch (error) {
        if (uniqueViolation(error) === 'subscriptions_user_event_role_key') throw conflict(subscriptionMessages.alreadyLevel2);
        throw error;
      }
    },
  };
}
export type InvitationsService = ReturnType<typeof createInvitationsService>;
