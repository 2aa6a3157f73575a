import type { SubscriptionPublic } from '@cr/contract/users';
import type { DbOrTx } from '../../db/client';
import * as repo from './subscriptions.repository';

/** Subscriptions in the wire shape; the category titles of all of them come in one query. */
export async function subscriptionsPublic(
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

/** The user's subscriptions to one event, in the wire shape: what each subscription write answers. */
export async function eventSubscriptionsPublic(
  tx: DbOrTx,
  userId: number,
  event: { row_id: number } & repo.SubscriptionEvent,
): Promise<SubscriptionPublic[]> {
  return subscriptionsPublic(
    tx,
    (await repo.listForUserEvent(tx, userId, event.row_id)).map((row) => ({ row, event })),
  );
}
