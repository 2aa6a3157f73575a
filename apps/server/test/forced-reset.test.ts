import { describe, expect, it } from 'vitest';
import { serverMessages } from '@cr/contract/messages';
import { DEMO_EVENT, DEMO_PASSWORD, seedDemo } from '../src/demo';
import { API, databaseKinds, json, useTestApp } from './build-test-app';
import { PASSWORD, REFRESH_COOKIE, refreshCookieOf } from './fixtures';

/** Issue 13 item 3: a forced password reset is enforced by the server, not only by the web app (spec §2.2). */
describe.each(databaseKinds)('forced password reset on %s', (kind) => {
  const ctx = useTestApp(kind);

  const loginAs = async (catalystId: string, password: string) => {
    const response = await ctx.login(catalystId, password);
    expect(response.statusCode).toBe(200);
    return { authorization: `Bearer ${json(response).access_token}`, refreshToken: refreshCookieOf(response)! };
  };
  const note = 'A careful note about this proposal, long enough to pass the rules of the review form. '.repeat(4);
  const review = (proposalId: number) => ({
    new_proposal_review: {
      proposal_id: proposalId,
      impact_alignment_rating_given: 4,
      impact_alignment_note: note,
      feasibility_rating_given: 4,
      feasibility_note: note,
      auditability_rating_given: 4,
      auditability_note: note,
    },
  });

  it('cardano/demo-reset cannot subscribe or submit a review through the API until it has a new password', async () => {
    await seedDemo(ctx.db);
    const { refreshToken, ...auth } = await loginAs('cardano/demo-reset', DEMO_PASSWORD);
    const events = json(await ctx.app.inject({ method: 'GET', url: `${API}/events/` }));
    const event = ((events.data ?? events) as { row_id: number; name: string }[]).find((candidate) => candidate.name === DEMO_EVENT.name)!;
    const proposals = json(await ctx.app.inject({ method: 'GET', url: `${API}/proposals/?event_id=${event.row_id}&size=1` }));
    const proposalId = proposals.data[0].row_id as number;
    const subscribe = () =>
      ctx.app.inject({
        method: 'POST',
        url: `${API}/subscriptions/`,
        headers: auth,
        payload: { new_subscription: { want_to_be_reviewer: true, fund_rules_acceptance: true, event_id: event.row_id } },
      });

    const refused = await subscribe();
    expect(refused.statusCode).toBe(403);
    expect(json(refused)).toEqual({ message: serverMessages.forcedReset });
    const reviewRefused = await ctx.app.inject({
      method: 'POST',
      url: `${API}/proposal-reviews/`,
      headers: auth,
      payload: review(proposalId),
    });
    expect(reviewRefused.statusCode).toBe(403);
    expect(json(reviewRefused)).toEqual({ message: serverMessages.forcedReset });
    // Refused before the body is read: an invalid body gets the same answer, never a 422 that would reveal the rules.
    const emptyBody = await ctx.app.inject({ method: 'POST', url: `${API}/catalyst-ids/me`, headers: auth, payload: {} });
    expect(emptyBody.statusCode).toBe(403);

    // Reads of one's own info are allowed, and so is the password change.
    const me = await ctx.app.inject({ method: 'GET', url: `${API}/users/me/`, headers: auth });
    expect(me.statusCode).toBe(200);
    expect(json(me).extra.force_reset).toBe(true);
    const changed = await ctx.app.inject({
      method: 'POST',
      url: `${API}/users/password/update`,
      headers: auth,
      // As the web app does, with its refresh cookie: the change keeps this session (and ends the others, item 10).
      cookies: { [REFRESH_COOKIE]: refreshToken },
      payload: { update_user: { old_password: DEMO_PASSWORD, password: PASSWORD, password_confirmation: PASSWORD } },
    });
    expect(changed.statusCode, changed.body).toBe(200);

    // With the new password chosen, the same token may write again.
    expect((await subscribe()).statusCode).toBe(201);
  });

  it('a forced-reset user may log out and refresh', async () => {
    const user = await ctx.newUser({ forceReset: true });
    expect((await ctx.refresh(user.refreshToken)).statusCode).toBe(200);
    const logout = await ctx.app.inject({ method: 'POST', url: `${API}/users/token/logout`, headers: user.auth });
    expect(logout.statusCode).toBe(200);
  });
});
