import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { subscriptions } from '../src/db/schema/index';
import { API, databaseKinds, useTestApp } from './build-test-app';
import { eventFixtures } from './event-fixtures';
import type { TestUser } from './fixtures';

/** A qualifier every history (even an empty one) fits, and one no history reaches. */
const ALWAYS = {
  min_valid_reviews: 0,
  max_valid_reviews: 10,
  min_perc_valid_reviews: 0,
  max_perc_valid_reviews: 1,
  min_active_funds: 0,
  max_active_funds: 10,
};
const NEVER = { ...ALWAYS, min_valid_reviews: 1_000_000, max_valid_reviews: 1_000_000 };

describe.each(databaseKinds)('the LV2 reward address on %s', (kind) => {
  const ctx = useTestApp(kind);
  const f = eventFixtures(ctx);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await ctx.newAdmin();
  });

  /** An LV1 reviewer of an open event, with a wallet on the LV1 subscription, invited to LV2 by an admin. */
  async function lv1Invited(lv1Wallet: string) {
    const event = await f.newEvent(admin, { active: true });
    await f.put(`configs/reviews/${event.row_id}/`, admin, { record_update: { reviewer_subscription_enabled: true } });
    await f.put(`configs/reviews-level-qualifiers/${event.row_id}/`, admin, { record_update: { lv1: ALWAYS, lv2: NEVER } });
    const user = await ctx.newUser();
    const subscribed = await ctx.app.inject({
      method: 'POST',
      url: `${API}/subscriptions/`,
      headers: user.auth,
      payload: {
        new_subscription: { want_to_be_reviewer: true, fund_rules_acceptance: true, preferred_categories: [], event_id: event.row_id },
      },
    });
    expect(subscribed.json()).toEqual([expect.objectContaining({ role: 1 })]);
    await ctx.db
      .update(subscriptions)
      .set({ rewardAddress: lv1Wallet })
      .where(and(eq(subscriptions.userId, user.id), eq(subscriptions.eventId, event.row_id), eq(subscriptions.role, 1)));
    const invited = await ctx.app.inject({
      method: 'POST',
      url: `${API}/subscriptions/invite`,
      headers: admin.auth,
      payload: { invitation: { event_id: event.row_id, catalyst_id: user.catalystId } },
    });
    expect(invited.statusCode).toBe(201);
    return { event, user };
  }

  const answerYes = (user: TestUser, eventId: number, rewardAddress: string) =>
    ctx.app.inject({
      method: 'POST',
      url: `${API}/subscriptions/invitation`,
      headers: user.auth,
      payload: {
        invitation_answer: {
          role: 2,
          event_id: eventId,
          status: 1,
          public_contact: '@public',
          telegram_handle_private: '@private',
          reward_address: rewardAddress,
          acknowledge_public_contact: true,
        },
      },
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
