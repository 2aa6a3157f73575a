import { UserRole } from '@cr/contract/users';

/*
 * The shared rules of the domain as pure functions, each defined once here (their SQL counterparts are in
 * db/rules.ts). apps/server/test/rules.test.ts pins each one down.
 */

// ---------- roles ----------

/** Whether a user is an administrator (extra role 100, spec §7); anonymous is not. */
export function isAdmin(user: { role: number } | null | undefined): boolean {
  return user?.role === UserRole.admin;
}

// ---------- conflict of interest ----------

/** The objective of an uncategorised proposal in a list of conflicts: uncategorised proposals count as one objective. */
export const NO_OBJECTIVE = -1;

/**
 * Conflict of interest (DOMAIN.md) for an allocation: each author key's objectives (NO_OBJECTIVE for uncategorised
 * proposals), from db/rules.ts `authoredObjectives` of an event. An allocation keeps every author away from these.
 */
export function conflictsByAuthor(rows: { catalystKey: string; objectiveId: number | null }[]): Map<string, number[]> {
  const conflicts = new Map<string, number[]>();
  for (const row of rows) {
    const objective = row.objectiveId ?? NO_OBJECTIVE;
    const list = conflicts.get(row.catalystKey) ?? [];
    if (!list.includes(objective)) list.push(objective);
    conflicts.set(row.catalystKey, list);
  }
  return conflicts;
}

// ---------- review visibility ----------

/** Which reviews a viewer may see: all, or those of some events plus those of their own subscriptions. */
export interface ReviewVisibility {
  all: boolean;
  eventIds: number[];
  /** The viewer's subscriptions to events not in eventIds: their reviews and the reviews allocated to them. */
  ownSubscriptionIds: number[];
}

/**
 * Review visibility (DOMAIN.md "Reviews"): an admin sees every review; anyone else the reviews of the events whose
 * reviews are open to all (review visibility or moderation on, or outcomes exist) and their own. db/rules.ts
 * `reviewVisibleTo` turns it into SQL.
 */
export function reviewVisibility(
  viewer: { role: number } | null | undefined,
  openEventIds: number[],
  ownSubscriptions: { id: number; eventId: number }[],
): ReviewVisibility {
  if (isAdmin(viewer)) return { all: true, eventIds: [], ownSubscriptionIds: [] };
  // A subscription's reviews and the reviews allocated to it for moderation belong to its event: where that event is
  // open already, it adds nothing, and viewers of the same events share one filter (and one cached total).
  const open = new Set(openEventIds);
  const own = viewer ? ownSubscriptions.filter((subscription) => !open.has(subscription.eventId)) : [];
  return { all: false, eventIds: openEventIds, ownSubscriptionIds: own.map((subscription) => subscription.id) };
}
