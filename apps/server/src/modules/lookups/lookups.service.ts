import { normalizeCatalystId } from '@cr/contract/rules';
import type { Db } from '../../db/client';
import { notFound } from '../../errors';
import * as repo from './lookups.repository';

export const unknownUserMessage = 'The user you are looking for does not exist or an error occurred.';

/**
 * Small read-only look-ups that several services share (who a Catalyst ID is, a user's subscriptions and
 * their ids). A leaf: it uses no other service, so app.ts builds it first and the services form a one-way
 * graph (apps/server/test/architecture.test.ts).
 */
export function createLookupsService(db: Db) {
  const subscriptionIdsOf = (userId: number) => repo.subscriptionIdsOf(db, userId);
  return {
    /** The user id of a Catalyst ID (with or without its scheme), or 404 with the unknown-user text. */
    async userIdOf(catalystId: string): Promise<number> {
      const userId = await repo.userIdOfCatalystId(db, normalizeCatalystId(catalystId).id);
      if (userId === undefined) throw notFound(unknownUserMessage);
      return userId;
    },

    /** Every subscription of a user, whatever its level, status or event: whose reviews are theirs. */
    subscriptionIdsOf,

    /** Every subscription of a user with its event. */
    subscriptionsOf: (userId: number) => repo.subscriptionsOf(db, userId),

    /** A user's active LV0/LV1 subscriptions to active events: whose allocations they see. */
    activeReviewerSubscriptionIds: (userId: number) => repo.activeReviewerSubscriptionIds(db, userId),
  };
}
export type LookupsService = ReturnType<typeof createLookupsService>;
