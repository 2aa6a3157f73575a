import { beforeAll, describe, expect, it } from 'vitest';
import type { LevelQualifier } from '@cr/contract/events';
import { API, databaseKinds, useTestApp } from './build-test-app';
import { detailAt, type Detail } from './event-fixtures';
import type { TestUser } from './fixtures';
import { QUALIFIER } from './world-fixtures';

/** A qualifier no history reaches, and one every history (even an empty one) fits. */
const { never: NEVER, always: ALWAYS } = QUALIFIER;

describe.each(databaseKinds)('POST subscriptions/ on %s', (kind) => {
  const ctx = useTestApp(kind);
  let admin: TestUser;
  beforeAll(async () => {
    admin = await ctx.admin();
  });

  /** An event open for subscription (or not), with levels and two categories. */
  async function openEvent(options: { open?: boolean; lv1?: LevelQualifier; lv2?: LevelQualifier } = {}) {
    const event = await ctx.newEvent({
      config: { reviewer_subscription_enabled: options.open ?? true },
      qualifiers: { lv1: options.lv1 ?? NEVER, lv2: options.lv2 ?? NEVER },
    });
    const categories = await ctx.newCategories(event, ['Developers', 'Ecosystem']);
    // Leave registration open for the other tests' new users.
    return { event, categories };
  }

  /** The subscription form's body (`ctx.subscribe`), with these fields. */
  const subscribe = (user: TestUser | undefined, body: Record<string, unknown>) => ctx.subscribe(user, undefined, body);

  it('subscribes a newcomer as LV0, active, with an anonymous id, and lists it in the user info (C-002, C-010, C-027)', async () => {
    const { event } = await openEvent();
    const user = await ctx.newUser();
    const response = await subscribe(user, { event_id: event.row_id });
    expect(response.statusCode).toBe(201);
    const [subscription] = response.json();
    expect(subscription).toMatchObject({
      event_id: event.row_id,
      event: { name: event.name },
      role: 0,
      status: 1,
      extra: { preferred_categories: [] },
    });
    expect(subscription.extra.anonymous_id).toMatch(/^[a-z2-7]{10}$/);
    const me = await ctx.app.inject({ method: 'GET', url: `${API}/users/me/`, headers: user.auth });
    expect(me.json().extra.subscriptions).toEqual([subscription]);
  });

  it("keeps an LV1 reviewer's categories (C-006)", async () => {
    const { event, categories } = await openEvent({ lv1: ALWAYS });
    const user = await ctx.newUser();
    const response = await subscribe(user, { event_id: event.row_id, preferred_categories: [categories[1]!.id] });
    expect(response.statusCode).toBe(201);
    expect(response.json()[0]).toMatchObject({
      role: 1,
      status: 1,
      extra: { preferred_categories: [{ id: categories[1]!.id, title: 'Ecosystem' }] },
    });
  });

  it('refuses an LV1 category of another event', async () => {
    const { event } = await openEvent({ lv1: ALWAYS });
    const other = await openEvent();
    const user = await ctx.newUser();
    const response = await subscribe(user, { event_id: event.row_id, preferred_categories: [other.categories[0]!.id] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'Choose categories of this event.' });
  });

  it('answers an invited level-2 subscription to an LV2-qualified user, LV2 checked before LV1 (C-015)', async () => {
    const { event } = await openEvent({ lv1: ALWAYS, lv2: ALWAYS });
    const user = await ctx.newUser();
    const response = await subscribe(user, { event_id: event.row_id });
    expect(response.statusCode).toBe(201);
    expect(response.json()[0]).toMatchObject({ role: 2, status: 3 });
  });

  it('refuses while subscription is off, with a message (C-002)', async () => {
    const { event } = await openEvent({ open: false });
    const user = await ctx.newUser();
    const response = await subscribe(user, { event_id: event.row_id });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ message: 'Subscription to this event is not open at the moment.' });
  });

  it('refuses an account that is not active yet, and anonymous callers (C-002)', async () => {
    const { event } = await openEvent();
    for (const status of [0, 1]) {
      const user = await ctx.newUser({ status });
      const response = await subscribe(user, { event_id: event.row_id });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: 'Activate your account first: open the link we e-mailed you.' });
      const answer = await ctx.app.inject({
        method: 'POST',
        url: `${API}/subscriptions/invitation`,
        headers: user.auth,
        payload: { invitation_answer: { event_id: event.row_id, status: 0, role: 2 } },
      });
      expect(answer.statusCode).toBe(403);
    }
    expect((await subscribe(undefined, { event_id: event.row_id })).statusCode).toBe(401);
  });

  it('refuses a second subscription to the same event with 409, also when two arrive at once (C-002)', async () => {
    const { event } = await openEvent();
    const user = await ctx.newUser();
    const both = await Promise.all([subscribe(user, { event_id: event.row_id }), subscribe(user, { event_id: event.row_id })]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const again = await subscribe(user, { event_id: event.row_id });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ message: 'You are already subscribed to this event.' });
  });

  it('answers 404 for an unknown event and 401 for an anonymous caller', async () => {
    const user = await ctx.newUser();
    expect((await subscribe(user, { event_id: 999_999 })).statusCode).toBe(404);
    expect((await subscribe(undefined, { event_id: 1 })).statusCode).toBe(401);
  });

  it('refuses unaccepted acknowledgements and a missing event with 422 and their locations (C-004, C-005)', async () => {
    const user = await ctx.newUser();
    const response = await subscribe(user, { want_to_be_reviewer: false, fund_rules_acceptance: false, event_id: undefined });
    expect(response.statusCode).toBe(422);
    const body = response.json<Detail>();
    expect(body.detail).toEqual(
      expect.arrayContaining([
        expect.objectContaining(detailAt(['body', 'new_subscription', 'want_to_be_reviewer'])),
        expect.objectContaining(detailAt(['body', 'new_subscription', 'fund_rules_acceptance'])),
        expect.objectContaining(detailAt(['body', 'new_subscription', 'event_id'])),
      ]),
    );
  });

  describe('POST subscriptions/invitation (C-015, C-017, C-021, C-022, C-024)', () => {
    const answer = (user: TestUser | undefined, body: Record<string, unknown>) =>
      ctx.app.inject({
        method: 'POST',
        url: `${API}/subscriptions/invitation`,
        headers: user ? user.auth : {},
        payload: { invitation_answer: { role: 2, ...body } },
      });
    const yes = {
      status: 1,
      public_contact: '@public',
      telegram_handle_private: '@private',
      reward_address: 'addr1qyes',
      acknowledge_public_contact: true,
    };

    async function invited() {
      const { event } = await openEvent({ lv1: ALWAYS, lv2: ALWAYS });
      const user = await ctx.newUser();
      expect((await subscribe(user, { event_id: event.row_id })).json()[0]).toMatchObject({ role: 2, status: 3 });
      return { event, user };
    }

    it("a yes makes the level-2 subscription active with the second form's details", async () => {
      const { event, user } = await invited();
      const response = await answer(user, { event_id: event.row_id, ...yes });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([
        expect.objectContaining({
          role: 2,
          status: 1,
          extra: expect.objectContaining({ public_contact: '@public', telegram_handle_private: '@private', reward_address: 'addr1qyes' }),
        }),
      ]);
      // Answered: there is no open invitation any more.
      expect((await answer(user, { event_id: event.row_id, ...yes })).statusCode).toBe(404);
    });

    it('a no refuses the invitation and subscribes the user below LV2', async () => {
      const { event, user } = await invited();
      const response = await answer(user, { event_id: event.row_id, status: 0 });
      expect(response.statusCode).toBe(200);
      const roles = response.json().map((item: { role: number; status: number }) => [item.role, item.status]);
      expect(roles).toEqual([
        [2, 4],
        [1, 1],
      ]);
    });

    it('refuses a yes without the second form, with each location and the public-contact message', async () => {
      const { event, user } = await invited();
      const response = await answer(user, { event_id: event.row_id, status: 1, reward_address: 'stake1no' });
      expect(response.statusCode).toBe(422);
      const detail = response.json<Detail>().detail;
      expect(detail).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ loc: ['body', 'invitation_answer', 'public_contact'], msg: 'public contact required' }),
          expect.objectContaining(detailAt(['body', 'invitation_answer', 'telegram_handle_private'])),
          expect.objectContaining({
            loc: ['body', 'invitation_answer', 'reward_address'],
            msg: 'The reward address must begin with addr1.',
          }),
          expect.objectContaining(detailAt(['body', 'invitation_answer', 'acknowledge_public_contact'])),
        ]),
      );
    });

    it('answers 404 without an invitation and 401 for an anonymous caller', async () => {
      const { event } = await openEvent();
      const user = await ctx.newUser();
      expect((await answer(user, { event_id: event.row_id, ...yes })).statusCode).toBe(404);
      expect((await answer(undefined, { event_id: event.row_id, ...yes })).statusCode).toBe(401);
    });
  });

  describe('POST subscriptions/invite (admin; C-053, C-054, C-055)', () => {
    const invite = (caller: TestUser | undefined, body: Record<string, unknown>) =>
      ctx.app.inject({
        method: 'POST',
        url: `${API}/subscriptions/invite`,
        headers: caller ? caller.auth : {},
        payload: { invitation: body },
      });

    it('invites a user to level 2; the user then sees an invited subscription and can answer it', async () => {
      const { event } = await openEvent();
      const user = await ctx.newUser();
      const response = await invite(admin, { event_id: event.row_id, catalyst_id: user.catalystId });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual([expect.objectContaining({ role: 2, status: 3 })]);
      const me = await ctx.app.inject({ method: 'GET', url: `${API}/users/me/`, headers: user.auth });
      expect(me.json().extra.subscriptions).toEqual([expect.objectContaining({ role: 2, status: 3 })]);
      // A second invitation to the same event is refused.
      const again = await invite(admin, { event_id: event.row_id, catalyst_id: user.catalystId });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ message: 'This user already has a level-2 subscription to this event.' });
    });

    it('refuses while subscription is off, for an unknown user, for non-admins and anonymous callers, and bad bodies', async () => {
      const closed = await openEvent({ open: false });
      const { event } = await openEvent();
      const user = await ctx.newUser();
      expect((await invite(admin, { event_id: closed.event.row_id, catalyst_id: user.catalystId })).statusCode).toBe(403);
      const unknown = await invite(admin, { event_id: event.row_id, catalyst_id: 'id.catalyst://cardano/nobody-at-all' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual({ message: 'The user you are looking for does not exist or an error occurred.' });
      expect((await invite(user, { event_id: event.row_id, catalyst_id: user.catalystId })).statusCode).toBe(403);
      expect((await invite(undefined, { event_id: event.row_id, catalyst_id: user.catalystId })).statusCode).toBe(401);
      const bad = await invite(admin, { catalyst_id: '' });
      expect(bad.statusCode).toBe(422);
      expect(bad.json<Detail>().detail.map((item) => item.loc)).toEqual(
        expect.arrayContaining([
          ['body', 'invitation', 'event_id'],
          ['body', 'invitation', 'catalyst_id'],
        ]),
      );
    });
  });
});
