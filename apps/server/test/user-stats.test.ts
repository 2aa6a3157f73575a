import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { catalystKey } from '../src/domain/proposal-document';
import { catalystKeySql } from '../src/modules/accounts/user-info.repository';
import { userInfo, type UserInfo } from '@cr/contract/users';
import { databaseKinds, useTestApp } from './build-test-app';
import { eventFixtures } from './event-fixtures';
import type { TestUser } from './fixtures';

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
    bystander = await ctx.newUser();
    const event = await ctx.newEvent({ config: { review_submission_enabled: true } });
    admin = event.admin;
    eventId = event.id;
    eventName = event.name;
    const proposals = await ctx.importProposals(event);
    reviewer = await ctx.newReviewer(event);
    const generated = await ctx.allocate(event, { allocation_seed: 3, nr_of_proposals_lv0: 4, nr_of_proposals_lv1: 4 });
    expect(generated).toMatchObject({ tot: 4, dry_run: false });
    allocated = (await f.get('proposals/allocated?size=25', reviewer)).json().data.map((p: { row_id: number }) => p.row_id);
    expect(allocated).toHaveLength(4);
    notAllocated = proposals.map((p) => p.id).find((id) => !allocated.includes(id))!;
  });

  const statsOf = async (url: string, who: TestUser) => {
    const response = await f.get(url, who);
    expect(response.statusCode).toBe(200);
    // Exactly the contract's answer, nothing more (users/me is written with JSON.stringify: issue 45 item 13).
    expect(response.body).toBe(JSON.stringify(userInfo.strict().parse(response.json())));
    return (response.json() as UserInfo).extra.stats.reviews;
  };
  const submit = (proposalId: number) => ctx.newReview(reviewer, proposalId);

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

// Issue 45 item 13: the user info is read in one statement, which finds the objectives authored under the key that
// domain/proposal-document `catalystKey` makes of the Catalyst ID — written in SQL there, held to the function here.
describe.each(databaseKinds)('the Catalyst ID key in SQL on %s', (kind) => {
  const ctx = useTestApp(kind);
  it('is the key catalystKey makes, for IDs of every form', async () => {
    const ids = [
      'cardano/FftxFnOrj2qmTuB2oZG2v0YEWJfKvQ9Mn6E0ARz6mY8',
      'id.catalyst://alice@cardano/FftxFnOrj2qmTuB2oZG2v0YEWJfKvQ9Mn6E0ARz6mY8',
      'ID.CATALYST://Preprod.Cardano/FftxFnOrj2qmTuB2oZG2v0YEWJfKvQ9Mn6E0ARz6mY8/7/3',
      'bob@Preprod.Cardano/FftxFnOrj2qmTuB2oZG2v0YEWJfKvQ9Mn6E0ARz6mY8#encrypt',
      'cardano/key/with@sign',
      '  cardano/padded  ',
      'cardano/a/12',
      'cardano/a/12/34/56',
      'Midnight/Key_-9',
      'nokey',
      '@cardano/empty-name',
      'ÇARDANO.ÉTÉ/Key',
    ];
    for (const id of ids) {
      const rows = await ctx.db.execute(sql`select ${catalystKeySql(sql`${id}::text`)} as key`);
      const [row] = ((rows as { rows?: { key: string }[] }).rows ?? (rows as unknown as { key: string }[])) as { key: string }[];
      expect(row!.key, id).toBe(catalystKey(id));
    }
  });
});
