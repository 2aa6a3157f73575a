import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ReviewerLevel } from '@cr/contract/subscriptions';
import { subscriptions } from '../src/db/schema/index';
import { API, databaseKinds, useTestApp } from './build-test-app';
import { LV2_FORM } from './world-fixtures';

describe.each(databaseKinds)('the LV2 reward address on %s', (kind) => {
  const ctx = useTestApp(kind);

  /** An LV1 reviewer with a wallet on the LV1 subscription, invited to LV2 by the event's admin. */
  async function lv1Invited(lv1Wallet: string) {
    const event = await ctx.newEvent();
    const reviewer = await ctx.newReviewer(event, { level: ReviewerLevel.level_1 });
    await ctx.db
      .update(subscriptions)
      .set({ rewardAddress: lv1Wallet })
      .where(
        and(eq(subscriptions.userId, reviewer.id), eq(subscriptions.eventId, event.id), eq(subscriptions.role, ReviewerLevel.level_1)),
      );
    const invited = await ctx.app.inject({
      method: 'POST',
      url: `${API}/subscriptions/invite`,
      headers: event.admin.auth,
      payload: { invitation: { event_id: event.id, catalyst_id: reviewer.catalystId } },
    });
    expect(invited.statusCode).toBe(201);
    return { event, reviewer };
  }

  const answerYes = (auth: { authorization: string }, eventId: number, rewardAddress: string) =>
    ctx.app.inject({
      method: 'POST',
      url: `${API}/subscriptions/invitation`,
      headers: auth,
      payload: {
        invitation_answer: { role: ReviewerLevel.level_2, event_id: eventId, status: 1, ...LV2_FORM, reward_address: rewardAddress },
      },
    });

  // C-022
  it("refuses the LV1 subscription's wallet as the LV2 reward address, and takes a different one (C-022)", async () => {
    const { event, reviewer } = await lv1Invited('addr1qlevelone');
    const same = await answerYes(reviewer.auth, event.id, '  addr1qlevelone ');
    expect(same.statusCode).toBe(400);
    expect(same.json()).toEqual({ message: 'Use a reward address (wallet) different from the one of your level-1 subscription.' });

    const other = await answerYes(reviewer.auth, event.id, 'addr1qleveltwo');
    expect(other.statusCode).toBe(200);
    expect(other.json()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ role: ReviewerLevel.level_2, extra: expect.objectContaining({ reward_address: 'addr1qleveltwo' }) }),
      ]),
    );
  });
});
