import { count } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { deriveStage, type EventPublic, type ReviewsConfigValue } from '@cr/contract/events';
import { catalystIds, outbox } from '../src/db/schema/index';
import { databaseKinds, useTestApp } from './build-test-app';
import { eventFixtures } from './event-fixtures';
import type { TestUser } from './fixtures';

const CLOSED = { message: 'Registration is closed at the moment. Please try again when the next funding round opens.' };
const HOUR = 60 * 60 * 1000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

/**
 * Switches enforced by the server: registration follows user_registration_enabled of the current (active) events,
 * and a windowed switch counts only inside its window. Each test deactivates the events it activated, so sign-ups
 * are open again for the next one.
 */
describe.each(databaseKinds)('event switches on %s', (kind) => {
  const ctx = useTestApp(kind);
  const f = eventFixtures(ctx);
  let admin: TestUser;
  let user: TestUser;
  const activated: EventPublic[] = [];
  beforeAll(async () => {
    admin = await ctx.newAdmin();
    user = await ctx.newUser();
  });
  afterEach(async () => {
    for (const event of activated.splice(0)) {
      await f.putEvent(admin, event.row_id, { name: event.name, description: event.description, active: false });
    }
  });

  const activeEvent = async (config?: ReviewsConfigValue) => {
    const event = await f.newEvent(admin, { active: true });
    activated.push(event);
    if (config) expect((await f.put(`configs/reviews/${event.row_id}/`, admin, { record_update: config })).statusCode).toBe(200);
    return event;
  };
  const register = () => ctx.registerResponse();
  const rowCounts = async () => ({
    ids: (await ctx.db.select({ n: count() }).from(catalystIds))[0]!.n,
    mails: (await ctx.db.select({ n: count() }).from(outbox))[0]!.n,
  });

  describe('registration and user_registration_enabled', () => {
    it('is open while no event is active, even when an inactive event has registration switched off', async () => {
      const inactive = await f.newEvent(admin);
      await f.put(`configs/reviews/${inactive.row_id}/`, admin, { record_update: { user_registration_enabled: false } });
      expect((await f.get('events/current/')).json().map((e: EventPublic) => e.row_id)).not.toContain(inactive.row_id);
      expect((await register()).statusCode).toBe(201);
    });

    it('is open with an active event that keeps the default configuration (registration on)', async () => {
      await activeEvent();
      expect((await register()).statusCode).toBe(201);
    });

    it('is closed (403) when the only active event switches registration off, and writes nothing', async () => {
      await activeEvent({ user_registration_enabled: false });
      const before = await rowCounts();
      const response = await register();
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(CLOSED);
      expect(await rowCounts()).toEqual(before);
    });

    it('still lets existing users log in while registration is closed', async () => {
      await activeEvent({ user_registration_enabled: false });
      expect((await register()).statusCode).toBe(403);
      expect((await ctx.login(user.catalystId, user.password)).statusCode).toBe(200);
    });

    it('is open when any one of several active events has registration on', async () => {
      await activeEvent({ user_registration_enabled: false });
      await activeEvent({ user_registration_enabled: true });
      expect((await register()).statusCode).toBe(201);
    });

    it('opens again as soon as the closing event is switched back on, or made inactive', async () => {
      const event = await activeEvent({ user_registration_enabled: false });
      expect((await register()).statusCode).toBe(403);
      await f.put(`configs/reviews/${event.row_id}/`, admin, { record_update: { user_registration_enabled: true } });
      expect((await register()).statusCode).toBe(201);
      await f.put(`configs/reviews/${event.row_id}/`, admin, { record_update: { user_registration_enabled: false } });
      expect((await register()).statusCode).toBe(403);
      await f.putEvent(admin, event.row_id, { name: event.name, description: event.description, active: false });
      expect((await register()).statusCode).toBe(201);
    });

    it('counts registration only inside a window when user_registration_starts_at/_ends_at are set', async () => {
      const event = await activeEvent({ user_registration_enabled: true, user_registration_starts_at: at(HOUR) });
      expect((await register()).statusCode).toBe(403);
      await f.put(`configs/reviews/${event.row_id}/`, admin, {
        record_update: { user_registration_enabled: true, user_registration_ends_at: at(-HOUR) },
      });
      expect((await register()).statusCode).toBe(403);
      await f.put(`configs/reviews/${event.row_id}/`, admin, {
        record_update: { user_registration_enabled: true, user_registration_starts_at: at(-HOUR), user_registration_ends_at: at(HOUR) },
      });
      expect((await register()).statusCode).toBe(201);
    });
  });

  describe('windowed switches of an event (service rule the routes enforce)', () => {
    const NOW = new Date();

    it.each([
      ['off', { review_submission_enabled: false }, false],
      ['on without a window', { review_submission_enabled: true }, true],
      [
        'on, before its window',
        { review_submission_enabled: true, review_submission_starts_at: at(HOUR), review_submission_ends_at: at(2 * HOUR) },
        false,
      ],
      [
        'on, inside its window',
        { review_submission_enabled: true, review_submission_starts_at: at(-HOUR), review_submission_ends_at: at(HOUR) },
        true,
      ],
      [
        'on, after its window',
        { review_submission_enabled: true, review_submission_starts_at: at(-2 * HOUR), review_submission_ends_at: at(-HOUR) },
        false,
      ],
      ['on, with only a start in the past', { review_submission_enabled: true, review_submission_starts_at: at(-HOUR) }, true],
      ['on, with only an end in the past', { review_submission_enabled: true, review_submission_ends_at: at(-HOUR) }, false],
    ])('review submission %s → %s', async (_label, config, expected) => {
      const event = await f.newEvent(admin);
      await f.put(`configs/reviews/${event.row_id}/`, admin, { record_update: config });
      expect(await ctx.app.services.eventConfig.switchActive(event.row_id, 'review_submission_enabled', NOW)).toBe(expected);
    });

    it('derives the stage from the current events and their configs as the web app does (B-010 to B-013)', async () => {
      const stage = async () => {
        const current: EventPublic[] = (await f.get('events/current/')).json();
        const configs = await Promise.all(current.map(async (event) => (await f.get(`configs/reviews/${event.row_id}/`)).json().value));
        return deriveStage(configs);
      };
      expect(await stage()).toBe('inactive');
      await activeEvent({ reviewer_subscription_enabled: true });
      expect(await stage()).toBe('subscription_open');
      const review = await activeEvent({ review_submission_enabled: true, review_submission_starts_at: at(HOUR) });
      expect(await stage()).toBe('subscription_open');
      // A save keeps the settings it does not send (issue 13 item 12): the window's start is cleared by sending null.
      await f.put(`configs/reviews/${review.row_id}/`, admin, { record_update: { review_submission_starts_at: null } });
      expect(await stage()).toBe('review_open');
      await activeEvent({ moderation_submission_enabled: true });
      expect(await stage()).toBe('moderation_open');
    });
  });
});
