import { and, count, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { EventPublic } from '@cr/contract/events';
import { normalizeCatalystId } from '@cr/contract/rules';
import { auditLog, events } from '../src/db/schema/index';
import { API, databaseKinds, json, useTestApp } from './build-test-app';
import { detailAt, eventFixtures, type Detail } from './event-fixtures';
import { uniqueName, type TestUser } from './fixtures';

const FORBIDDEN = { message: 'This section is only accessible to admins.' };
const NOT_FOUND = { message: 'This event does not exist.' };
const NAME_TAKEN = { message: 'An event with this name already exists.' };

describe.each(databaseKinds)('events routes on %s', (kind) => {
  const ctx = useTestApp(kind);
  const f = eventFixtures(ctx);
  let admin: TestUser;
  let user: TestUser;
  beforeAll(async () => {
    admin = await ctx.newAdmin();
    user = await ctx.newUser();
  });

  const rowsNamed = async (name: string) =>
    (
      await ctx.db
        .select({ n: count() })
        .from(events)
        .where(sql`lower(${events.name}) = lower(${name})`)
    )[0]!.n;

  describe('GET events/ (B-024, public, paged)', () => {
    it('lists events newest first with data and page.total, size and page (B-001, B-024)', async () => {
      const created: EventPublic[] = [];
      for (let i = 0; i < 3; i += 1) created.push(await f.newEvent(admin));
      const total = await f.eventCount();

      const first = await f.get('events/?size=2&page=0');
      expect(first.statusCode).toBe(200);
      const body = first.json();
      expect(body.page).toEqual({ total, size: 2, page: 0 });
      expect(body.data.map((e: EventPublic) => e.row_id)).toEqual([created[2]!.row_id, created[1]!.row_id]);
      expect(Object.keys(body.data[0]).sort()).toEqual(['active', 'description', 'end_time', 'name', 'row_id', 'start_time']);

      const second = (await f.get('events/?size=2&page=1')).json();
      expect(second.data[0].row_id).toBe(created[0]!.row_id);
      expect(second.page).toEqual({ total, size: 2, page: 1 });
    });

    // Issue 26 (rough edges): the current rounds never drift to a later page as past and draft rounds pile up.
    it('lists the current (active) events first, then the others newest first', async () => {
      const current = await f.newEvent(admin, { active: true });
      for (let i = 0; i < 3; i += 1) await f.newEvent(admin);
      const rows = (await f.get(`events/?size=${await f.eventCount()}&page=0`)).json().data as EventPublic[];
      const firstInactive = rows.findIndex((event) => !event.active);
      expect(rows.slice(0, firstInactive).every((event) => event.active)).toBe(true);
      expect(rows.slice(firstInactive).every((event) => !event.active)).toBe(true);
      expect(rows.slice(0, firstInactive).map((event) => event.row_id)).toContain(current.row_id);
      const inactiveIds = rows.slice(firstInactive).map((event) => event.row_id);
      expect(inactiveIds).toEqual([...inactiveIds].sort((a, b) => b - a));
    });

    it('pages by 25 unless told otherwise (B-023) and answers anonymous and non-admin callers', async () => {
      await f.newEvent(admin);
      const anonymous = await f.get('events/');
      expect(anonymous.statusCode).toBe(200);
      expect(anonymous.json().page).toMatchObject({ size: 25, page: 0 });
      expect((await f.get('events/', user)).statusCode).toBe(200);
    });

    it('answers an empty page past the end', async () => {
      const response = await f.get('events/?size=100&page=999');
      expect(response.statusCode).toBe(200);
      expect(response.json().data).toEqual([]);
      expect(response.json().page.total).toBe(await f.eventCount());
    });

    it.each([
      ['size=0', ['query', 'size']],
      ['size=101', ['query', 'size']],
      ['size=abc', ['query', 'size']],
      ['page=-1', ['query', 'page']],
      ['page=1.5', ['query', 'page']],
    ])('answers 422 for %s', async (query, loc) => {
      const response = await f.get(`events/?${query}`);
      expect(response.statusCode).toBe(422);
      expect(json<Detail>(response).detail).toContainEqual(expect.objectContaining(detailAt(loc)));
    });
  });

  describe('GET events/current/ (B-002)', () => {
    it('lists only the active events, oldest first, to anyone', async () => {
      const active = await f.newEvent(admin, { active: true });
      const inactive = await f.newEvent(admin, { active: false });
      const response = await f.get('events/current/');
      expect(response.statusCode).toBe(200);
      const list: EventPublic[] = response.json();
      expect(list.every((event) => event.active)).toBe(true);
      expect(list.map((event) => event.row_id)).toContain(active.row_id);
      expect(list.map((event) => event.row_id)).not.toContain(inactive.row_id);
      const ids = list.map((event) => event.row_id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    });

    it('drops an event that is made inactive and adds one that is made active', async () => {
      const event = await f.newEvent(admin, { active: true });
      expect((await f.putEvent(admin, event.row_id, { name: event.name, description: event.description, active: false })).statusCode).toBe(
        200,
      );
      expect((await f.get('events/current/')).json().map((e: EventPublic) => e.row_id)).not.toContain(event.row_id);
      expect((await f.putEvent(admin, event.row_id, { name: event.name, description: event.description, active: true })).statusCode).toBe(
        200,
      );
      expect((await f.get('events/current/', user)).json().map((e: EventPublic) => e.row_id)).toContain(event.row_id);
    });
  });

  describe('GET events/:id/', () => {
    it('answers one event to anyone (B-001)', async () => {
      const event = await f.newEvent(admin, { start_time: '2030-01-01T00:00:00Z', end_time: '2030-03-01T00:00:00Z' });
      const response = await f.get(`events/${event.row_id}/`);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(event);
    });

    it('answers 404 for an unknown event', async () => {
      const response = await f.get('events/999999/');
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(NOT_FOUND);
    });

    it.each(['abc', '0', '-3', '2147483648', '99999999999'])(
      'answers 422 for the id %j (beyond the integer range too, not 500)',
      async (id) => {
        const response = await f.get(`events/${id}/`);
        expect(response.statusCode).toBe(422);
        expect(json<Detail>(response).detail).toContainEqual(expect.objectContaining(detailAt(['path', 'eventId'])));
      },
    );
  });

  describe('POST events/ (B-029)', () => {
    it('creates an event, inactive by default, and answers 201 with it (B-028, B-029)', async () => {
      const name = uniqueName('Fund');
      const response = await f.postEvent(admin, { name: `  ${name}  `, description: ' Round 14 ' });
      expect(response.statusCode).toBe(201);
      const event = response.json();
      expect(event).toEqual({ row_id: expect.any(Number), name, description: 'Round 14', active: false, start_time: null, end_time: null });
      expect(await f.eventRow(event.row_id)).toMatchObject({
        name,
        description: 'Round 14',
        active: false,
        startTime: null,
        endTime: null,
      });
    });

    it('stores the times as instants and answers them in UTC', async () => {
      const event = await f.newEvent(admin, { active: true, start_time: '2030-01-01T02:00:00+02:00', end_time: '2030-02-01T00:00:00Z' });
      expect(event).toMatchObject({ active: true, start_time: '2030-01-01T00:00:00.000Z', end_time: '2030-02-01T00:00:00.000Z' });
    });

    it('records an audit entry with the new event and no before', async () => {
      const event = await f.newEvent(admin);
      const [entry] = await f.auditOf(event.row_id);
      expect(entry).toMatchObject({
        action: 'event.create',
        entity: 'event',
        entityId: String(event.row_id),
        actorUserId: admin.id,
        before: null,
        after: event,
      });
    });

    it('refuses a name another event has, in any case and spacing (B-027), and writes nothing', async () => {
      const existing = await f.newEvent(admin);
      const before = { events: await f.eventCount(), audit: await f.auditCount() };
      for (const name of [existing.name, existing.name.toUpperCase(), `  ${existing.name.toLowerCase()} `]) {
        const response = await f.postEvent(admin, f.eventBody({ name }));
        expect(response.statusCode).toBe(409);
        expect(response.json()).toEqual(NAME_TAKEN);
      }
      expect({ events: await f.eventCount(), audit: await f.auditCount() }).toEqual(before);
    });

    it('creates one of two simultaneous events with the same name and answers the other 409, never 500 (B-027)', async () => {
      const name = uniqueName('Race');
      const responses = await Promise.all([
        f.postEvent(admin, f.eventBody({ name })),
        f.postEvent(admin, f.eventBody({ name: name.toUpperCase() })),
      ]);
      expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      expect(responses.find((r) => r.statusCode === 409)!.json()).toEqual(NAME_TAKEN);
      expect(await rowsNamed(name)).toBe(1);
      const created = responses.find((r) => r.statusCode === 201)!.json();
      expect(await f.auditOf(created.row_id)).toHaveLength(1);
    });

    it('creates one of four simultaneous events with the same name', async () => {
      const name = uniqueName('Race4');
      const responses = await Promise.all(Array.from({ length: 4 }, () => f.postEvent(admin, f.eventBody({ name }))));
      expect(responses.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
      expect(await rowsNamed(name)).toBe(1);
    });

    describe('validation (422 with detail locations; nothing written)', () => {
      it.each([
        ['no name (B-026)', { name: undefined }, ['body', 'new_event', 'name'], 'Name is required.'],
        ['a blank name (B-026)', { name: '   ' }, ['body', 'new_event', 'name'], 'Name is required.'],
        ['no description (B-026)', { description: undefined }, ['body', 'new_event', 'description'], 'Description is required.'],
        ['a blank description (B-026)', { description: '\n\t' }, ['body', 'new_event', 'description'], 'Description is required.'],
        ['a name over 200 characters', { name: 'n'.repeat(201) }, ['body', 'new_event', 'name'], 'Name is too long.'],
        [
          'a start time that is not a date-time',
          { start_time: 'tomorrow' },
          ['body', 'new_event', 'start_time'],
          'The selected date is invalid.',
        ],
        [
          'an end time without offset',
          { end_time: '2030-01-01T00:00:00' },
          ['body', 'new_event', 'end_time'],
          'The selected date is invalid.',
        ],
        [
          'an end before the start',
          { start_time: '2030-02-01T00:00:00Z', end_time: '2030-01-01T00:00:00Z' },
          ['body', 'new_event', 'end_time'],
          'End time must be after the start.',
        ],
        ['active that is not a boolean', { active: 'yes' }, ['body', 'new_event', 'active'], undefined],
      ])('refuses %s', async (_label, overrides, loc, msg) => {
        const before = { events: await f.eventCount(), audit: await f.auditCount() };
        const response = await f.postEvent(admin, f.eventBody(overrides));
        expect(response.statusCode).toBe(422);
        expect(json<Detail>(response).detail).toContainEqual(expect.objectContaining(detailAt(loc, msg)));
        expect({ events: await f.eventCount(), audit: await f.auditCount() }).toEqual(before);
      });

      it('refuses a body without new_event', async () => {
        const response = await ctx.app.inject({
          method: 'POST',
          url: `${API}/events/`,
          headers: admin.auth,
          payload: { name: 'x', description: 'y' },
        });
        expect(response.statusCode).toBe(422);
        expect(json<Detail>(response).detail).toContainEqual(expect.objectContaining(detailAt(['body', 'new_event'])));
      });

      it('reports name and description together', async () => {
        const response = await f.postEvent(admin, {});
        expect(json<Detail>(response).detail.map((d) => d.loc)).toEqual([
          ['body', 'new_event', 'name'],
          ['body', 'new_event', 'description'],
        ]);
      });
    });

    it('answers 401 to an anonymous caller, before validating, and writes nothing', async () => {
      const before = await f.eventCount();
      expect((await f.postEvent(undefined, f.eventBody())).statusCode).toBe(401);
      expect((await f.postEvent(undefined, {})).statusCode).toBe(401);
      expect(await f.eventCount()).toBe(before);
    });

    it('answers 403 to a logged-in user who is not an admin', async () => {
      const before = await f.eventCount();
      const response = await f.postEvent(user, f.eventBody());
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual(FORBIDDEN);
      expect(await f.eventCount()).toBe(before);
    });
  });

  describe('PUT events/:row_id/ (B-030)', () => {
    it('updates every field and answers the event (B-030)', async () => {
      const event = await f.newEvent(admin);
      const name = uniqueName('Renamed');
      const update = { name, description: 'New text', active: true, start_time: '2031-01-01T00:00:00Z', end_time: '2031-06-01T00:00:00Z' };
      const response = await f.putEvent(admin, event.row_id, update);
      expect(response.statusCode).toBe(200);
      const expected = {
        row_id: event.row_id,
        name,
        description: 'New text',
        active: true,
        start_time: '2031-01-01T00:00:00.000Z',
        end_time: '2031-06-01T00:00:00.000Z',
      };
      expect(response.json()).toEqual(expected);
      expect((await f.get(`events/${event.row_id}/`)).json()).toEqual(expected);
    });

    it('clears times that are left out and keeps active false when left out', async () => {
      const event = await f.newEvent(admin, { active: true, start_time: '2031-01-01T00:00:00Z' });
      const response = await f.putEvent(admin, event.row_id, { name: event.name, description: event.description });
      expect(response.json()).toMatchObject({ active: false, start_time: null, end_time: null });
    });

    it('records an audit entry with the event before and after the change', async () => {
      const event = await f.newEvent(admin);
      const updated = (await f.putEvent(admin, event.row_id, { name: event.name, description: 'Changed', active: true })).json();
      const [entry] = await f.auditOf(event.row_id);
      expect(entry).toMatchObject({
        action: 'event.update',
        entity: 'event',
        entityId: String(event.row_id),
        actorUserId: admin.id,
        before: event,
        after: updated,
      });
    });

    it('lets an event keep its own name in another case', async () => {
      const event = await f.newEvent(admin);
      const response = await f.putEvent(admin, event.row_id, { name: event.name.toUpperCase(), description: event.description });
      expect(response.statusCode).toBe(200);
      expect(response.json().name).toBe(event.name.toUpperCase());
    });

    it("refuses another event's name (B-027) and changes and records nothing", async () => {
      const taken = await f.newEvent(admin);
      const event = await f.newEvent(admin);
      const audit = await f.auditCount();
      const response = await f.putEvent(admin, event.row_id, { name: taken.name.toLowerCase(), description: 'Changed' });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual(NAME_TAKEN);
      expect((await f.get(`events/${event.row_id}/`)).json()).toEqual(event);
      expect(await f.auditCount()).toBe(audit);
    });

    it('renames one of two events racing to the same new name and answers the other 409', async () => {
      const a = await f.newEvent(admin);
      const b = await f.newEvent(admin);
      const name = uniqueName('Target');
      const responses = await Promise.all([
        f.putEvent(admin, a.row_id, { name, description: 'a' }),
        f.putEvent(admin, b.row_id, { name: name.toUpperCase(), description: 'b' }),
      ]);
      expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      expect(await rowsNamed(name)).toBe(1);
    });

    it('answers 404 for an unknown event, even with a name that is taken, and records nothing', async () => {
      const taken = await f.newEvent(admin);
      const audit = await f.auditCount();
      for (const name of [uniqueName('Ghost'), taken.name]) {
        const response = await f.putEvent(admin, 999999, { name, description: 'x' });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(NOT_FOUND);
      }
      expect(await f.auditCount()).toBe(audit);
    });

    it.each([
      ['a blank name', { name: ' ' }, ['body', 'event_update', 'name'], 'Name is required.'],
      ['no description', { description: undefined }, ['body', 'event_update', 'description'], 'Description is required.'],
      [
        'an invalid start time',
        { start_time: '2031-13-01T00:00:00Z' },
        ['body', 'event_update', 'start_time'],
        'The selected date is invalid.',
      ],
      [
        'an end equal to the start',
        { start_time: '2031-01-01T00:00:00Z', end_time: '2031-01-01T00:00:00Z' },
        ['body', 'event_update', 'end_time'],
        'End time must be after the start.',
      ],
    ])('answers 422 for %s and changes nothing', async (_label, overrides, loc, msg) => {
      const event = await f.newEvent(admin);
      const audit = await f.auditCount();
      const response = await f.putEvent(admin, event.row_id, { name: event.name, description: event.description, ...overrides });
      expect(response.statusCode).toBe(422);
      expect(json<Detail>(response).detail).toContainEqual(expect.objectContaining(detailAt(loc, msg)));
      expect((await f.get(`events/${event.row_id}/`)).json()).toEqual(event);
      expect(await f.auditCount()).toBe(audit);
    });

    it.each(['abc', '0', '2147483648'])('answers 422 for the row id %j', async (rowId) => {
      const response = await f.putEvent(admin, rowId, f.eventBody());
      expect(response.statusCode).toBe(422);
      expect(json<Detail>(response).detail).toContainEqual(expect.objectContaining(detailAt(['path', 'row_id'])));
    });

    it('answers 401 anonymous and 403 non-admin, and changes nothing', async () => {
      const event = await f.newEvent(admin);
      expect((await f.putEvent(undefined, event.row_id, { name: 'x', description: 'y' })).statusCode).toBe(401);
      const forbidden = await f.putEvent(user, event.row_id, { name: 'x', description: 'y' });
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json()).toEqual(FORBIDDEN);
      expect((await f.get(`events/${event.row_id}/`)).json()).toEqual(event);
    });
  });

  describe('audit of event changes', () => {
    it('names the acting admin on each entry of an event, newest first', async () => {
      const event = await f.newEvent(admin);
      await f.putEvent(admin, event.row_id, { name: event.name, description: 'v2' });
      const rows = await ctx.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.eventId, event.row_id), eq(auditLog.entity, 'event')));
      expect(rows.map((row) => row.action).sort()).toEqual(['event.create', 'event.update']);
      const response = await f.get(`admin/audit/?event_id=${event.row_id}`, admin);
      expect(response.json().data.map((entry: { action: string; actor: string }) => [entry.action, entry.actor])).toEqual([
        ['event.update', normalizeCatalystId(admin.catalystId).id],
        ['event.create', normalizeCatalystId(admin.catalystId).id],
      ]);
    });
  });
});
