import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { subscriptions, users } from '../../db/schema/index';

/** The subscription whose identity check has this reference, locked for the update the webhook makes. */
export async function lockSubscriptionByRef(db: DbOrTx, ref: string) {
  const rows = await db
    .select({ id: subscriptions.id, status: subscriptions.status, eventId: subscriptions.eventId })
    .from(subscriptions)
    .where(eq(subscriptions.verificationRef, ref))
    .for('update');
  return rows[0];
}

export async function setSubscriptionStatus(db: DbOrTx, id: number, status: number, onlyFrom: number[]) {
  const rows = await db
    .update(subscriptions)
    .set({ status })
    .where(and(eq(subscriptions.id, id), inArray(subscriptions.status, onlyFrom)))
    .returning({ id: subscriptions.id });
  return rows.length > 0;
}

export async function lockUserByDueDiligenceRef(db: DbOrTx, ref: string) {
  const rows = await db
    .select({ id: users.id, status: users.dueDiligenceStatus })
    .from(users)
    .where(eq(users.dueDiligenceRef, ref))
    .for('update');
  return rows[0];
}

export async function dueDiligenceOf(db: DbOrTx, userId: number) {
  const rows = await db
    .select({ status: users.dueDiligenceStatus, url: users.dueDiligenceUrl })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return rows[0];
}

export async function setDueDiligence(db: DbOrTx, userId: number, values: { status: number; url?: string; ref?: string }) {
  await db
    .update(users)
    .set({
      dueDiligenceStatus: values.status,
      ...(values.url ? { dueDiligenceUrl: values.url } : {}),
      ...(values.ref ? { dueDiligenceRef: values.ref } : {}),
    })
    .where(eq(users.id, userId));
}
