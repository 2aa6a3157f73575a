import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppealPublic, AppealState } from '@cr/contract/appeals';
import { AccountStatus, type UserInfo } from '@cr/contract/users';
import { appealAllocations, appeals, auditLog, moderationAllocations, moderations, reviews } from '../src/db/schema/index';
import { appealWindow } from '../src/modules/appeals/appeals.service';
import { shareRunLock } from '../src/modules/runs/runs.service';
import { API, databaseKinds, useTestApp } from './build-test-app';
import type { TestUser } from './fixtures';
import type { TestEvent, TestProposal, TestReviewer } from './world-fixtures';

// Issue 28 item 2: appeals of excluded reviews — settings, the window and its closing when scores run, once only, the
// rationale's bounds, the allocation to fresh moderators, the majority, recomputed figures, audit entries.

const words = (count: number) => 'x'.repeat(count).replace(/(.{10})/g, '$1 ');
const upheld = { decision: 1, rationale: 'The review is the reviewer’s own opinion.', predefined_reason: 'valid' };
const rejected = { decision: 0, rationale: 'The rationale does not correspond.', predefined_reason: 'rationale_does_not_correspond' };

describe.each(databaseKinds)('appeals on %s', (kind) => {
  const ctx = useTestApp(kind);
  let event: TestEvent;
  let proposals: TestProposal[];
  let reviewer: TestReviewer;
  let other: TestReviewer;
  let moderator: TestReviewer;
  let fresh: TestReviewer[];
  let conflicted: TestReviewer;
  let outsider: TestUser;
  let newcomer: TestReviewer;
  let banned: TestReviewer | undefined;
  /** reviewer's reviews: 0, 1 excluded by moderation, 2, 3 included; other's reviews 4, 5 excluded. */
  const review: number[] = [];
  const appealOf: Record<number, AppealPublic> = {};

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, user: TestUser | undefined, payload?: object) =>
    ctx.app.inject({ method, url: `${API}/${url}`, headers: user ? user.auth : {}, ...(payload ? { payload } : {}) });
  const appeal = (user: TestUser, reviewId: number, rationale = words(250)) =>
    call('POST', 'appeals/', user, { new_appeal: { review_id: reviewId, rationale } });
  const decide = (user: TestUser, appealId: number, fields: object) =>
    call('PUT', `appeals/${appealId}/decision/`, user, { appeal_decision: fields });
  const stateOf = async (user: TestUser, reviewId: number) => {
    const response = await call('GET', `appeals/by-review/${reviewId}/`, user);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as AppealState;
  };
  const auditActions = async (action: string) =>
    ctx.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.eventId, event.id), eq(auditLog.action, action)));
  const allocate = (dryRun: boolean, user: TestUser = event.admin) =>
    call('POST', 'appeals/generate-allocations', user, { allocation_params: { event_id: event.id, appeal_seed: 7, dry_run: dryRun } });
  const rankingOf = async (reviewId: number) =>
    (await ctx.db.select({ ranking: reviews.ranking }).from(reviews).where(eq(reviews.id, reviewId)))[0]!.ranking;

  beforeAll(async () => {
    event = await ctx.newEvent({ config: { review_submission_enabled: true } });
    moderator = await ctx.newModerator(event);
    fresh = [await ctx.newModerator(event), await ctx.newModerator(event), await ctx.newModerator(event)];
    conflicted = await ctx.newModerator(event);
    proposals = [await ctx.newProposal(event, { category: 'Tools', author: conflicted })];
    for (let i = 1; i < 6; i += 1) proposals.push(await ctx.newProposal(event, { category: 'Other' }));
    reviewer = await ctx.newReviewer(event);
    other = await ctx.newReviewer(event);
    outsider = await ctx.newUser();
    for (let i = 0; i < 4; i += 1) review.push((await ctx.newReview(reviewer, proposals[i]!)).row_id);
    for (let i = 4; i < 6; i += 1) review.push((await ctx.newReview(other, proposals[i]!)).row_id);
    const moderate = async (reviewId: number, classification: 0 | 1) => {
      const values = { eventId: event.id, reviewId, subscriptionId: moderator.subscription.row_id };
      await ctx.db.insert(moderationAllocations).values(values);
      await ctx.db.insert(moderations).values({ ...values, classification, rationale: 'r' });
    };
    for (const [i, classification] of [
      [0, 0],
      [1, 0],
      [2, 1],
      [4, 0],
      [5, 0],
    ] as const)
      await moderate(review[i]!, classification);
    // fresh[0] was allocated to review 0 (never moderated it): not fresh for its appeal.
    await ctx.db
      .insert(moderationAllocations)
      .values({ eventId: event.id, reviewId: review[0]!, subscriptionId: fresh[0]!.subscription.row_id });
  });

  it('settings: off by default (7 days, 3 decisions when on); an even N, a 0 or 91-day window are refused; audited', async () => {
    const initial = await call('GET', `configs/appeals/${event.id}/`, event.admin);
    expect(initial.json().value).toEqual({ appeals_enabled: false, window_days: 7, decisions_needed: 3 });
    for (const bad of [{ decisions_needed: 2 }, { window_days: 0 }, { window_days: 91 }, { decisions_needed: 17 }]) {
      const response = await call('PUT', `configs/appeals/${event.id}/`, event.admin, {
        record_update: { appeals_enabled: true, window_days: 7, decisions_needed: 3, ...bad },
      });
      expect(response.statusCode, JSON.stringify(bad)).toBe(422);
    }
    const saved = await call('PUT', `configs/appeals/${event.id}/`, event.admin, {
      record_update: { appeals_enabled: true, window_days: 7, decisions_needed: 3 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await call('GET', `configs/appeals/${event.id}/`, event.admin)).json().value.appeals_enabled).toBe(true);
    expect(await auditActions('config.appeals.update')).toHaveLength(1);
  });

  it('before the review outcomes no review can be appealed (its ranking is pending)', async () => {
    expect((await stateOf(reviewer, review[0]!)).window).toBe('not_excluded');
    const response = await appeal(reviewer, review[0]!);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('Only a review the outcomes excluded can be appealed.');
  });

  it('after the outcomes, the window is open for the excluded reviews until outcomes time + 7 days', async () => {
    const outcome = await call('POST', 'proposal-reviews/generate-results', event.admin, {
      results_params: { event_id: event.id, validity_threshold: 0.5, acceptance_threshold: 0.5, minimum_sample: 10, dry_run: false },
    });
    expect(outcome.statusCode, outcome.body).toBe(200);
    const [ran] = await auditActions('reviews.outcomes');
    const state = await stateOf(reviewer, review[0]!);
    expect(state).toMatchObject({ window: 'open', can_appeal: true, appeal: null });
    expect(new Date(state.ends_at!).getTime()).toBe(ran!.createdAt.getTime() + 7 * 24 * 3600 * 1000);
    expect(await stateOf(reviewer, review[2]!)).toMatchObject({ window: 'not_excluded', can_appeal: false });
    // Someone else's review: the state is not theirs to read; an admin reads it.
    expect((await call('GET', `appeals/by-review/${review[0]}/`, other)).statusCode).toBe(404);
    expect((await stateOf(event.admin, review[0]!)).can_appeal).toBe(false);
  });

  it('the rationale counts 200–2000 characters without white space; only the author appeals, only an excluded review', async () => {
    const short = await appeal(reviewer, review[0]!, `${'y'.repeat(199)}${' '.repeat(50)}`);
    expect(short.statusCode).toBe(422);
    expect(short.json().detail[0]).toMatchObject({
      loc: ['body', 'new_appeal', 'rationale'],
      msg: 'Content must be at least 200 characters long (excluding spaces)',
    });
    const long = await appeal(reviewer, review[0]!, 'z'.repeat(2001));
    expect(long.statusCode).toBe(422);
    expect(long.json().detail[0].msg).toBe('Content must not exceed 2000 characters (excluding spaces), currently 2001');
    expect((await appeal(other, review[0]!)).statusCode).toBe(403);
    expect((await appeal(outsider, review[0]!)).statusCode).toBe(403);
    expect((await appeal(reviewer, review[2]!)).statusCode).toBe(403);
    expect((await appeal(reviewer, 999_999)).statusCode).toBe(404);
    expect((await call('POST', 'appeals/', undefined, { new_appeal: { review_id: review[0], rationale: words(250) } })).statusCode).toBe(
      401,
    );
  });

  it('an appeal is made once: 201 with status open and the ranking before, audited; the second is refused (409)', async () => {
    const first = await appeal(reviewer, review[0]!, `${'a'.repeat(200)}   `);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ status: 'open', ranking_before: 2, ranking: 2, review_id: review[0], decisions_needed: 3 });
    appealOf[0] = first.json();
    const again = await appeal(reviewer, review[0]!);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('You have already appealed this review; a review can be appealed once.');
    expect(await stateOf(reviewer, review[0]!)).toMatchObject({ window: 'open', can_appeal: false, appeal: { status: 'open' } });
    for (const i of [1, 4]) {
      const response = await appeal(i === 4 ? other : reviewer, review[i]!);
      expect(response.statusCode, response.body).toBe(201);
      appealOf[i] = response.json();
    }
    expect(await auditActions('appeals.create')).toHaveLength(3);
  });

  it('the window ends window_days after the outcomes ran (409 then)', async () => {
    const back = sql`${auditLog.createdAt} - interval '8 days'`;
    await ctx.db
      .update(auditLog)
      .set({ createdAt: back })
      .where(and(eq(auditLog.eventId, event.id), eq(auditLog.action, 'reviews.outcomes')));
    expect((await stateOf(other, review[5]!)).window).toBe('ended');
    const late = await appeal(other, review[5]!);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('The appeal window for this event has ended.');
  });

  it('the allocation: a dry run writes nothing; a real run gives each open appeal N fresh moderators, audited; a rerun finds none', async () => {
    expect((await allocate(true, reviewer)).statusCode).toBe(403);
    const dry = await allocate(true);
    expect(dry.statusCode, dry.body).toBe(200);
    expect(dry.json()).toMatchObject({ open_appeals: 3, decisions_needed: 3, dry_run: true });
    expect(await ctx.db.select().from(appealAllocations)).toHaveLength(0);

    const real = await allocate(false);
    expect(real.statusCode, real.body).toBe(200);
    const stats = real.json();
    expect(stats).toMatchObject({ open_appeals: 3, nr_of_moderators: 5, dry_run: false });
    // Review 0: fresh[1], fresh[2] only (moderator moderated it, fresh[0] was allocated to it, conflicted authored in
    // its objective): short. Reviews 1 and 4: 3 of fresh[0..2] and conflicted.
    expect(stats).toMatchObject({ allocated_appeals: 3, short_appeals: 1, unallocated_appeals: 0, tot: 8 });
    const rows = await ctx.db.select().from(appealAllocations);
    const of = (appealId: number) =>
      rows
        .filter((row) => row.appealId === appealId)
        .map((row) => row.subscriptionId)
        .sort();
    expect(of(appealOf[0]!.row_id)).toEqual([fresh[1]!.subscription.row_id, fresh[2]!.subscription.row_id].sort());
    for (const i of [1, 4]) {
      expect(of(appealOf[i]!.row_id)).toHaveLength(3);
      expect(of(appealOf[i]!.row_id)).not.toContain(moderator.subscription.row_id);
    }
    // 8 allocations over the four fresh moderators: 2 each (the one who moderated gets none).
    const loads = [...fresh, conflicted].map((m) => rows.filter((row) => row.subscriptionId === m.subscription.row_id).length);
    expect(loads).toEqual([2, 2, 2, 2]);
    const [entry] = await auditActions('appeals.allocate');
    expect(entry!.after).toMatchObject({ params: { event_id: event.id, appeal_seed: 7, dry_run: false }, stats: { tot: 8 } });
    expect((await call('GET', `appeals/${appealOf[1]!.row_id}/`, reviewer)).json().status).toBe('allocated');

    // A rerun takes only the short appeal: its one missing moderator, for whom no one is eligible yet.
    const rerun = await allocate(false);
    expect(rerun.json()).toMatchObject({ open_appeals: 1, unallocated_appeals: 1, tot: 0 });
    expect(await ctx.db.select().from(appealAllocations)).toHaveLength(8);
    expect(await auditActions('appeals.allocate')).toHaveLength(2);
    // A moderator who joins later tops it up to N, and nothing else is allocated again.
    newcomer = await ctx.newModerator(event);
    const topUp = await allocate(false);
    expect(topUp.json()).toMatchObject({ open_appeals: 1, allocated_appeals: 1, short_appeals: 0, tot: 1 });
    const after = await ctx.db.select().from(appealAllocations).where(eq(appealAllocations.appealId, appealOf[0]!.row_id));
    expect(after.map((row) => row.subscriptionId)).toContain(newcomer.subscription.row_id);
    expect(after).toHaveLength(3);
    expect((await allocate(false)).json()).toMatchObject({ open_appeals: 0, tot: 0 });
  });

  it('decisions: only an allocated moderator, with the reasons of §5; each is audited and editable until decided', async () => {
    const id = appealOf[1]!.row_id;
    const [mine] = await ctx.db.select().from(appealAllocations).where(eq(appealAllocations.appealId, id));
    const deciders = [...fresh, conflicted].filter((m) => m.subscription.row_id === mine!.subscriptionId);
    const decider = deciders[0]!;
    expect((await decide(moderator, id, upheld)).statusCode).toBe(404);
    expect((await decide(event.admin, id, upheld)).statusCode).toBe(403);
    expect((await decide(reviewer, id, upheld)).statusCode).toBe(403);
    const badReason = await decide(decider, id, { ...upheld, predefined_reason: 'profanity' });
    expect(badReason.statusCode).toBe(422);
    expect(badReason.json().detail[0].loc).toEqual(['body', 'appeal_decision', 'predefined_reason']);
    expect((await decide(decider, id, { ...upheld, rationale: '   ' })).statusCode).toBe(422);
    expect((await decide(decider, id, { ...upheld, predefined_reason: 'other', custom_rationale: null })).statusCode).toBe(422);
    const first = await decide(decider, id, rejected);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ status: 'allocated', rejects: 1, upholds: 0, my_decision: { decision: 0 } });
    const edited = await decide(decider, id, upheld);
    expect(edited.json()).toMatchObject({ status: 'allocated', rejects: 0, upholds: 1, my_decision: { decision: 1 } });
    expect(await auditActions('appeals.decision')).toHaveLength(2);
    // The moderator's list holds it; the author sees no decisions while it is undecided.
    const list = await call('GET', 'appeals/allocated/', decider);
    expect(list.json().data.map((row: AppealPublic) => row.row_id)).toContain(id);
    expect((await call('GET', `appeals/${id}/`, reviewer)).json().decisions).toBeNull();
    expect((await call('GET', `appeals/${id}/`, event.admin)).json().decisions).toHaveLength(1);
    expect((await call('GET', `appeals/${id}/`, outsider)).statusCode).toBe(404);
  });

  it('a majority upholds: the review is included, its author’s figures are recomputed, audited; no more changes', async () => {
    const before = (await call('GET', 'users/me/', reviewer)).json() as UserInfo;
    // Reviews 2, 3 included of 4: valid 2, approval 0.5.
    expect(before.extra.historic_stats.reviews).toMatchObject({ submitted: 4, valid: 2, approval_rate: 0.5 });
    const id = appealOf[0]!.row_id;
    const [a, b] = [fresh[1]!, fresh[2]!];
    expect((await decide(a, id, upheld)).json().status).toBe('allocated');
    // N = 3 (the setting when it was made): one uphold is no majority; two of three uphold.
    const decided = await decide(b, id, upheld);
    expect(decided.json()).toMatchObject({ status: 'upheld', ranking: 1, ranking_before: 2, upholds: 2, decisions_needed: 3 });
    expect(await rankingOf(review[0]!)).toBe(1);
    const after = (await call('GET', 'users/me/', reviewer)).json() as UserInfo;
    expect(after.extra.historic_stats.reviews).toMatchObject({ submitted: 4, valid: 3, approval_rate: 0.75 });
    const [entry] = await auditActions('appeals.decided');
    expect(entry).toMatchObject({ entityId: String(id), after: { status: 'upheld', ranking: 1 } });
    const late = await decide(a, id, rejected);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('This appeal has been decided; decisions can no longer change.');
    // The author sees the result and the decisions, on the review and in their list.
    const state = await stateOf(reviewer, review[0]!);
    expect(state.appeal).toMatchObject({ status: 'upheld', ranking: 1 });
    expect(state.appeal!.decisions).toHaveLength(2);
    const mine = (await call('GET', 'appeals/mine/', reviewer)).json();
    expect(mine.data.map((row: AppealPublic) => row.status).sort()).toEqual(['allocated', 'upheld']);
  });

  it('a banned moderator’s decision stops counting and a rerun replaces them; then a majority rejects: the ranking stays', async () => {
    const id = appealOf[4]!.row_id;
    const rows = await ctx.db.select().from(appealAllocations).where(eq(appealAllocations.appealId, id));
    const deciders = [...fresh, conflicted].filter((m) => rows.some((row) => row.subscriptionId === m.subscription.row_id));
    expect((await decide(deciders[0]!, id, rejected)).json()).toMatchObject({ rejects: 1, decisions_needed: 3 });
    banned = deciders[0]!;
    await ctx.setStatus(banned.id, AccountStatus.banned);
    expect((await call('GET', `appeals/${id}/`, event.admin)).json()).toMatchObject({ status: 'allocated', rejects: 0 });
    // One more reject is still no majority of 3: the banned moderator's does not count.
    expect((await decide(deciders[1]!, id, rejected)).json()).toMatchObject({ status: 'allocated', rejects: 1 });
    // Every undecided appeal the banned moderator was allocated to (this one, maybe appeal 1) gets one replacement.
    const all = await ctx.db.select().from(appealAllocations);
    const undecided = [appealOf[1]!.row_id, id].filter((appealId) =>
      all.some((row) => row.appealId === appealId && row.subscriptionId === banned!.subscription.row_id),
    );
    const rerun = await allocate(false);
    expect(rerun.json()).toMatchObject({ open_appeals: undecided.length, allocated_appeals: undecided.length, tot: undecided.length });
    const now = await ctx.db.select().from(appealAllocations).where(eq(appealAllocations.appealId, id));
    expect(now).toHaveLength(4);
    const added = now.find((row) => !rows.some((before) => before.id === row.id))!;
    const replacement = [...fresh, conflicted, newcomer].find((m) => m.subscription.row_id === added.subscriptionId)!;
    expect(replacement).not.toBe(banned);
    const decided = await decide(replacement, id, rejected);
    expect(decided.json()).toMatchObject({ status: 'rejected', ranking: 2, rejects: 2 });
    expect(await rankingOf(review[4]!)).toBe(2);
  });

  it('proposal scores use the upheld review and close every undecided appeal (audited); nothing is accepted after', async () => {
    const scores = await call('POST', 'proposals/generate-results', event.admin, {
      results_params: {
        event_id: event.id,
        allocation_weights: { allocated: 0.8, not_allocated: 0.2 },
        level_weights: { level_0: 1, level_1: 1 },
        dry_run: false,
      },
    });
    expect(scores.statusCode, scores.body).toBe(200);
    const row = scores.json().find((item: { proposal: { row_id: number } }) => item.proposal.row_id === proposals[0]!.id);
    expect(row.nr_included_reviews).toBe(1);
    expect((await call('GET', `appeals/${appealOf[1]!.row_id}/`, reviewer)).json().status).toBe('closed');
    expect((await call('GET', `appeals/${appealOf[4]!.row_id}/`, other)).json().status).toBe('rejected');
    const [closed] = await auditActions('appeals.close');
    expect(closed!.after).toMatchObject({ closed_appeals: [appealOf[1]!.row_id] });
    expect((await stateOf(reviewer, review[1]!)).window).toBe('scores_ran');
    const allocated = await ctx.db.select().from(appealAllocations).where(eq(appealAllocations.appealId, appealOf[1]!.row_id));
    const decider = [...fresh, conflicted].find(
      (m) => m !== banned && allocated.some((row) => row.subscriptionId === m.subscription.row_id),
    )!;
    const late = await decide(decider, appealOf[1]!.row_id, upheld);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('Proposal scores have been generated for this event: appeals are closed.');
    expect((await allocate(false)).statusCode).toBe(409);
    const admins = await call('GET', `appeals/?event_id=${event.id}`, event.admin);
    expect(admins.json().page.total).toBe(3);
    expect(await ctx.db.select().from(appeals).where(eq(appeals.eventId, event.id))).toHaveLength(3);
  });
});

describe('the appeal window (pure)', () => {
  const config = { appeals_enabled: true, window_days: 7, decisions_needed: 3 };
  const outcomesAt = new Date('2026-01-01T00:00:00Z');
  const at = (iso: string) => new Date(iso);
  it('is open from the outcomes run for window_days, ends at the latest when scores run, and only for excluded reviews', () => {
    const base = { ranking: 2, config, outcomesAt, scoresRan: false, now: at('2026-01-07T23:59:59Z') };
    expect(appealWindow(base)).toEqual({ window: 'open', endsAt: at('2026-01-08T00:00:00Z') });
    expect(appealWindow({ ...base, ranking: 3 }).window).toBe('open');
    expect(appealWindow({ ...base, now: at('2026-01-08T00:00:00Z') }).window).toBe('ended');
    expect(appealWindow({ ...base, scoresRan: true }).window).toBe('scores_ran');
    expect(appealWindow({ ...base, ranking: 1 }).window).toBe('not_excluded');
    expect(appealWindow({ ...base, config: { ...config, appeals_enabled: false } })).toEqual({ window: 'disabled', endsAt: null });
    expect(appealWindow({ ...base, outcomesAt: undefined }).window).toBe('not_open_yet');
  });
});

// Issue 28: an appeal write holds the event's run lock shared; an admin run started meanwhile waits for it (it
// used to share-lock the run flags, and a run then failed with 409 "another run in progress").
describe.runIf(databaseKinds.includes('postgres'))('appeal writes and admin runs on postgres', () => {
  const ctx = useTestApp('postgres');

  it('an admin run started during an appeal write waits for it and succeeds', async () => {
    const event = await ctx.newEvent();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const writer = ctx.db.transaction(async (tx) => {
      await shareRunLock(tx, event.id);
      locked();
      await held;
    });
    await isLocked;
    const run = ctx.app.inject({
      method: 'POST',
      url: `${API}/appeals/generate-allocations`,
      headers: event.admin.auth,
      payload: { allocation_params: { event_id: event.id, appeal_seed: 1, dry_run: false } },
    });
    // The run is waiting on the lock (not answered with 409).
    for (;;) {
      const result = await ctx.db.execute(sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted`);
      const rows = (result as unknown as { rows: { n: number }[] }).rows;
      if (rows[0]!.n > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    release();
    await writer;
    const answer = await run;
    expect(answer.statusCode, answer.body).toBe(200);
  });
});
