import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LEVEL_QUALIFIER, DEFAULT_REVIEWS_CONFIG, type AuditEntry } from '@cr/contract/events';
import { normalizeCatalystId } from '@cr/contract/rules';
import { databaseKinds, json, useTestApp } from './build-test-app';
import { detailAt, eventFixtures, type Detail } from './event-fixtures';
import type { TestUser } from './fixtures';

const FORBIDDEN = { message: 'This section is only accessible to admins.' };

describe.each(databaseKinds)('GET admin/audit/ on %s', (kind) => {
  const ctx = useTestApp(kind);
  const f = eventFixtures(ctx);
  let admin: TestUser;
  let otherAdmin: TestUser;
  let user: TestUser;
  beforeAll(async () => {
    admin = await ctx.newAdmin();
    otherAdmin = await ctx.newAdmin();
    user = await ctx.newUser();
  });

  const audit = async (query = '') => {
    const response = await f.get(`admin/audit/${query}`, admin);
    expect(response.statusCode).toBe(200);
    return response.json() as { data: AuditEntry[]; page: { total: number; size: number; page: number } };
  };

  it('lists every admin change to an event, newest first, with action, entity, actor, before and after', async () => {
    const event = await f.newEvent(admin);
    const updated = (await f.putEvent(otherAdmin, event.row_id, { name: event.name, description: 'Edited', active: true })).json();
    const levels = { lv1: DEFAULT_LEVEL_QUALIFIER, lv2: { ...DEFAULT_LEVEL_QUALIFIER, min_valid_reviews: 3 } };
    await f.put(`configs/reviews/${event.row_id}/`, admin, { record_update: { review_submission_enabled: true } });
    await f.put(`configs/reviews-level-qualifiers/${event.row_id}/`, admin, { record_update: levels });

    const { data, page } = await audit(`?event_id=${event.row_id}`);
    expect(page).toEqual({ total: 4, size: 25, page: 0 });
    const actor = normalizeCatalystId(admin.catalystId).id;
    expect(data).toEqual([
      {
        id: expect.any(Number),
        action: 'config.reviews-level-qualifiers.update',
        entity: 'config:reviews-level-qualifiers',
        entity_id: String(event.row_id),
        actor,
        event_id: event.row_id,
        before: { lv1: DEFAULT_LEVEL_QUALIFIER, lv2: DEFAULT_LEVEL_QUALIFIER },
        after: levels,
        created_at: expect.any(String),
      },
      expect.objectContaining({
        action: 'config.reviews.update',
        entity: 'config:reviews',
        actor,
        before: DEFAULT_REVIEWS_CONFIG,
        after: { ...DEFAULT_REVIEWS_CONFIG, review_submission_enabled: true },
      }),
      expect.objectContaining({
        action: 'event.update',
        entity: 'event',
        entity_id: String(event.row_id),
        actor: normalizeCatalystId(otherAdmin.catalystId).id,
        before: event,
        after: updated,
      }),
      expect.objectContaining({
        action: 'event.create',
        entity: 'event',
        entity_id: String(event.row_id),
        actor,
        before: null,
        after: event,
      }),
    ]);
    const ids = data.map((entry) => entry.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(Number.isNaN(Date.parse(data[0]!.created_at))).toBe(false);
  });

  it('keeps events apart and lists everything (status changes too) without event_id', async () => {
    const a = await f.newEvent(admin);
    const b = await f.newEvent(admin);
    await f.put('configs/status/', admin, { record_update: { messages: [{ message: 'Hello', severity: 'info' }] } });
    expect((await audit(`?event_id=${a.row_id}`)).data.map((entry) => entry.entity_id)).toEqual([String(a.row_id)]);
    const all = await audit('?size=3');
    expect(all.data.map((entry) => entry.action)).toEqual(['config.status.update', 'event.create', 'event.create']);
    expect(all.data.slice(1).map((entry) => entry.entity_id)).toEqual([String(b.row_id), String(a.row_id)]);
    expect(all.page.total).toBeGreaterThanOrEqual(3);
  });

  it('pages with size and page', async () => {
    const event = await f.newEvent(admin);
    for (const description of ['v2', 'v3']) await f.putEvent(admin, event.row_id, { name: event.name, description });
    const first = await audit(`?event_id=${event.row_id}&size=2&page=0`);
    const second = await audit(`?event_id=${event.row_id}&size=2&page=1`);
    expect(first.data.map((entry) => entry.action)).toEqual(['event.update', 'event.update']);
    expect(second.data.map((entry) => entry.action)).toEqual(['event.create']);
    expect(second.page).toEqual({ total: 3, size: 2, page: 1 });
  });

  it('answers an empty list for an event without entries', async () => {
    expect(await audit('?event_id=999999')).toEqual({ data: [], page: { total: 0, size: 25, page: 0 } });
  });

  it('records nothing for refused or failed changes (422, 409, 404, 401, 403)', async () => {
    const event = await f.newEvent(admin);
    const taken = await f.newEvent(admin);
    const before = await audit();
    const responses = await Promise.all([
      f.postEvent(admin, { name: ' ', description: 'x' }),
      f.postEvent(admin, { name: taken.name, description: 'x' }),
      f.putEvent(admin, event.row_id, { name: taken.name.toUpperCase(), description: 'x' }),
      f.putEvent(admin, 999999, { name: 'Ghost', description: 'x' }),
      f.put(`configs/reviews/${event.row_id}/`, admin, { record_update: { review_submission_enabled: 'yes' } }),
      f.put('configs/reviews/999999/', admin, { record_update: {} }),
      f.put(`configs/reviews-level-qualifiers/${event.row_id}/`, admin, {
        record_update: { lv1: DEFAULT_LEVEL_QUALIFIER, lv2: { ...DEFAULT_LEVEL_QUALIFIER, max_perc_valid_reviews: 1.01 } },
      }),
      f.put('configs/status/', admin, { record_update: { messages: [{ message: '  ', severity: 'info' }] } }),
      f.put('configs/status/', user, { record_update: { messages: [] } }),
      f.postEvent(undefined, { name: 'Anon', description: 'x' }),
    ]);
    expect(responses.map((r) => r.statusCode)).toEqual([422, 409, 409, 404, 422, 404, 422, 422, 403, 401]);
    const after = await audit();
    expect(after.page.total).toBe(before.page.total);
    expect(after.data).toEqual(before.data);
  });

  it.each([
    ['event_id=abc', ['query', 'event_id']],
    ['event_id=0', ['query', 'event_id']],
    ['event_id=2147483648', ['query', 'event_id']],
    ['size=0', ['query', 'size']],
    ['page=-1', ['query', 'page']],
  ])('answers 422 for %s', async (query, loc) => {
    const response = await f.get(`admin/audit/?${query}`, admin);
    expect(response.statusCode).toBe(422);
    expect(json<Detail>(response).detail).toContainEqual(expect.objectContaining(detailAt(loc)));
  });

  // Issue 28 item 4: the audit tab's filters.
  it('issue 28 item 4: filters by action, actor (case aside) and event, alone and together', async () => {
    const event = await f.newEvent(admin);
    const other = await f.newEvent(otherAdmin);
    await f.putEvent(otherAdmin, event.row_id, { name: event.name, description: 'By the other admin', active: true });
    await f.put(`configs/reviews/${event.row_id}/`, admin, { record_update: { review_submission_enabled: true } });
    const actions = (query: string) => audit(query).then(({ data }) => data.map((entry) => [entry.action, entry.event_id]));

    expect(await actions(`?event_id=${event.row_id}&action=event.update`)).toEqual([['event.update', event.row_id]]);
    const byOther = await audit(`?actor=${encodeURIComponent(normalizeCatalystId(otherAdmin.catalystId).id.toUpperCase())}`);
    expect(byOther.data.slice(0, 2).map((entry) => [entry.action, entry.entity_id])).toEqual([
      ['event.update', String(event.row_id)],
      ['event.create', String(other.row_id)],
    ]);
    expect(byOther.data.every((entry) => entry.actor === normalizeCatalystId(otherAdmin.catalystId).id)).toBe(true);
    const combined = await audit(
      `?event_id=${event.row_id}&action=event.create&actor=${encodeURIComponent(normalizeCatalystId(admin.catalystId).id)}`,
    );
    expect(combined.data.map((entry) => entry.action)).toEqual(['event.create']);
    expect(combined.page.total).toBe(1);
    expect((await audit(`?event_id=${event.row_id}&action=event.create&actor=cardano/nobody`)).page.total).toBe(0);
    expect((await audit('?action=no.such.action')).data).toEqual([]);
  });

  it('issue 28 item 4: 25 a page by default; the pages hold every entry once', async () => {
    for (let n = 0; n < 26; n += 1) await f.newEvent(otherAdmin);
    const actor = encodeURIComponent(normalizeCatalystId(otherAdmin.catalystId).id);
    const first = await audit(`?actor=${actor}&action=event.create`);
    expect(first.data).toHaveLength(25);
    expect(first.page).toMatchObject({ size: 25, page: 0 });
    const second = await audit(`?actor=${actor}&action=event.create&page=1`);
    expect(second.data).toHaveLength(first.page.total - 25);
    const ids = [...first.data, ...second.data].map((entry) => entry.id);
    expect(new Set(ids).size).toBe(first.page.total);
  });

  it('issue 28 item 4: lists the actions the log holds, for admins only', async () => {
    await f.newEvent(admin);
    const response = await f.get('admin/audit/actions/', admin);
    expect(response.statusCode).toBe(200);
    const list = response.json() as string[];
    expect(list).toContain('event.create');
    expect(list).toEqual([...new Set(list)].sort());
    expect((await f.get('admin/audit/actions/')).statusCode).toBe(401);
    expect((await f.get('admin/audit/actions/', user)).statusCode).toBe(403);
  });

  it.each([
    ['action=a%20b', ['query', 'action']],
    ['action=' + 'a'.repeat(81), ['query', 'action']],
    ['actor=' + 'a'.repeat(201), ['query', 'actor']],
    ['actor=%00', ['query', 'actor']],
  ])('issue 28 item 4: answers 422 for %s', async (query, loc) => {
    const response = await f.get(`admin/audit/?${query}`, admin);
    expect(response.statusCode).toBe(422);
    expect(json<Detail>(response).detail).toContainEqual(expect.objectContaining(detailAt(loc)));
  });

  it('answers 401 anonymous and 403 non-admin', async () => {
    expect((await f.get('admin/audit/')).statusCode).toBe(401);
    const forbidden = await f.get('admin/audit/', user);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json()).toEqual(FORBIDDEN);
  });
});
