import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LEVEL_QUALIFIER, DEFAULT_REVIEWS_CONFIG } from '@cr/contract/events';
import { categories, configs } from '../src/db/schema/index';
import { eventsOrConfigsChanged } from '../src/db/read-cache';
import { databaseKinds, json, useTestApp } from './build-test-app';
import { detailAt, eventFixtures, type Detail } from './event-fixtures';
import type { TestUser } from './fixtures';

const FORBIDDEN = { message: 'This section is only accessible to admins.' };
const NOT_FOUND = { message: 'This event does not exist.' };
const DEFAULT_LEVELS = { lv1: DEFAULT_LEVEL_QUALIFIER, lv2: DEFAULT_LEVEL_QUALIFIER };

describe.each(databaseKinds)('configs and categories routes on %s', (kind) => {
  const ctx = useTestApp(kind);
  const f = eventFixtures(ctx);
  let admin: TestUser;
  let user: TestUser;
  beforeAll(async () => {
    admin = await ctx.newAdmin();
    user = await ctx.newUser();
  });

  /** The stored config rows and audit entries, to show a refused request changed nothing. */
  const snapshot = async () => ({ configs: await f.configRows(), audit: await f.auditCount() });

  describe('GET configs/reviews/:eventId/ (B-004, B-007, public)', () => {
    it('answers the default configuration of an event that has none stored (B-007, B-050)', async () => {
      const event = await f.newEvent(admin);
      const response = await f.get(`configs/reviews/${event.row_id}/`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        row_id: 0,
        id: 'reviews',
        id2: String(event.row_id),
        config_type: 'reviews',
        event: String(event.row_id),
        value: DEFAULT_REVIEWS_CONFIG,
      });
      expect(response.json().value).toEqual({
        user_registration_enabled: true,
        reviewer_subscription_enabled: false,
        review_visibility_enabled: false,
        review_submission_enabled: false,
        moderation_submission_enabled: false,
      }); // no window is set, so none is in the answer (issue 17)
    });

    it('answers a logged-in non-admin too (the stage is derived from it)', async () => {
      const event = await f.newEvent(admin);
      expect((await f.get(`configs/reviews/${event.row_id}/`, user)).statusCode).toBe(200);
    });

    it('answers 404 for an unknown event and 422 for an id that is not a number', async () => {
      const unknown = await f.get('configs/reviews/999999/');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual(NOT_FOUND);
      for (const id of ['abc', '2147483648']) {
        const invalid = await f.get(`configs/reviews/${id}/`);
        expect(invalid.statusCode).toBe(422);
        expect(json<Detail>(invalid).detail).toContainEqual(expect.objectContaining(detailAt(['path', 'eventId'])));
      }
    });
  });

  describe('PUT configs/reviews/:eventId/ (B-049, B-051)', () => {
    /** What is stored and served for `settings`: a window saved as null is not set, and left out (issue 17). */
    const served = {
      user_registration_enabled: false,
      reviewer_subscription_enabled: true,
      review_visibility_enabled: true,
      review_submission_enabled: true,
      moderation_submission_enabled: false,
      reviewer_subscription_starts_at: '2030-01-01T00:00:00Z',
      reviewer_subscription_ends_at: '2030-02-01T00:00:00+01:00',
      moderation_submission_ends_at: '2030-03-01T00:00:00Z',
    };
    /** Every setting, as the web form saves them: the windows it leaves empty as null. */
    const settings = {
      ...served,
      review_submission_starts_at: null,
      review_submission_ends_at: null,
      moderation_submission_starts_at: null,
    };

    it('stores the flat map with record_update and answers it; GET answers it afterwards (B-051)', async () => {
      const event = await f.newEvent(admin);
      const response = await f.put(`configs/reviews/${event.row_id}/`, admin, { record_update: settings });
      expect(response.statusCode).toBe(200);
      const record = response.json();
      expect(record).toEqual({
        row_id: expect.any(Number),
        id: 'reviews',
        id2: String(event.row_id),
        config_type: 'reviews',
        event: String(event.row_id),
        value: served,
      });
      expect(record.row_id).toBeGreaterThan(0);
      expect((await f.get(`configs/reviews/${event.row_id}/`)).json()).toEqual(record);
    });

    it('changes the settings a save sends and keeps the others as stored, in the same record (issue 13 item 12)', async () => {
      const event = await f.newEvent(admin);
      const first = (await f.put(`configs/reviews/${event.row_id}/`, admin, { record_update: settings })).json();
      const second = await f.put(`configs/reviews/${event.row_id}/`, admin, { record_update: { review_submission_enabled: false } });
      expect(second.statusCode).toBe(200);
      expect(second.json()).toEqual({ ...first, value: { ...served, review_submission_enabled: false } });
      expect((await f.get(`configs/reviews/${event.row_id}/`)).json()).toEqual(second.json());
    });

    it('clears a window saved as null: it is left out of the record, as the reference API has no null date-time (issue 17)', async () => {
      const event = await f.newEvent(admin);
      await f.put(`configs/reviews/${event.row_id}/`, admin, { record_update: settings });
      const cleared = await f.put(`configs/reviews/${event.row_id}/`, admin, { record_update: { reviewer_subscription_starts_at: null } });
      expect(cleared.statusCode).toBe(200);
      const { reviewer_subscription_starts_at: _cleared, ...rest } = served;
      expect(cleared.json().value).toEqual(rest);
      expect((await f.get(`configs/reviews/${event.row_id}/`)).json().value).toEqual(rest);
      const [row] = (await f.configRows()).filter((config) => config.kind === 'reviews' && config.eventId === event.row_id);
      expect(row!.value).toEqual(rest);
    });

    it('serves a record stored while unset windows were kept as null without them (issue 17)', async () => {
      const event = await f.newEvent(admin);
      await f.put(`configs/reviews/${event.row_id}/`, admin, { record_update: { review_submission_enabled: true } });
      await ctx.db
        .update(configs)
        .set({ value: { ...DEFAULT_REVIEWS_CONFIG, review_submission_enabled: true, review_submission_starts_at: null } })
        .where(and(eq(configs.kind, 'reviews'), eq(configs.eventId, event.row_id)));
      const answer = (await f.get(`configs/reviews/${event.row_id}/`)).json();
      expect(answer.value).toEqual({ ...DEFAULT_REVIEWS_CONFIG, review_submission_enabled: true });
    });

    it('refuses a save whose merge with the stored settings puts the end of a window before its start', async () => {
      const event = await f.newEvent(admin);
      await f.put(`configs/reviews/${event.row_id}/`, admin, { record_update: { review_submission_starts_at: '2030-02-01T00:00:00Z' } });
      const before = await snapshot();
      const response = await f.put(`configs/reviews/${event.row_id}/`, admin, {
        record_update: { review_submission_ends_at: '2030-01-01T00:00:00Z' },
      });
      expect(response.statusCode).toBe(422);
      expect(json<Detail>(response).detail).toEqual([
        {
          loc: ['body', 'record_update', 'review_submission_ends_at'],
          msg: 'Review submission ends at must be after the start.',
          type: 'custom',
        },
      ]);
      expect(await snapshot()).toEqual(before);
    });

    it('does not serve names a record stored before unknown names were refused', async () => {
      const event = await f.newEvent(admin);
      await f.put(`configs/reviews/${event.row_id}/`, admin, { record_update: { review_submission_enabled: true } });
      await ctx.db
        .update(configs)
        .set({ value: { ...DEFAULT_REVIEWS_CONFIG, review_submission_enabled: true, junk_text: 'x' } })
        .where(and(eq(configs.kind, 'reviews'), eq(configs.eventId, event.row_id)));
      const served = (await f.get(`configs/reviews/${event.row_id}/`)).json().value;
      expect(served).toEqual({ ...DEFAULT_REVIEWS_CONFIG, review_submission_enabled: true });
      const saved = await f.put(`configs/reviews/${event.row_id}/`, admin, { record_update: served });
      expect(saved.statusCode).toBe(200);
      expect(saved.json().value).toEqual(served);
    });

    it('keeps the configuration of each event apart', async () => {
      const a = await f.newEvent(admin);
      const b = await f.newEvent(admin);
      await f.put(`configs/reviews/${a.row_id}/`, admin, { record_update: { moderation_submission_enabled: true } });
      expect((await f.get(`configs/reviews/${b.row_id}/`)).json().value).toEqual(DEFAULT_REVIEWS_CONFIG);
      expect((await f.get(`configs/reviews/${a.row_id}/`)).json().value.moderation_submission_enabled).toBe(true);
    });

    it('records each save with the values before and after', async () => {
      const event = await f.newEvent(admin);
      await f.put(`configs/reviews/${event.row_id}/`, admin, { record_update: { review_submission_enabled: true } });
      const [first] = await f.auditOf(event.row_id);
      expect(first).toMatchObject({
        action: 'config.reviews.update',
        entity: 'config:reviews',
        entityId: String(event.row_id),
        actorUserId: admin.id,
        before: DEFAULT_REVIEWS_CONFIG,
        after: { ...DEFAULT_REVIEWS_CONFIG, review_submission_enabled: true },
      });
      await f.put(`configs/reviews/${event.row_id}/`, admin, { record_update: { moderation_submission_enabled: true } });
      const [second] = await f.auditOf(event.row_id);
      expect(second).toMatchObject({
        before: first!.after,
        after: { ...DEFAULT_REVIEWS_CONFIG, review_submission_enabled: true, moderation_submission_enabled: true },
      });
    });

    it('saves simultaneous first saves of one event one after the other, without an error, into one record', async () => {
      const event = await f.newEvent(admin);
      const responses = await Promise.all(
        ['review_submission_enabled', 'moderation_submission_enabled', 'reviewer_subscription_enabled', 'review_visibility_enabled'].map(
          (name) => f.put(`configs/reviews/${event.row_id}/`, admin, { record_update: { [name]: true } }),
        ),
      );
      expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
      const rows = (await f.configRows()).filter((row) => row.kind === 'reviews' && row.eventId === event.row_id);
      expect(rows).toHaveLength(1);
      const entries = (await f.auditOf(event.row_id)).filter((entry) => entry.action === 'config.reviews.update').reverse();
      expect(entries).toHaveLength(4);
      expect(entries[0]!.before).toEqual(DEFAULT_REVIEWS_CONFIG);
      for (let i = 1; i < entries.length; i += 1) expect(entries[i]!.before).toEqual(entries[i - 1]!.after);
      expect(rows[0]!.value).toEqual(entries[3]!.after);
      // Each save kept the others' switches: all four are on at the end.
      expect(rows[0]!.value).toMatchObject({
        review_submission_enabled: true,
        moderation_submission_enabled: true,
        reviewer_subscription_enabled: true,
        review_visibility_enabled: true,
      });
    });

    describe('validation (422 with detail locations; nothing stored or recorded)', () => {
      it.each([
        [
          'a switch given as text (B-049)',
          { review_submission_enabled: 'yes' },
          ['body', 'record_update', 'review_submission_enabled'],
          'Review submission enabled has the wrong type: a name ending _enabled is a switch, _at a date-time, anything else text.',
        ],
        [
          'a switch given as null (B-049)',
          { user_registration_enabled: null },
          ['body', 'record_update', 'user_registration_enabled'],
          'User registration enabled has the wrong type: a name ending _enabled is a switch, _at a date-time, anything else text.',
        ],
        [
          'a date-time that is not ISO (B-049)',
          { review_submission_starts_at: '01/02/2030' },
          ['body', 'record_update', 'review_submission_starts_at'],
          'The selected date is invalid.',
        ],
        [
          'a date-time given as a number (B-049)',
          { moderation_submission_ends_at: 5 },
          ['body', 'record_update', 'moderation_submission_ends_at'],
          undefined,
        ],
        [
          'a date-time given as a boolean (B-049)',
          { moderation_submission_ends_at: true },
          ['body', 'record_update', 'moderation_submission_ends_at'],
          'The selected date is invalid.',
        ],
        [
          'a setting this application does not know (issue 13 item 12)',
          { welcome_text: 'Hello reviewers' },
          ['body', 'record_update', 'welcome_text'],
          'Welcome text is not a setting this application knows.',
        ],
        [
          'an end before the start',
          { review_submission_starts_at: '2030-02-01T00:00:00Z', review_submission_ends_at: '2030-01-01T00:00:00Z' },
          ['body', 'record_update', 'review_submission_ends_at'],
          'Review submission ends at must be after the start.',
        ],
        [
          'an end equal to the start (offsets compared as instants)',
          { reviewer_subscription_starts_at: '2030-01-01T01:00:00+01:00', reviewer_subscription_ends_at: '2030-01-01T00:00:00Z' },
          ['body', 'record_update', 'reviewer_subscription_ends_at'],
          'Reviewer subscription ends at must be after the start.',
        ],
      ])('refuses %s', async (_label, value, loc, msg) => {
        const event = await f.newEvent(admin);
        await f.put(`configs/reviews/${event.row_id}/`, admin, { record_update: { review_visibility_enabled: true } });
        const before = await snapshot();
        const response = await f.put(`configs/reviews/${event.row_id}/`, admin, { record_update: value });
        expect(response.statusCode).toBe(422);
        expect(json<Detail>(response).detail).toContainEqual(expect.objectContaining(detailAt(loc, msg)));
        expect(await snapshot()).toEqual(before);
        expect((await f.get(`configs/reviews/${event.row_id}/`)).json().value.review_visibility_enabled).toBe(true);
      });

      it('refuses any name but the known settings, thousands of them in a short answer (issue 13 item 12)', async () => {
        const event = await f.newEvent(admin);
        const before = await snapshot();
        for (const name of ['Bad-Name', '1st', 'with space', 'x'.repeat(65), 'constructor', 'user_registration']) {
          const response = await f.put(`configs/reviews/${event.row_id}/`, admin, { record_update: { [name]: 'x' } });
          expect(response.statusCode).toBe(422);
          expect(json<Detail>(response).detail).toEqual([
            {
              loc: ['body', 'record_update', name],
              msg: expect.stringMatching(/is not a setting this application knows\.$/),
              type: 'custom',
            },
          ]);
        }
        const many = Object.fromEntries(Array.from({ length: 10_000 }, (_, index) => [`extra_${index}`, 'x']));
        const response = await f.put(`configs/reviews/${event.row_id}/`, admin, {
          record_update: { ...many, review_submission_enabled: true },
        });
        expect(response.statusCode).toBe(422);
        expect(json<Detail>(response).detail).toHaveLength(10);
        expect(await snapshot()).toEqual(before);
      });

      it('refuses a body without record_update, or with a list instead of a map', async () => {
        const event = await f.newEvent(admin);
        for (const payload of [{}, { record_update: [] }, { record_update: 'x' }]) {
          const response = await f.put(`configs/reviews/${event.row_id}/`, admin, payload);
          expect(response.statusCode).toBe(422);
          expect(json<Detail>(response).detail).toContainEqual(expect.objectContaining(detailAt(['body', 'record_update'])));
        }
      });
    });

    it('answers 404 for an unknown event (422 beyond the integer range) and records nothing', async () => {
      const before = await snapshot();
      const response = await f.put('configs/reviews/999999/', admin, { record_update: { review_submission_enabled: true } });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
      expect((await f.put('configs/reviews/2147483648/', admin, { record_update: { review_submission_enabled: true } })).statusCode).toBe(
        422,
      );
      expect(await snapshot()).toEqual(before);
    });

    it('answers 401 anonymous and 403 non-admin, and stores nothing', async () => {
      const event = await f.newEvent(admin);
      const before = await snapshot();
      expect(
        (await f.put(`configs/reviews/${event.row_id}/`, undefined, { record_update: { review_submission_enabled: true } })).statusCode,
      ).toBe(401);
      const forbidden = await f.put(`configs/reviews/${event.row_id}/`, user, { record_update: { review_submission_enabled: true } });
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json()).toEqual(FORBIDDEN);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('configs/reviews-level-qualifiers/:eventId/ (B-053 to B-056, admin)', () => {
    const url = (eventId: number | string) => `configs/reviews-level-qualifiers/${eventId}/`;
    const levels = {
      lv1: {
        min_valid_reviews: 1,
        max_valid_reviews: 5,
        min_perc_valid_reviews: 0.5,
        max_perc_valid_reviews: 0.9,
        min_active_funds: 0,
        max_active_funds: 3,
      },
      lv2: {
        min_valid_reviews: 5,
        max_valid_reviews: 50,
        min_perc_valid_reviews: 0.9,
        max_perc_valid_reviews: 1,
        min_active_funds: 2,
        max_active_funds: 20,
      },
    };

    it('answers both levels with the defaults before any save (B-053, B-056)', async () => {
      const event = await f.newEvent(admin);
      const response = await f.get(url(event.row_id), admin);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        row_id: 0,
        id: 'reviews-level-qualifiers',
        id2: String(event.row_id),
        config_type: 'reviews-level-qualifiers',
        event: String(event.row_id),
        value: DEFAULT_LEVELS,
      });
    });

    it('saves both levels with PUT and answers them with GET afterwards (B-056)', async () => {
      const event = await f.newEvent(admin);
      const response = await f.put(url(event.row_id), admin, { record_update: levels });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        row_id: expect.any(Number),
        id: 'reviews-level-qualifiers',
        id2: String(event.row_id),
        config_type: 'reviews-level-qualifiers',
        event: String(event.row_id),
        value: levels,
      });
      expect((await f.get(url(event.row_id), admin)).json()).toEqual(response.json());
    });

    it('accepts the bounds: counts of 0, percentages of 0 and 1.0, max equal to min (B-054, B-055)', async () => {
      const event = await f.newEvent(admin);
      const edge = {
        min_valid_reviews: 0,
        max_valid_reviews: 0,
        min_perc_valid_reviews: 0,
        max_perc_valid_reviews: 1.0,
        min_active_funds: 0,
        max_active_funds: 0,
      };
      const response = await f.put(url(event.row_id), admin, { record_update: { lv1: edge, lv2: { ...edge, min_perc_valid_reviews: 1 } } });
      expect(response.statusCode).toBe(200);
      expect(response.json().value.lv2.min_perc_valid_reviews).toBe(1);
    });

    it('fills a level or a count left out with the reference API’s defaults (issue 17)', async () => {
      const event = await f.newEvent(admin);
      const response = await f.put(url(event.row_id), admin, { record_update: { lv1: { max_valid_reviews: 5 } } });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json().value).toEqual({ lv1: { ...DEFAULT_LEVEL_QUALIFIER, max_valid_reviews: 5 }, lv2: DEFAULT_LEVEL_QUALIFIER });
    });

    it('records each save with the levels before and after', async () => {
      const event = await f.newEvent(admin);
      await f.put(url(event.row_id), admin, { record_update: levels });
      const [entry] = await f.auditOf(event.row_id);
      expect(entry).toMatchObject({
        action: 'config.reviews-level-qualifiers.update',
        entity: 'config:reviews-level-qualifiers',
        entityId: String(event.row_id),
        actorUserId: admin.id,
        before: DEFAULT_LEVELS,
        after: levels,
      });
    });

    describe('validation (422 with detail locations; nothing stored or recorded)', () => {
      const withField = (level: 'lv1' | 'lv2', field: string, value: unknown) => ({
        ...levels,
        [level]: { ...levels[level], [field]: value },
      });

      it.each([
        [
          'a negative count (B-054)',
          withField('lv1', 'min_valid_reviews', -1),
          ['body', 'record_update', 'lv1', 'min_valid_reviews'],
          'Min valid reviews must be at least 0.',
        ],
        [
          'a negative active-funds count (B-054)',
          withField('lv2', 'min_active_funds', -1),
          ['body', 'record_update', 'lv2', 'min_active_funds'],
          'Min active funds must be at least 0.',
        ],
        [
          'a count that is not an integer (B-054)',
          withField('lv1', 'max_valid_reviews', 2.5),
          ['body', 'record_update', 'lv1', 'max_valid_reviews'],
          'Max valid reviews must be a whole number.',
        ],
        [
          'a count given as text (B-054)',
          withField('lv1', 'max_active_funds', '3'),
          ['body', 'record_update', 'lv1', 'max_active_funds'],
          'Max active funds must be a number.',
        ],
        [
          'a percentage of -1 (B-055)',
          withField('lv1', 'min_perc_valid_reviews', -1),
          ['body', 'record_update', 'lv1', 'min_perc_valid_reviews'],
          'Min perc valid reviews must be between 0 and 1.',
        ],
        [
          'a percentage of 1.01 (B-055)',
          withField('lv1', 'max_perc_valid_reviews', 1.01),
          ['body', 'record_update', 'lv1', 'max_perc_valid_reviews'],
          'Max perc valid reviews must be between 0 and 1.',
        ],
        [
          'a missing percentage (B-055)',
          withField('lv2', 'min_perc_valid_reviews', null),
          ['body', 'record_update', 'lv2', 'min_perc_valid_reviews'],
          'Min perc valid reviews must be a number.',
        ],
        [
          'a max below its min',
          withField('lv2', 'max_valid_reviews', 4),
          ['body', 'record_update', 'lv2', 'max_valid_reviews'],
          'Max valid reviews must not be below the minimum.',
        ],
        [
          'a max percentage below its min',
          withField('lv1', 'max_perc_valid_reviews', 0.4),
          ['body', 'record_update', 'lv1', 'max_perc_valid_reviews'],
          'Max perc valid reviews must not be below the minimum.',
        ],
      ])('refuses %s', async (_label, value, loc, msg) => {
        const event = await f.newEvent(admin);
        const before = await snapshot();
        const response = await f.put(url(event.row_id), admin, { record_update: value });
        expect(response.statusCode).toBe(422);
        expect(json<Detail>(response).detail).toContainEqual(expect.objectContaining(detailAt(loc, msg)));
        expect(await snapshot()).toEqual(before);
        expect((await f.get(url(event.row_id), admin)).json().value).toEqual(DEFAULT_LEVELS);
      });
    });

    it('answers 404 for an unknown event on GET and PUT', async () => {
      expect((await f.get(url(999999), admin)).json()).toEqual(NOT_FOUND);
      const before = await snapshot();
      const response = await f.put(url(999999), admin, { record_update: levels });
      expect(response.statusCode).toBe(404);
      expect(await snapshot()).toEqual(before);
    });

    it.each(['abc', '2147483648'])('answers 422 for the event id %j', async (id) => {
      const response = await f.get(url(id), admin);
      expect(response.statusCode).toBe(422);
      expect(json<Detail>(response).detail).toContainEqual(expect.objectContaining(detailAt(['path', 'eventId'])));
    });

    it('answers 401 anonymous and 403 non-admin on GET and PUT', async () => {
      const event = await f.newEvent(admin);
      const before = await snapshot();
      expect((await f.get(url(event.row_id))).statusCode).toBe(401);
      expect((await f.put(url(event.row_id), undefined, { record_update: levels })).statusCode).toBe(401);
      expect((await f.get(url(event.row_id), user)).json()).toEqual(FORBIDDEN);
      const forbidden = await f.put(url(event.row_id), user, { record_update: levels });
      expect(forbidden.statusCode).toBe(403);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('GET configs/allocations/:eventId/ (admin)', () => {
    it('answers the allocation flags, false until allocations are generated', async () => {
      const event = await f.newEvent(admin);
      const response = await f.get(`configs/allocations/${event.row_id}/`, admin);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        row_id: 0,
        id: 'allocations',
        id2: String(event.row_id),
        config_type: 'allocations',
        event: String(event.row_id),
        value: { moderation_allocation_generated: false, proposal_allocation_generated: false },
      });
    });

    it('answers 404 for an unknown event and 422 for an id that is not a number', async () => {
      const unknown = await f.get('configs/allocations/999999/', admin);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toEqual(NOT_FOUND);
      const invalid = await f.get('configs/allocations/x/', admin);
      expect(invalid.statusCode).toBe(422);
      expect(json<Detail>(invalid).detail).toContainEqual(expect.objectContaining(detailAt(['path', 'eventId'])));
    });

    it('answers 401 anonymous and 403 non-admin', async () => {
      const event = await f.newEvent(admin);
      expect((await f.get(`configs/allocations/${event.row_id}/`)).statusCode).toBe(401);
      const forbidden = await f.get(`configs/allocations/${event.row_id}/`, user);
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json()).toEqual(FORBIDDEN);
    });
  });

  describe('GET categories/?event_id (public)', () => {
    it("lists an event's categories by title, and every category without event_id", async () => {
      const a = await f.newEvent(admin);
      const b = await f.newEvent(admin);
      // No route writes a category's description: these rows are written directly.
      await ctx.db.insert(categories).values([
        { eventId: a.row_id, title: 'Open Source', description: 'Code' },
        { eventId: a.row_id, title: 'Community' },
        { eventId: b.row_id, title: 'Research' },
      ]);
      eventsOrConfigsChanged(); // what the repositories do on each write (db/read-cache)

      const response = await f.get(`categories/?event_id=${a.row_id}`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual([
        expect.objectContaining({ id: expect.any(Number), title: 'Community', description: null, event_id: a.row_id, event: a.row_id }),
        expect.objectContaining({ id: expect.any(Number), title: 'Open Source', description: 'Code', event_id: a.row_id, event: a.row_id }),
      ]);
      const all = (await f.get('categories/', user)).json() as { title: string; event_id: number }[];
      expect(all.filter((c) => c.event_id === a.row_id || c.event_id === b.row_id).map((c) => c.title)).toEqual([
        'Community',
        'Open Source',
        'Research',
      ]);
    });

    it('answers an empty list for an event without categories or an unknown event', async () => {
      const event = await f.newEvent(admin);
      expect((await f.get(`categories/?event_id=${event.row_id}`)).json()).toEqual([]);
      const unknown = await f.get('categories/?event_id=999999');
      expect(unknown.statusCode).toBe(200);
      expect(unknown.json()).toEqual([]);
    });

    it('answers 422 for an event_id that is not a positive number', async () => {
      for (const value of ['abc', '0', '2147483648']) {
        const response = await f.get(`categories/?event_id=${value}`);
        expect(response.statusCode).toBe(422);
        expect(json<Detail>(response).detail).toContainEqual(expect.objectContaining(detailAt(['query', 'event_id'])));
      }
    });
  });
});
