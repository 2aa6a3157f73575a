import { beforeAll, describe, expect, it } from 'vitest';
import type { UserInfo } from '@cr/contract/users';
import { sampleImportFile } from '../src/modules/proposals/sample';
import { API, databaseKinds, useTestApp } from './build-test-app';
import { eventFixtures } from './event-fixtures';
import type { TestUser } from './fixtures';

const validNote = 'This proposal is clear about its goal and budget. '.repeat(6);
const review = (proposalId: number) => ({
  new_proposal_review: {
    proposal_id: proposalId,
    impact_alignment_rating_given: 4,
    impact_alignment_note: validNote,
    feasibility_rating_given: 3,
    feasibility_note: validNote,
    auditability_rating_given: 5,
    auditability_note: validNote,
  },
});

// A-112, spec §3 "Reviewer stats": the current event stats count real allocations and submitted reviews (issue 12 item 2).
describe.each(databaseKinds)('current event stats in the user info on %s', (kind) => {
  const ctx = useTestApp(kind);
  const f = eventFixtures(ctx);
  let admin: TestUser;
  let reviewer: TestUser;
  let bystander: TestUser;
  let eventId: number;
  let eventName: string;
  let allocated: number[];
  let notAllocated: number;
  beforeAll(async () => {
    admin = await ctx.newAdmin();
    reviewer = await ctx.newUser();
    bystander = await ctx.newUser();
    const event = await f.newEvent(admin, { active: true });
    eventId = event.row_id;
    eventName = event.name;
    await f.put(`configs/reviews/${eventId}/`, admin, {
      record_update: { reviewer_subscription_enabled: true, review_submission_enabled: true },
    });
    const file = sampleImportFile({ authorOf: (index) => `id.catalyst://cardano/someone-${index}` });
    const imported = await ctx.app.inject({
      method: 'POST',
      url: `${API}/proposals/import/${eventId}`,
      headers: admin.auth,
      payload: { import_options: { source: 'file', file, dry_run: false } },
    });
    expect(imported.statusCode).toBe(200);
    const subscribed = await ctx.app.inject({
      method: 'POST',
      url: `${API}/subscriptions/`,
      headers: reviewer.auth,
      payload: {
        new_subscription: { want_to_be_reviewer: true, fund_rules_acceptance: true, preferred_categories: [], event_id: eventId },
      },
    });
    expect(subscribed.statusCode).toBe(201);
    const generated = await ctx.app.inject({
      method: 'POST',
      url: `${API}/proposal-reviews/generate-allocations`,
      headers: admin.auth,
      payload: {
        allocation_params: { event_id: eventId, allocation_seed: 3, nr_of_proposals_lv0: 4, nr_of_proposals_lv1: 4, dry_run: false },
      },
    });
    expect(generated.json()).toMatchObject({ tot: 4, dry_run: false });
    allocated = (await f.get('proposals/allocated?size=25', reviewer)).json().data.map((p: { row_id: number }) => p.row_id);
    expect(allocated).toHaveLength(4);
    const all: number[] = (await f.get(`proposals/?event_id=${eventId}&size=100`)).json().data.map((p: { row_id: number }) => p.row_id);
    notAllocated = all.find((id) => !allocated.includes(id))!;
  });

  const statsOf = async (url: string, who: TestUser) => {
    const response = await f.get(url, who);
    expect(response.statusCode).toBe(200);
    return (response.json() as UserInfo).extra.stats.reviews;
  };
  const submit = async (proposalId: number) => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: `${API}/proposal-reviews/`,
      headers: reviewer.auth,
      payload: review(proposalId),
    });
    expect(response.statusCode).toBe(201);
  };

  it('counts the allocations, the submitted reviews and those of allocated proposals, in users/me and for an admin', async () => {
    expect(await statsOf('users/me/', reviewer)).toEqual({ allocations: 4, submitted: 0, allocated_submitted: 0 });
    await submit(allocated[0]!);
    await submit(notAllocated);
    const expected = { allocations: 4, submitted: 2, allocated_submitted: 1 };
    expect(await statsOf('users/me/', reviewer)).toEqual(expected);
    expect(await statsOf(`admin/users/${reviewer.id}`, admin)).toEqual(expected);
    // Someone else's figures are their own.
    expect(await statsOf('users/me/', bystander)).toEqual({ allocations: 0, submitted: 0, allocated_submitted: 0 });
  });

  it('counts only the current (active) events', async () => {
    const setActive = (active: boolean) => f.putEvent(admin, eventId, { name: eventName, description: 'A funding round.', active });
    expect((await setActive(false)).statusCode).toBe(200);
    expect(await statsOf('users/me/', reviewer)).toEqual({ allocations: 0, submitted: 0, allocated_submitted: 0 });
    expect((await setActive(true)).statusCode).toBe(200);
    expect((await statsOf('users/me/', reviewer)).allocations).toBe(4);
  });
});
