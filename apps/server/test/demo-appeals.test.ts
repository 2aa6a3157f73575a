import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import type { AppealPublic } from '@cr/contract/appeals';
import { DEMO_PASSWORD, DEMO_PAST_EVENT, seedDemo } from '../src/demo';
import { API, databaseKinds, json, useTestApp } from './build-test-app';

// Issue 28 item 2: the demo's past round has one upheld and one rejected appeal, decided by the demo moderator, so a
// first visitor sees them (the demo reviewer's is the rejected one: their history stays 5 valid of 6).

describe.each(databaseKinds)('the demo past round appeals on %s', (kind) => {
  const ctx = useTestApp(kind);
  const loginAs = async (catalystId: string) => {
    const response = await ctx.login(catalystId, DEMO_PASSWORD);
    expect(response.statusCode).toBe(200);
    return { authorization: `Bearer ${json(response).access_token}` };
  };
  const get = (url: string, headers: Record<string, string> = {}) => ctx.app.inject({ method: 'GET', url: `${API}/${url}`, headers });

  it('has an upheld and a rejected appeal; the reviewer sees theirs; the upheld review is included and scored', async () => {
    await seedDemo(ctx.db);
    const events = json(await get('events/?size=100'));
    const event = ((events.data ?? events) as { row_id: number; name: string }[]).find((item) => item.name === DEMO_PAST_EVENT.name)!;
    const admin = await loginAs('cardano/demo-admin');
    const list = json(await get(`appeals/?event_id=${event.row_id}`, admin)).data as AppealPublic[];
    expect(list.map((appeal) => appeal.status).sort()).toEqual(['rejected', 'upheld']);
    const upheld = list.find((appeal) => appeal.status === 'upheld')!;
    expect(upheld).toMatchObject({ ranking: 1, decisions_needed: 1, upholds: 1 });
    expect(list.find((appeal) => appeal.status === 'rejected')).toMatchObject({ ranking: 2, rejects: 1 });

    const reviewer = await loginAs('cardano/demo-reviewer');
    const mine = json(await get('appeals/mine/', reviewer)).data as AppealPublic[];
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ status: 'rejected', decisions: [{ decision: 0 }] });
    const state = json(await get(`appeals/by-review/${mine[0]!.review_id}/`, reviewer));
    expect(state).toMatchObject({ window: 'scores_ran', can_appeal: false, appeal: { status: 'rejected' } });

    const moderator = await loginAs('cardano/demo-moderator');
    expect((json(await get('appeals/allocated/', moderator)).data as AppealPublic[]).map((a) => a.status).sort()).toEqual([
      'rejected',
      'upheld',
    ]);
    const review = json(await get(`proposal-reviews/${upheld.review_id}/`));
    const proposal = json(await get(`proposals/${review.proposal_id}/`));
    expect(review.ranking).toBe(1);
    // The scores ran after the appeal was upheld: the upheld review's proposal has a score.
    expect(proposal.score.overall).toBeGreaterThanOrEqual(1);
  });
});

/**
 * The seed runs in one transaction, one connection: a statement asked while another is still running there is queued
 * by node-postgres, which pg@9 will refuse (a deprecation warning today, once a process). Counted at each call, as
 * node-postgres decides it: a query asked while the client's queue holds another.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('the demo seed on PostgreSQL', () => {
  const ctx = useTestApp('postgres');

  it('asks one statement at a time on its transaction’s connection', async () => {
    const overlapping: string[] = [];
    const original = pg.Client.prototype.query;
    const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const queue = (this as unknown as { _queryQueue: unknown[]; pipeline?: boolean })._queryQueue;
      if (queue.length > 0) overlapping.push(String((args[0] as { text?: string })?.text ?? args[0]).slice(0, 80));
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof original);
    try {
      await seedDemo(ctx.db);
    } finally {
      spy.mockRestore();
    }
    expect(overlapping).toEqual([]);
  });
});
