import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountStatus } from '@cr/contract/users';
import { buildApp } from '../src/app';
import { testConfig } from '../src/config';
import { openPostgres, type Database } from '../src/db/client';
import { moderationAllocations, moderations, outbox, reminderRuns } from '../src/db/schema/index';
import { dueReminders, type ReminderOutcome } from '../src/modules/notifications/reminders.service';
import { API, databaseKinds, useTestApp } from './build-test-app';
import type { TestEvent, TestProposal, TestReviewer } from './world-fixtures';

const HOUR = 3_600_000;

describe('dueReminders (pure)', () => {
  const end = new Date('2030-01-10T18:00:00Z');
  const at = (hoursBeforeEnd: number) => new Date(end.getTime() - hoursBeforeEnd * HOUR);
  it('has nothing due before the first reminder', () => expect(dueReminders(end, [72, 24], at(73))).toEqual([]));
  it('sends the one due', () => expect(dueReminders(end, [72, 24], at(71))).toEqual([{ hoursBefore: 72, status: 'sent' }]));
  it('sends only the latest due after downtime, skipping the earlier', () =>
    expect(dueReminders(end, [24, 72], at(3))).toEqual([
      { hoursBefore: 72, status: 'skipped' },
      { hoursBefore: 24, status: 'sent' },
    ]));
  it('skips every reminder of a closed window', () =>
    expect(dueReminders(end, [72, 24], at(-1))).toEqual([
      { hoursBefore: 72, status: 'skipped' },
      { hoursBefore: 24, status: 'skipped' },
    ]));
});

// Issue 27 item 3: deadline reminders, fired once across instances, only to people with unfinished work.
describe.each(databaseKinds)('deadline reminders on %s (issue 27)', (kind) => {
  const ctx = useTestApp(kind, { PUBLIC_URL: 'http://review.test' });
  let other: FastifyInstance;
  let otherDatabase: Database | undefined;

  // A second app instance on the same database: its own pool on PostgreSQL, the same connection on PGlite.
  beforeAll(async () => {
    const config = testConfig({ PUBLIC_URL: 'http://review.test' });
    let db = ctx.db;
    if (kind === 'postgres') {
      const result = await ctx.db.execute(sql`select current_database() as name`);
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${(result as unknown as { rows: { name: string }[] }).rows[0]!.name}`;
      otherDatabase = await openPostgres(url.toString());
      db = otherDatabase.db;
    }
    other = await buildApp({ config, db, jwtSecret: config.JWT_SECRET!, logger: false });
    await other.ready();
  });
  afterAll(async () => {
    await other?.close();
    await otherDatabase?.close();
  });

  const mailsOf = async (eventId: number, mailKind: string) => {
    await ctx.app.services.afterResponse.settled();
    await other.services.afterResponse.settled();
    // Bulk mails are rendered when the worker delivers them.
    await ctx.app.services.mailWorker.drain();
    return ctx.db
      .select()
      .from(outbox)
      .where(and(eq(outbox.eventId, eventId), eq(outbox.kind, mailKind)))
      .orderBy(asc(outbox.id));
  };
  const ofEvent = (event: TestEvent, outcomes: ReminderOutcome[]) => outcomes.filter((outcome) => outcome.eventId === event.id);
  const runsOf = (eventId: number) =>
    ctx.db.select().from(reminderRuns).where(eq(reminderRuns.eventId, eventId)).orderBy(asc(reminderRuns.hoursBefore));
  const setReminders = async (event: TestEvent, value: Record<string, unknown>) => {
    const response = await ctx.app.inject({
      method: 'PUT',
      url: `${API}/configs/notifications/${event.id}/`,
      headers: event.admin.auth,
      payload: { record_update: { review_reminders_enabled: true, moderation_reminders_enabled: true, hours_before: [72, 24], ...value } },
    });
    expect(response.statusCode, response.body).toBe(200);
  };

  /**
   * A round whose review window ends in ten days: `busy` has reviewed 1 of 2 allocated proposals, `done` both of
   * theirs, `optedOut` turned review reminders off, `banned` is banned; reminders on (72 and 24 hours).
   */
  async function reviewRound() {
    const end = new Date(Date.now() + 10 * 24 * HOUR);
    end.setUTCMilliseconds(0);
    const event = await ctx.newEvent({ config: { review_submission_enabled: true, review_submission_ends_at: end.toISOString() } });
    const proposals: TestProposal[] = await ctx.importProposals(event);
    const reviewers: Record<'busy' | 'done' | 'optedOut' | 'banned', TestReviewer> = {
      busy: await ctx.newReviewer(event),
      done: await ctx.newReviewer(event),
      optedOut: await ctx.newReviewer(event),
      banned: await ctx.newReviewer(event),
    };
    let next = 0;
    for (const reviewer of Object.values(reviewers)) {
      for (let i = 0; i < 2; i += 1) await ctx.newAllocation(reviewer, proposals[next + i]!);
      next += 2;
    }
    await ctx.newReview(reviewers.busy, proposals[0]!);
    await ctx.newReview(reviewers.done, proposals[2]!);
    await ctx.newReview(reviewers.done, proposals[3]!);
    await ctx.app.inject({
      method: 'PUT',
      url: `${API}/users/me/notifications/`,
      headers: reviewers.optedOut.auth,
      payload: { notification_preferences: { review_reminder: false } },
    });
    await ctx.setStatus(reviewers.banned.id, AccountStatus.banned);
    await setReminders(event, {});
    return { event, end, reviewers, at: (hoursBeforeEnd: number) => new Date(end.getTime() - hoursBeforeEnd * HOUR) };
  }

  it('sends each reminder once, across two instances, only to who has work left, naming what is left', async () => {
    const { event, end, reviewers, at } = await reviewRound();
    expect(await ctx.app.services.reminders.runDueReminders(at(73))).toEqual([]);

    // Both instances at once, then again: one of them sends the 72-hour reminder, once.
    const runs = await Promise.all([ctx.app.services.reminders.runDueReminders(at(71)), other.services.reminders.runDueReminders(at(71))]);
    expect(runs.flat()).toEqual([
      { eventId: event.id, window: 'review', hoursBefore: 72, windowEnd: end.toISOString(), status: 'sent', queued: 1 },
    ]);
    expect(await ctx.app.services.reminders.runDueReminders(at(70))).toEqual([]);
    expect(await other.services.reminders.runDueReminders(at(70))).toEqual([]);

    const [mail, ...more] = await mailsOf(event.id, 'review_reminder');
    expect(more).toHaveLength(0);
    expect(mail!.recipient).toBe(reviewers.busy.email);
    expect(mail!.status).toBe('sent');
    expect(mail!.params).toMatchObject({ done: 1, total: 2, hours_before: 72 });
    expect(mail!.subject).toBe(`Reminder: 1 of 2 proposals reviewed in ${event.name}`);
    expect(mail!.textBody).toContain(`The review window of ${event.name} closes at`);
    expect(mail!.textBody).toContain('1 of 2 proposals reviewed: 1 proposal is left to review before the window closes.');
    expect(mail!.link).toBe('http://review.test/allocated-proposals');
    expect(mail!.headers!['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(mail!.textBody).toContain('http://review.test/unsubscribe?token=');

    // The 24-hour reminder, after the busy reviewer finished half of what was left: nobody else.
    const [r72] = await runsOf(event.id);
    expect(r72).toMatchObject({ hoursBefore: 72, status: 'sent', queued: 1 });
    const later = await Promise.all([other.services.reminders.runDueReminders(at(23)), ctx.app.services.reminders.runDueReminders(at(23))]);
    expect(later.flat().map((outcome) => [outcome.hoursBefore, outcome.status])).toEqual([[24, 'sent']]);
    expect(await mailsOf(event.id, 'review_reminder')).toHaveLength(2);

    // After the window closed: nothing more.
    expect(await ctx.app.services.reminders.runDueReminders(at(-1))).toEqual([]);
    expect(await mailsOf(event.id, 'review_reminder')).toHaveLength(2);
  });

  it('catches up without flooding: after downtime only the latest due reminder is sent, the earlier recorded skipped', async () => {
    const { event, at } = await reviewRound();
    const outcomes = ofEvent(event, await ctx.app.services.reminders.runDueReminders(at(5)));
    expect(outcomes.map((outcome) => [outcome.hoursBefore, outcome.status, outcome.queued])).toEqual([
      [72, 'skipped', 0],
      [24, 'sent', 1],
    ]);
    expect(await mailsOf(event.id, 'review_reminder')).toHaveLength(1);
    expect((await runsOf(event.id)).map((run) => [run.hoursBefore, run.status])).toEqual([
      [24, 'sent'],
      [72, 'skipped'],
    ]);
  });

  it('skips the reminders of a window that has closed', async () => {
    const { event, at } = await reviewRound();
    const outcomes = ofEvent(event, await other.services.reminders.runDueReminders(at(-2)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['skipped', 'skipped']);
    expect(await mailsOf(event.id, 'review_reminder')).toHaveLength(0);
  });

  it('sends nothing while reminders are off (a new event), or for a window without an end, or one switched off', async () => {
    const { event, at } = await reviewRound();
    await setReminders(event, { review_reminders_enabled: false });
    expect((await ctx.app.services.reminders.runDueReminders(at(1))).filter((o) => o.eventId === event.id)).toEqual([]);
    await setReminders(event, {});
    await ctx.configure(event, { review_submission_enabled: false });
    expect((await ctx.app.services.reminders.runDueReminders(at(1))).filter((o) => o.eventId === event.id)).toEqual([]);
    await ctx.configure(event, { review_submission_enabled: true, review_submission_ends_at: null });
    expect((await ctx.app.services.reminders.runDueReminders(at(1))).filter((o) => o.eventId === event.id)).toEqual([]);
    expect(await runsOf(event.id)).toEqual([]);

    const fresh = await ctx.newEvent({
      config: { review_submission_enabled: true, review_submission_ends_at: new Date(Date.now() + HOUR).toISOString() },
    });
    expect((await ctx.app.services.reminders.runDueReminders()).filter((o) => o.eventId === fresh.id)).toEqual([]);
  });

  it('a moved deadline gets reminders of its own', async () => {
    const { event, end, at } = await reviewRound();
    await ctx.app.services.reminders.runDueReminders(at(71));
    const moved = new Date(end.getTime() + 48 * HOUR);
    await ctx.configure(event, { review_submission_ends_at: moved.toISOString() });
    const outcomes = ofEvent(event, await ctx.app.services.reminders.runDueReminders(new Date(moved.getTime() - 71 * HOUR)));
    expect(outcomes).toEqual([expect.objectContaining({ hoursBefore: 72, status: 'sent', windowEnd: moved.toISOString() })]);
    expect(await mailsOf(event.id, 'review_reminder')).toHaveLength(2);
  });

  it('reminds moderators of the reviews they have not moderated yet', async () => {
    const end = new Date(Date.now() + 5 * 24 * HOUR);
    const event = await ctx.newEvent({ config: { review_submission_enabled: true } });
    const proposals = await ctx.importProposals(event);
    const reviewer = await ctx.newReviewer(event);
    const reviewIds = [];
    for (let i = 0; i < 3; i += 1) reviewIds.push((await ctx.newReview(reviewer, proposals[i]!)).row_id);
    const busy = await ctx.newModerator(event);
    const done = await ctx.newModerator(event);
    for (const moderator of [busy, done]) {
      for (const reviewId of reviewIds) {
        await ctx.db.insert(moderationAllocations).values({ eventId: event.id, reviewId, subscriptionId: moderator.subscription.row_id });
      }
    }
    for (const reviewId of reviewIds) {
      await ctx.db
        .insert(moderations)
        .values({ eventId: event.id, reviewId, subscriptionId: done.subscription.row_id, classification: 1, rationale: 'r' });
    }
    await ctx.db
      .insert(moderations)
      .values({ eventId: event.id, reviewId: reviewIds[0]!, subscriptionId: busy.subscription.row_id, classification: 1, rationale: 'r' });
    await ctx.configure(event, {
      review_submission_enabled: false,
      moderation_submission_enabled: true,
      moderation_submission_ends_at: end.toISOString(),
    });
    await setReminders(event, { review_reminders_enabled: false });

    const outcomes = ofEvent(event, await ctx.app.services.reminders.runDueReminders(new Date(end.getTime() - 10 * HOUR)));
    expect(outcomes.map((o) => [o.window, o.hoursBefore, o.status, o.queued])).toEqual([
      ['moderation', 72, 'skipped', 0],
      ['moderation', 24, 'sent', 1],
    ]);
    const [mail, ...more] = await mailsOf(event.id, 'moderation_reminder');
    expect(more).toHaveLength(0);
    expect(mail!.recipient).toBe(busy.email);
    expect(mail!.subject).toBe(`Reminder: 1 of 3 reviews moderated in ${event.name}`);
    expect(mail!.textBody).toContain('1 of 3 reviews moderated: 2 reviews are left to moderate before the window closes.');
    expect(mail!.link).toBe('http://review.test/allocated-reviews');
  });
});
