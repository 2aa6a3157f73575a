import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { subscriptions } from '../src/db/schema/index';
import { ReviewerLevel } from '@cr/contract/subscriptions';
import { databaseKinds, useTestApp } from './build-test-app';
import type { TestUser } from './fixtures';

describe.each(databaseKinds)('the LV2 reward address on %s', (kind) => {
  const ctx = useTestApp(kind);

  /** An LV1 reviewer of an open event, with a wallet on the LV1 subscription, invited to LV2 by an admin. */
  async function lv1Invited(lv1Wallet: string) {
    const event = await ctx.newEvent();
    const user = await ctx.newReviewer(event, { level: ReviewerLevel.level_1 });
    expect(user.subscription).toEqual(expect.objectContaining({ role: 1 }));
    // No route sets the LV1 subscription's wallet yet.
    await ctx.db
      .update(subscriptions)
      .set({ rewardAddress: lv1Wallet })
      .where(and(eq(subscriptions.userId, user.id), eq(subscriptions.eventId, event.row_id), eq(subscriptions.role, 1)));
    await ctx.invite(event, user);
    return { event, user };
  }

  const answerYes = (user: TestUser, eventId: number, rewardAddress: string) =>
    ctx.answerInvitation(user, eventId, true, {
      public_contact: '@public',
      telegram_handle_private: '@private',
      reward_address: rewardAddress,
    });

  // C-022
  it("refuses the LV1 subscription's wallet as the LV2 reward address, and takes a different one (C-022)", async () => {
    const { event, user } = await lv1Invited('addr1qlevelone');
    const same = await answerYes(user, event.row_id, '  addr1qlevelone ');
    expect(same.statusCode).toBe(400);
    expect(same.json()).toEqual({ message: 'Use a reward address (wallet) different from the one of your level-1 subscription.' });

    const other = await answerYes(user, event.row_id, 'addr1qleveltwo');
    expect(other.statusCode).toBe(200);
    expect(other.json()).toEqual(
      expect.arrayContaining([expect.objectContaining({ role: 2, extra: expect.objectContaining({ reward_address: 'addr1qleveltwo' }) })]),
    );
  });
});
