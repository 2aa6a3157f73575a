import { and, asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { NOTIFICATION_KINDS, unsubscribeMessages } from '@cr/contract/notifications';
import { AccountStatus } from '@cr/contract/users';
import { auditLog, moderationAllocations, moderations, outbox } from '../src/db/schema/index';
import { API, databaseKinds, useTestApp } from './build-test-app';
import type { TestUser } from './fixtures';
import type { TestEvent, TestReviewer } from './world-fixtures';

// Issue 27 items 2 and 4: each notification's trigger, recipients and content; preferences; one-click unsubscribe.
describe.each(databaseKinds)('notifications on %s (issue 27)', (kind) => {
  const ctx = useTestApp(kind, { PUBLIC_URL: 'http://review.test' });

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user?: TestUser, payload?: object | string, headers = {}) =>
    ctx.app.inject({
      method,
      url: `${API}/${url}`,
      headers: { ...(user ? user.auth : {}), ...headers },
      ...(payload !== undefined ? { payload } : {}),
    });

  /** Every mail of a kind to an address, oldest first, once what the last answer started has been delivered. */
  const mailsTo = async (email: string, mailKind: string) => {
    await ctx.app.services.afterResponse.settled();
    // Bulk mails are rendered when the worker delivers them.
    await ctx.app.services.mailWorker.drain();
    return ctx.db
      .select()
      .from(outbox)
      .where(and(eq(sql`lower(${outbox.recipient})`, email.toLowerCase()), eq(outbox.kind, mailKind)))
      .orderBy(asc(outbox.id));
  };
  const optOut = (user: TestUser, notification: string) =>
    call('PUT', 'users/me/notifications/', user, { notification_preferences: { [notification]: false } });
  const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
  const unsubscribeLinkOf = (text: string) => /http:\/\/review\.test\/unsubscribe\?token=\S+/.exec(text)![0];

  const windowEnd = () => new Date(Date.now() + 10 * 86_400_000);

  describe('allocation done', () => {
    it('mails each active reviewer of a real run their count, the window end and the link; never twice for the same allocation', async () => {
      const end = windowEnd();
      const event = await ctx.newEvent({
        event: { name: `Fund <b>&amp; ${Date.now()}` },
        config: { review_submission_enabled: true, review_submission_ends_at: end.toISOString() },
      });
      await ctx.importProposals(event);
      const mailed = await ctx.newReviewer(event);
      const optedOut = await ctx.newReviewer(event);
      const banned = await ctx.newReviewer(event);
      const inactive = await ctx.newReviewer(event);
      expect((await optOut(optedOut, 'review_allocation')).statusCode).toBe(200);
      await ctx.setStatus(banned.id, AccountStatus.banned);
      await ctx.setStatus(inactive.id, AccountStatus.inactive);

      // A dry run mails nobody.
      const dry = await call('POST', 'proposal-reviews/generate-allocations', event.admin, {
        allocation_params: { event_id: event.id, allocation_seed: 1, nr_of_proposals_lv0: 3, nr_of_proposals_lv1: 3, dry_run: true },
      });
      expect(dry.statusCode).toBe(200);
      expect(await mailsTo(mailed.email, 'review_allocation')).toHaveLength(0);

      await ctx.allocate(event, { nr_of_proposals_lv0: 3, nr_of_proposals_lv1: 3 });
      const [mail, ...more] = await mailsTo(mailed.email, 'review_allocation');
      expect(more).toHaveLength(0);
      expect(mail!.status).toBe('sent');
      expect(mail!.userId).toBe(mailed.id);
      expect(mail!.eventId).toBe(event.id);
      expect(mail!.subject).toBe(`3 proposals to review in ${event.name}`);
      expect(mail!.textBody).toContain(`3 proposals to review in ${event.name}.`);
      const date = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' }).format(end);
      expect(mail!.textBody).toContain('The review window closes at');
      expect(mail!.textBody).toContain(date);
      expect(mail!.textBody).toMatch(/\d\d:\d\d UTC\./);
      expect(mail!.link).toBe('http://review.test/allocated-proposals');
      expect(mail!.textBody).toContain('Open your proposals: http://review.test/allocated-proposals');
      // HTML: the event's name escaped, never markup.
      expect(mail!.htmlBody).toContain('Fund &lt;b&gt;&amp;amp;');
      expect(mail!.htmlBody).not.toContain('<b>');
      // RFC 8058 headers and the unsubscribe link in both parts.
      expect(mail!.headers!['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
      expect(mail!.headers!['List-Unsubscribe']).toMatch(
        /^<http:\/\/review\.test\/api\/reviews\/notifications\/unsubscribe\?token=[^>]+>$/,
      );
      expect(mail!.htmlBody).toContain('http://review.test/unsubscribe?token=');
      expect(mail!.textBody).toContain('http://review.test/profile');

      for (const nobody of [optedOut, banned, inactive]) expect(await mailsTo(nobody.email, 'review_allocation')).toHaveLength(0);

      // The same allocation again (same seed): nobody is mailed twice.
      await ctx.allocate(event, { nr_of_proposals_lv0: 3, nr_of_proposals_lv1: 3 });
      expect(await mailsTo(mailed.email, 'review_allocation')).toHaveLength(1);
      // A different allocation is news: the reviewer hears of it.
      await ctx.allocate(event, { nr_of_proposals_lv0: 4, nr_of_proposals_lv1: 4 });
      const mails = await mailsTo(mailed.email, 'review_allocation');
      expect(mails).toHaveLength(2);
      expect(mails[1]!.subject).toBe(`4 proposals to review in ${event.name}`);
    });

    it('leaves the window out when the event has no review window end', async () => {
      const event = await ctx.newEvent({ config: { review_submission_enabled: true } });
      await ctx.importProposals(event);
      const reviewer = await ctx.newReviewer(event);
      await ctx.allocate(event, { nr_of_proposals_lv0: 1, nr_of_proposals_lv1: 1 });
      const [mail] = await mailsTo(reviewer.email, 'review_allocation');
      expect(mail!.subject).toBe(`1 proposal to review in ${event.name}`);
      expect(mail!.textBody).not.toContain('window closes');
    });
  });

  /** An event with two reviewers' reviews, two moderators, and its moderation open. */
  async function moderatedRound() {
    const end = windowEnd();
    const event = await ctx.newEvent({ config: { review_submission_enabled: true } });
    const proposals = await ctx.importProposals(event);
    const a = await ctx.newReviewer(event);
    const b = await ctx.newReviewer(event);
    const reviewsOfA = [await ctx.newReview(a, proposals[0]!), await ctx.newReview(a, proposals[1]!)];
    const reviewOfB = await ctx.newReview(b, proposals[2]!, {
      impact_alignment_note: 'A different note about the budget, the team and its plan, long enough to count. '.repeat(5),
      feasibility_note: 'The milestones are concrete and the timeline is realistic for a team of this size. '.repeat(5),
      auditability_note: 'Each milestone has a deliverable that anyone can check in the public repository. '.repeat(5),
    });
    const m1 = await ctx.newModerator(event);
    const m2 = await ctx.newModerator(event);
    await ctx.configure(event, {
      review_submission_enabled: false,
      moderation_submission_enabled: true,
      moderation_submission_ends_at: end.toISOString(),
    });
    return { event, end, a, b, reviewsOfA, reviewOfB, m1, m2 };
  }

  describe('moderation allocation done', () => {
    it('mails each active moderator their count of reviews to moderate, once', async () => {
      const { event, m1, m2 } = await moderatedRound();
      await ctx.setStatus(m2.id, AccountStatus.banned);
      const answer = await call('POST', 'moderations/generate-allocations', event.admin, {
        allocation_params: {
          event_id: event.id,
          moderation_seed: 1,
          nr_of_moderations_per_review: 1,
          min_spot_check_per_reviewer: 10,
          dry_run: false,
        },
      });
      expect(answer.statusCode, answer.body).toBe(200);
      const [mail, ...more] = await mailsTo(m1.email, 'moderation_allocation');
      expect(more).toHaveLength(0);
      const allocated = await ctx.db
        .select()
        .from(moderationAllocations)
        .where(eq(moderationAllocations.subscriptionId, m1.subscription.row_id));
      expect(allocated.length).toBeGreaterThan(1);
      expect(mail!.subject).toBe(`${allocated.length} reviews to moderate in ${event.name}`);
      expect(mail!.textBody).toContain('The moderation window closes at');
      expect(mail!.link).toBe('http://review.test/allocated-reviews');
      expect(await mailsTo(m2.email, 'moderation_allocation')).toHaveLength(0);
    });
  });

  describe('review outcomes published', () => {
    it("mails each reviewer of the round their own figures and the moderators' reasons", async () => {
      const { event, a, b, reviewsOfA, reviewOfB, m1, m2 } = await moderatedRound();
      const moderate = (moderator: TestReviewer, reviewId: number, classification: 0 | 1, reason: string) =>
        ctx.db.insert(moderations).values({
          eventId: event.id,
          reviewId,
          subscriptionId: moderator.subscription.row_id,
          classification,
          rationale: 'r',
          predefinedReason: reason,
        });
      // A's first review excluded by both moderators (similarity, profanity), the second included; B's included.
      await moderate(m1, reviewsOfA[0]!.row_id, 0, 'similarity');
      await moderate(m2, reviewsOfA[0]!.row_id, 0, 'profanity');
      await moderate(m1, reviewsOfA[1]!.row_id, 1, 'valid');
      await moderate(m1, reviewOfB.row_id, 1, 'valid');
      await ctx.configure(event, { moderation_submission_enabled: false });
      const answer = await call('POST', 'proposal-reviews/generate-results', event.admin, {
        results_params: { event_id: event.id, validity_threshold: 0.5, acceptance_threshold: 0.5, minimum_sample: 10, dry_run: false },
      });
      expect(answer.statusCode, answer.body).toBe(200);

      const [mailA] = await mailsTo(a.email, 'review_outcomes');
      expect(mailA!.subject).toBe(`The review outcomes of ${event.name} are out`);
      expect(mailA!.textBody).toContain('- 2 submitted\n- 1 valid\n- 1 excluded\n- 1 excluded by moderation');
      expect(mailA!.textBody).toContain("(the moderators' reasons: profanity 1, similarity 1)");
      expect(mailA!.link).toBe('http://review.test/profile');
      const [mailB] = await mailsTo(b.email, 'review_outcomes');
      expect(mailB!.textBody).toContain('- 1 submitted\n- 1 valid\n- 0 excluded');
      expect(mailB!.textBody).not.toContain('excluded by moderation');
      // Moderators who wrote no review are not reviewers of the round.
      expect(await mailsTo(m1.email, 'review_outcomes')).toHaveLength(0);
    });
  });

  describe('LV2 invitation', () => {
    it('mails the invitee in the invitation’s transaction; not one who turned invitations off', async () => {
      const event = await ctx.newEvent({ event: { name: `Fund "quoted" ${Date.now()}` } });
      const invitee = await ctx.newUser();
      await ctx.invite(event, invitee);
      const [mail] = await mailsTo(invitee.email, 'lv2_invitation');
      expect(mail!.subject).toBe(`You are invited to moderate in ${event.name}`);
      expect(mail!.textBody).toContain(`An administrator invited you to be a community moderator (LV2) in ${event.name}.`);
      expect(mail!.htmlBody).toContain('Fund &quot;quoted&quot;');
      expect(mail!.link).toBe('http://review.test/profile');
      expect(mail!.headers!['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');

      const declining = await ctx.newUser();
      await optOut(declining, 'lv2_invitation');
      await ctx.invite(event, declining);
      expect(await mailsTo(declining.email, 'lv2_invitation')).toHaveLength(0);
    });
  });

  describe('preferences (GET/PUT users/me/notifications/)', () => {
    it('answers every kind on for a new account, keeps what a save changes, and refuses bad input', async () => {
      const user = await ctx.newUser();
      const read = await call('GET', 'users/me/notifications/', user);
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual(Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, true])));

      const saved = await call('PUT', 'users/me/notifications/', user, {
        notification_preferences: { review_reminder: false, review_outcomes: false },
      });
      expect(saved.statusCode).toBe(200);
      expect(saved.json()).toMatchObject({ review_reminder: false, review_outcomes: false, review_allocation: true });
      await call('PUT', 'users/me/notifications/', user, { notification_preferences: { review_reminder: true } });
      expect((await call('GET', 'users/me/notifications/', user)).json()).toMatchObject({ review_reminder: true, review_outcomes: false });

      const refused = async (body: unknown, loc: (string | number)[]) => {
        const response = await call('PUT', 'users/me/notifications/', user, body as object);
        expect(response.statusCode, JSON.stringify(body)).toBe(422);
        expect(response.json().detail[0].loc).toEqual(loc);
      };
      // Account mails are not notifications: they cannot be turned off.
      await refused({ notification_preferences: { activation: false } }, ['body', 'notification_preferences']);
      await refused({ notification_preferences: { review_reminder: 'no' } }, ['body', 'notification_preferences', 'review_reminder']);
      await refused({ notification_preferences: {} }, ['body', 'notification_preferences']);
      await refused({}, ['body', 'notification_preferences']);

      expect((await call('GET', 'users/me/notifications/')).statusCode).toBe(401);
      const forced = await ctx.newUser({ forceReset: true });
      expect(
        (await call('PUT', 'users/me/notifications/', forced, { notification_preferences: { review_reminder: false } })).statusCode,
      ).toBe(403);
    });
  });

  describe('one-click unsubscribe', () => {
    async function invitedUser() {
      const event: TestEvent = await ctx.newEvent();
      const user = await ctx.newUser();
      await ctx.invite(event, user);
      const [mail] = await mailsTo(user.email, 'lv2_invitation');
      return { user, mail: mail! };
    }

    it('unsubscribes with the header’s POST (RFC 8058), reads the state, undoes it, and answers a reused link the same', async () => {
      const { user, mail } = await invitedUser();
      const oneClick = /^<(.+)>$/.exec(mail.headers!['List-Unsubscribe']!)![1]!;
      const url = oneClick.replace('http://review.test/api/reviews/', '');
      const token = tokenOf(oneClick);
      expect(token).toBe(tokenOf(unsubscribeLinkOf(mail.textBody!)));

      expect((await call('GET', url)).json()).toEqual({ kind: 'lv2_invitation', unsubscribed: false });
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      const first = await call('POST', url, undefined, 'List-Unsubscribe=One-Click', form);
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toEqual({ kind: 'lv2_invitation', unsubscribed: true });
      expect((await call('GET', 'users/me/notifications/', user)).json()).toMatchObject({ lv2_invitation: false, review_reminder: true });
      // Reused: the same answer, nothing else changes.
      const again = await call('POST', url, undefined, 'List-Unsubscribe=One-Click', form);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(first.json());
      expect((await call('GET', url)).json()).toEqual({ kind: 'lv2_invitation', unsubscribed: true });

      // The screen's undo.
      const undone = await call('DELETE', url);
      expect(undone.json()).toEqual({ kind: 'lv2_invitation', unsubscribed: false });
      expect((await call('GET', 'users/me/notifications/', user)).json()).toMatchObject({ lv2_invitation: true });

      // multipart/form-data, as RFC 8058 also allows; and the web screen's JSON.
      const boundary = 'xyz';
      const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`;
      const viaMultipart = await call('POST', url, undefined, multipart, { 'content-type': `multipart/form-data; boundary=${boundary}` });
      expect(viaMultipart.statusCode, viaMultipart.body).toBe(200);
      expect((await call('DELETE', url)).statusCode).toBe(200);
      expect((await call('POST', url, undefined, { 'List-Unsubscribe': 'One-Click' })).json()).toEqual({
        kind: 'lv2_invitation',
        unsubscribed: true,
      });
    });

    it('refuses a tampered or foreign token with 400 and a clear message, and changes nothing', async () => {
      const { user, mail } = await invitedUser();
      const token = tokenOf(unsubscribeLinkOf(mail.textBody!));
      const [payload, signature] = token.split('.') as [string, string];
      const otherKind = Buffer.from(`${user.id}.review_reminder`).toString('base64url');
      const otherUser = Buffer.from(`${user.id + 1}.lv2_invitation`).toString('base64url');
      const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'BB' : 'AA');
      for (const bad of [
        `${otherKind}.${signature}`,
        `${otherUser}.${signature}`,
        `${payload}.${flipped}`,
        payload,
        'x.y.z',
        `${payload}.`,
      ]) {
        for (const method of ['GET', 'POST', 'DELETE'] as const) {
          const response = await call(
            method,
            `notifications/unsubscribe?token=${encodeURIComponent(bad)}`,
            undefined,
            method === 'POST' ? {} : undefined,
          );
          expect(response.statusCode, `${method} ${bad}`).toBe(400);
          expect(response.json()).toEqual({ message: unsubscribeMessages.invalidToken });
        }
      }
      expect((await call('GET', 'users/me/notifications/', user)).json()).toMatchObject({ lv2_invitation: true, review_reminder: true });
      expect((await call('GET', 'notifications/unsubscribe')).statusCode).toBe(422);
      // Not a one-click body.
      const url = `notifications/unsubscribe?token=${encodeURIComponent(token)}`;
      expect((await call('POST', url, undefined, { 'List-Unsubscribe': 'Two-Clicks' })).statusCode).toBe(422);
    });

    it('sends a browser that opens the header’s address to the web screen', async () => {
      const { mail } = await invitedUser();
      const oneClick = /^<(.+)>$/.exec(mail.headers!['List-Unsubscribe']!)![1]!;
      const response = await call('GET', oneClick.replace('http://review.test/api/reviews/', ''), undefined, undefined, {
        accept: 'text/html,*/*',
      });
      expect(response.statusCode).toBe(303);
      expect(response.headers.location).toBe(`http://review.test/unsubscribe?token=${encodeURIComponent(tokenOf(oneClick))}`);
    });
  });

  describe('reminder settings (configs/notifications/{eventId})', () => {
    it('are off by default with 72 and 24 hours, saved by an admin (audited), and validated', async () => {
      const event = await ctx.newEvent();
      const read = await call('GET', `configs/notifications/${event.id}/`, event.admin);
      expect(read.statusCode).toBe(200);
      expect(read.json().value).toEqual({ review_reminders_enabled: false, moderation_reminders_enabled: false, hours_before: [72, 24] });

      const value = { review_reminders_enabled: true, moderation_reminders_enabled: false, hours_before: [48, 2] };
      const saved = await call('PUT', `configs/notifications/${event.id}/`, event.admin, { record_update: value });
      expect(saved.statusCode).toBe(200);
      expect((await call('GET', `configs/notifications/${event.id}/`, event.admin)).json().value).toEqual(value);
      const audits = await ctx.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'config.notifications.update'), eq(auditLog.eventId, event.id)));
      expect(audits).toHaveLength(1);

      for (const [hours, message] of [
        [[0], 'Hours before must be at least 1.'],
        [[721], 'Hours before must be at most 720 hours (30 days).'],
        [[24, 24], 'Hours before: each number of hours only once.'],
        [[1, 2, 3, 4, 5], 'Hours before: at most 4 reminders.'],
        [[], 'Hours before is required.'],
        [[1.5], 'Hours before must be a whole number.'],
      ] as const) {
        const response = await call('PUT', `configs/notifications/${event.id}/`, event.admin, {
          record_update: { ...value, hours_before: hours },
        });
        expect(response.statusCode, JSON.stringify(hours)).toBe(422);
        expect(response.json().detail[0].msg).toBe(message);
      }
      const reviewer = await ctx.newUser();
      expect((await call('GET', `configs/notifications/${event.id}/`, reviewer)).statusCode).toBe(403);
      expect((await call('PUT', `configs/notifications/${event.id}/`, reviewer, { record_update: value })).statusCode).toBe(403);
      expect((await call('GET', `configs/notifications/999999/`, event.admin)).statusCode).toBe(404);
    });
  });
});
