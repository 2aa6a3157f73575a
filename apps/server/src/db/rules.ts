import { and, asc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { ReviewerLevel, SubscriptionStatus } from '@cr/contract/subscriptions';
import type { DbOrTx } from './client';
import { AccountStatus, RegistrationStatus } from '@cr/contract/users';
import { catalystIds, moderationAllocations, proposalAuthors, proposals, reviews, subscriptions, users } from './schema/index';
import type { ReviewVisibility } from '../domain/rules';

/*
 * The shared rules of the domain as SQL, each defined once here (their pure counterparts are in domain/rules.ts).
 * Repositories build their queries from these; apps/server/test/rules.test.ts pins each one down.
 */

// ---------- active reviewer ----------

/** The levels that review proposals (LV2 moderates). */
export const REVIEWING_LEVELS = [ReviewerLevel.level_0, ReviewerLevel.level_1];

/**
 * An active LV0/LV1 reviewer of an event (DOMAIN.md "Reviews", "Proposal allocation"): a subscription with status
 * active at level 0 or 1, of the given event when one is given. Whether the account may write (active, persistent
 * on chain) is checked by each use, with its own answer. Users: the review writer's context, the proposal allocation's
 * reviewers, the allocated-proposals list.
 */
export function activeReviewerSubscription(eventId?: number): SQL {
  return and(
    eventId === undefined ? undefined : eq(subscriptions.eventId, eventId),
    eq(subscriptions.status, SubscriptionStatus.active),
    inArray(subscriptions.role, REVIEWING_LEVELS),
  )!;
}

/**
 * An active moderator of an event (DOMAIN.md "Moderation allocation", checklist F-001): a level 2 subscription whose
 * invitation was accepted (status active, not merely subscribed or invited). Users: the moderation allocation and
 * every moderation write.
 */
export function activeModeratorSubscription(eventId?: number): SQL {
  return and(
    eventId === undefined ? undefined : eq(subscriptions.eventId, eventId),
    eq(subscriptions.status, SubscriptionStatus.active),
    eq(subscriptions.role, ReviewerLevel.level_2),
  )!;
}

// ---------- conflict of interest ----------

/**
 * Conflict of interest (DOMAIN.md): an author never reviews or moderates in an objective (category) in which they
 * authored a proposal. The (author key, event, objective) triples, of one author key or of one event's proposals;
 * `objectiveId` is null for an uncategorised proposal. Users: user info's `unique_objectives_as_author`, the proposal
 * allocation (through domain/rules.ts `conflictsByAuthor`), and next the moderation allocation.
 */
export function authoredObjectives(db: DbOrTx, of: { catalystKey: string } | { eventId: number }) {
  return db
    .selectDistinct({ catalystKey: proposalAuthors.catalystKey, eventId: proposals.eventId, objectiveId: proposals.categoryId })
    .from(proposalAuthors)
    .innerJoin(proposals, eq(proposals.id, proposalAuthors.proposalId))
    .where('catalystKey' in of ? eq(proposalAuthors.catalystKey, of.catalystKey) : eq(proposals.eventId, of.eventId));
}

/**
 * The conflict of interest for one proposal: whether an author key wrote a proposal in its objective of its event.
 * The uncategorised proposals of an event count as one objective, as in the allocations (domain/rules.ts
 * `NO_OBJECTIVE`): an author of one never reviews or moderates another. Users: review and moderation writes.
 */
export async function authoredInObjective(
  db: DbOrTx,
  catalystKey: string,
  proposal: { id: number; eventId: number; categoryId: number | null },
) {
  const sameObjective = and(
    eq(proposals.eventId, proposal.eventId),
    proposal.categoryId === null ? isNull(proposals.categoryId) : eq(proposals.categoryId, proposal.categoryId),
  );
  const rows = await db
    .select({ id: proposals.id })
    .from(proposalAuthors)
    .innerJoin(proposals, eq(proposals.id, proposalAuthors.proposalId))
    .where(and(eq(proposalAuthors.catalystKey, catalystKey), sameObjective))
    .limit(1);
  return rows.length > 0;
}

// ---------- review visibility ----------

/**
 * Review visibility (DOMAIN.md "Reviews") as a condition on `reviews`: all for an admin, otherwise those of the open
 * events, the viewer's own, and those allocated to the viewer for moderation (a moderator opens the reviews of their
 * lists also after moderation closed). The visibility itself comes from domain/rules.ts `reviewVisibility`. Users: every
 * review read (one review, by ids, the filtered list).
 */
export function reviewVisibleTo(visibility: ReviewVisibility): SQL | undefined {
  if (visibility.all) return undefined;
  const parts: SQL[] = [];
  if (visibility.eventIds.length > 0) parts.push(inArray(reviews.eventId, visibility.eventIds));
  if (visibility.ownSubscriptionIds.length > 0) {
    parts.push(inArray(reviews.subscriptionId, visibility.ownSubscriptionIds));
    parts.push(
      sql`${reviews.id} in (select ${moderationAllocations.reviewId} from ${moderationAllocations} where ${inArray(moderationAllocations.subscriptionId, visibility.ownSubscriptionIds)})`,
    );
  }
  return parts.length > 0 ? or(...parts) : sql`false`;
}

/**
 * The event's active moderators with a ready account, and their Catalyst ID for the conflict of interest: the pool of
 * the moderation allocation, the coverage top-up and the appeal allocation.
 */
export function allocationModerators(db: DbOrTx, eventId: number) {
  return db
    .select({ subscriptionId: subscriptions.id, userId: subscriptions.userId, catalystId: catalystIds.catalystId })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .innerJoin(catalystIds, eq(catalystIds.id, users.catalystIdRef))
    .where(
      and(
        activeModeratorSubscription(eventId),
        eq(catalystIds.status, AccountStatus.active),
        eq(catalystIds.rbacRegStatus, RegistrationStatus.persistent),
      ),
    )
    .orderBy(asc(subscriptions.id));
}

/**
 * Whether the subscription (a column or expression holding its id) is in its event's moderator pool now (the
 * conditions of `allocationModerators`): an appeal counts only such moderators' decisions and allocations, so a
 * moderator banned or no longer LV2 after being allocated is replaced by the next allocation run.
 */
export function inModeratorPool(subscriptionId: SQL): SQL {
  return sql`exists (select 1 from ${subscriptions} pool_s join ${users} pool_u on pool_u.id = pool_s.user_id
    join ${catalystIds} pool_c on pool_c.id = pool_u.catalyst_id_ref
    where pool_s.id = ${subscriptionId} and pool_s.status = ${SubscriptionStatus.active} and pool_s.role = ${ReviewerLevel.level_2}
      and pool_c.status = ${AccountStatus.active} and pool_c.rbac_reg_status = ${RegistrationStatus.persistent})`;
}
