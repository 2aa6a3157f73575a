import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { idempotencyKeys, reviews } from '../src/db/schema/index';
import { idempotencyMessages } from '../src/plugins/idempotency';
import { API, databaseKinds, useTestApp } from './build-test-app';
import { reviewFields, type TestEvent, type TestProposal, type TestReviewer } from './world-fixtures';

// Issue 29 item 1: writes with an Idempotency-Key are done at most once — a replay answers the first answer, the same
// key with another body is refused — so the offline queue's retries after a lost answer never write twice.

describe.each(databaseKinds)('idempotency keys on %s', (kind) => {
  const ctx = useTestApp(kind);
  let event: TestEvent;
  let reviewer: TestReviewer;
  let other: TestReviewer;
  let proposals: TestProposal[];

  beforeAll(async () => {
    event = await ctx.newEvent({ config: { review_submission_enabled: true } });
    reviewer = await ctx.newReviewer(event);
    other = await ctx.newReviewer(event);
    proposals = [];
    for (let i = 0; i < 4; i += 1) proposals.push(await ctx.newProposal(event));
  });

  const submit = (user: TestReviewer, key: string | undefined, proposal: TestProposal, overrides: Record<string, unknown> = {}) =>
    ctx.app.inject({
      method: 'POST',
      url: `${API}/proposal-reviews/`,
      headers: { ...user.auth, ...(key === undefined ? {} : { 'idempotency-key': key }) },
      payload: { new_proposal_review: { proposal_id: proposal.id, ...reviewFields(overrides) } },
    });
  const reviewsOf = async (user: TestReviewer, proposal: TestProposal) =>
    ctx.db
      .select()
      .from(reviews)
      .where(and(eq(reviews.subscriptionId, user.subscription.row_id), eq(reviews.proposalId, proposal.id)));

  it('a replay with the same key answers the first answer and writes nothing more', async () => {
    const first = await submit(reviewer, 'offline-queue-0001', proposals[0]!);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await submit(reviewer, 'offline-queue-0001', proposals[0]!);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await reviewsOf(reviewer, proposals[0]!)).toHaveLength(1);
    // Without the key the same submit is a new request (the server's own rule refuses a second review: 409).
    expect((await submit(reviewer, undefined, proposals[0]!)).statusCode).toBe(409);
  });

  it('the same key with a different body is refused (422); a malformed key is 400', async () => {
    expect((await submit(reviewer, 'offline-queue-0002', proposals[1]!)).statusCode).toBe(201);
    const changed = await submit(reviewer, 'offline-queue-0002', proposals[1]!, { feasibility_rating_given: 1 });
    expect(changed.statusCode).toBe(422);
    expect(changed.json().detail[0]).toMatchObject({ loc: ['header', 'idempotency-key'], msg: idempotencyMessages.reused });
    const elsewhere = await submit(reviewer, 'offline-queue-0002', proposals[2]!);
    expect(elsewhere.statusCode).toBe(422);
    for (const bad of ['short', 'has space in it', 'x'.repeat(201)]) {
      const response = await submit(reviewer, bad, proposals[2]!);
      expect(response.statusCode, bad).toBe(400);
      expect(response.json().message).toBe(idempotencyMessages.badKey);
    }
    expect(await reviewsOf(reviewer, proposals[2]!)).toHaveLength(0);
  });

  it('keys belong to their user: another reviewer’s same key is a request of its own', async () => {
    const mine = await submit(reviewer, 'shared-key-0003', proposals[3]!);
    const theirs = await submit(other, 'shared-key-0003', proposals[3]!);
    expect([mine.statusCode, theirs.statusCode]).toEqual([201, 201]);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(await reviewsOf(other, proposals[3]!)).toHaveLength(1);
  });

  it('a final refusal is replayed; a conflict releases the key so that the retry runs', async () => {
    // 403: an outsider who is not a reviewer of the event. Final: the replay answers it without running again.
    const outsider = await ctx.newUser();
    const refuse = () =>
      ctx.app.inject({
        method: 'POST',
        url: `${API}/proposal-reviews/`,
        headers: { ...outsider.auth, 'idempotency-key': 'outsider-0004' },
        payload: { new_proposal_review: { proposal_id: proposals[0]!.id, ...reviewFields() } },
      });
    const refused = await refuse();
    expect(refused.statusCode).toBe(403);
    expect((await refuse()).headers['idempotent-replayed']).toBe('true');
    // 409 (a second review of the same proposal) is not kept: the key is free again.
    const conflict = await submit(reviewer, 'conflict-0005', proposals[0]!);
    expect(conflict.statusCode).toBe(409);
    const rows = await ctx.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'conflict-0005'));
    expect(rows).toHaveLength(0);
  });

  it('a retry while the first is still running gets 409 with Retry-After; a claim whose request died is taken over', async () => {
    const proposal = await ctx.newProposal(event);
    await ctx.db.insert(idempotencyKeys).values({
      userId: reviewer.id,
      key: 'in-flight-0006',
      route: 'POST /api/reviews/proposal-reviews/',
      requestHash: 'unknown',
    });
    // A different fingerprint is refused as reuse; claim the key with this request's own fingerprint instead.
    await ctx.db.delete(idempotencyKeys).where(eq(idempotencyKeys.key, 'in-flight-0006'));
    const probe = await submit(reviewer, 'in-flight-0006', proposal);
    expect(probe.statusCode).toBe(201);
    const [row] = await ctx.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, 'in-flight-0006'));
    // The same claim, as if its request were still running.
    await ctx.db.update(idempotencyKeys).set({ statusCode: null, response: null }).where(eq(idempotencyKeys.key, 'in-flight-0006'));
    const running = await submit(reviewer, 'in-flight-0006', proposal);
    expect(running.statusCode).toBe(409);
    expect(running.headers['retry-after']).toBe('1');
    expect(running.json().message).toBe(idempotencyMessages.inProgress);
    // A minute later it is abandoned: the retry runs (and meets the review written by the first: 409, released).
    await ctx.db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '2 minutes'` })
      .where(eq(idempotencyKeys.key, 'in-flight-0006'));
    expect(row!.requestHash).toHaveLength(64);
    expect((await submit(reviewer, 'in-flight-0006', proposal)).statusCode).toBe(409);
    expect(await reviewsOf(reviewer, proposal)).toHaveLength(1);
  });
});
