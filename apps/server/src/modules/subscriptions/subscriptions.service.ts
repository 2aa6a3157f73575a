import { ReviewerLevel, SubscriptionStatus, decideLevel, type NewSubscriptionRequest } from '@cr/contract/subscriptions';
import type { SubscriptionPublic } from '@cr/contract/users';
import type { Db } from '../../db/client';
import { uniqueViolation } from '../../db/errors';
import { badRequest, conflict, forbidden } from '../../errors';
import type { EventConfigService } from '../events/event-config.service';
import type { EventsService } from '../events/events.service';
import type { VerificationService } from '../verification/verification.service';
import { newAnonymousId } from './anonymous-id';
import { reviewHistory } from './review-history.repository';
import { eventSubscriptionsPublic } from './subscriptions-public';
import * as repo from './subscriptions.repository';

export const subscriptionMessages = {
  closed: 'Subscription to this event is not open at the moment.',
  already: 'You are already subscribed to this event.',
  unknownCategory: 'Choose categories of this event.',
  noInvitation: 'There is no open level-2 invitation for you in this event.',
  alreadyLevel2: 'This user already has a level-2 subscription to this event.',
  sameRewardAddress: 'Use a reward address (wallet) different from the one of your level-1 subscription.',
};

/**
 * Subscriptions of reviewers to events, the level each user's history earns (DOMAIN.md), and what the profile shows
 * of them. The level-2 invitations and their answers are invitations.service.ts.
 */
export function createSubscriptionsService(deps: {
  db: Db;
  events: Pick<EventsService, 'get'>;
  eventConfig: Pick<EventConfigService, 'switchActive' | 'levelQualifiers'>;
  verification: VerificationService;
}) {
  const { db, events, eventConfig, verification } = deps;

  return {
    /**
     * Subscribes a user while subscription is open and they have none for the event. The level comes from their
     * history in the rounds before this one (those whose review outcomes were generated), the very figures their
     * profile shows: LV2 answers an invited level-2 subscription, LV1 keeps the chosen categories, LV0 none.
     */
    async subscribe(userId: number, input: NewSubscriptionRequest): Promise<SubscriptionPublic[]> {
      const event = await events.get(input.event_id);
      if (!(await eventConfig.switchActive(event.row_id, 'reviewer_subscription_enabled'))) throw forbidden(subscriptionMessages.closed);
      const qualifiers = (await eventConfig.levelQualifiers(event.row_id)).value;
      const level = decideLevel(await reviewHistory(db, userId, event.row_id), qualifiers);
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
          return eventSubscriptionsPublic(tx, userId, event);
        });
      } catch (error) {
        if (uniqueViolation(error) === 'subscriptions_user_event_role_key') throw conflict(subscriptionMessages.already);
        throw error;
      }
    },
  };
}
export type SubscriptionsService = ReturnType<typeof createSubscriptionsService>;
