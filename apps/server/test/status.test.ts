import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StatusMessage } from '@cr/contract/events';
import { auditLog, configs } from '../src/db/schema/index';
import { databaseKinds, json, useTestApp } from './build-test-app';
import { detailAt, eventFixtures, type Detail } from './event-fixtures';
import type { TestUser } from './fixtures';

const FORBIDDEN = { message: 'This section is only accessible to admins.' };
const ALLOWED_TAGS = ['a', 'b', 'strong', 'i', 'em', 'u', 's', 'br', 'p', 'span', 'code', 'ul', 'ol', 'li'];

/** Every tag left in a stored message is on the allow-list and carries no event handler, style or script URL. */
function expectHarmless(html: string) {
  for (const [, name, attributes] of html.matchAll(/<\/?([a-z0-9]+)([^>]*)>/gi)) {
    expect(ALLOWED_TAGS).toContain(name!.toLowerCase());
    expect(attributes).not.toMatch(/\bon\w+\s*=|style\s*=|javascript:|src\s*=/i);
  }
  expect(html).not.toMatch(/<script|<img|<iframe|<svg|<style/i);
}

describe.each(databaseKinds)('configs/status/ on %s', (kind) => {
  const ctx = useTestApp(kind);
  const f = eventFixtures(ctx);
  let admin: TestUser;
  let user: TestUser;
  beforeAll(async () => {
    admin = await ctx.newAdmin();
    user = await ctx.newUser();
  });

  const save = (messages: unknown, who: TestUser | undefined = admin) => f.put('configs/status/', who, { record_update: { messages } });
  const saved = async (messages: unknown): Promise<StatusMessage[]> => {
    const response = await save(messages);
    expect(response.statusCode).toBe(200);
    return response.json().value.messages;
  };
  const storedRows = () => ctx.db.select().from(configs).where(eq(configs.kind, 'status'));

  // These two run first, on a database without a status record.
  it('answers an empty list before any message was saved (B-042)', async () => {
    const response = await f.get('configs/status/');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ row_id: 0, id: 'status', value: { messages: [] } });
  });

  it('saves simultaneous first saves without an error, one after the other, into one record', async () => {
    const responses = await Promise.all(Array.from({ length: 4 }, (_, i) => save([{ message: `Save ${i}`, severity: 'info' }])));
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    expect(await storedRows()).toHaveLength(1);
    // The saves queued up: each one's audit entry starts from the list the one before it left.
    const entries = (await ctx.db.select().from(auditLog).where(eq(auditLog.entity, 'config:status')).orderBy(auditLog.id)) as {
      before: unknown;
      after: unknown;
    }[];
    expect(entries).toHaveLength(4);
    expect(entries[0]!.before).toEqual({ messages: [] });
    for (let i = 1; i < entries.length; i += 1) expect(entries[i]!.before).toEqual(entries[i - 1]!.after);
  });

  describe('PUT configs/status/ (B-043, admin)', () => {
    it('stores the messages list from record_update and answers it with row ids and defaults (B-038, B-043)', async () => {
      const messages = await saved([
        { message: '<b>Maintenance</b> tonight', severity: 'warning', action_text: 'Details', action_url: 'https://example.org/status' },
        { message: 'All good', severity: 'success', is_active: false },
      ]);
      expect(messages).toEqual([
        {
          row_id: expect.any(Number),
          message: '<b>Maintenance</b> tonight',
          severity: 'warning',
          is_active: true,
          action_text: 'Details',
          action_url: 'https://example.org/status',
        },
        { row_id: expect.any(Number), message: 'All good', severity: 'success', is_active: false, action_text: null, action_url: null },
      ]);
      expect(new Set(messages.map((m) => m.row_id)).size).toBe(2);
      const record = (await f.get('configs/status/', admin)).json();
      expect(record.value.messages).toEqual(messages);
      expect(record.row_id).toBeGreaterThan(0);
    });

    it('keeps the row id of a message sent back and gives new ones (and unknown or repeated ids) the next ids', async () => {
      const [kept, dropped] = await saved([
        { message: 'Keep me', severity: 'info' },
        { message: 'Drop me', severity: 'info' },
      ]);
      const next = await saved([
        { row_id: kept!.row_id, message: 'Kept, edited', severity: 'critical' },
        { row_id: 999_999, message: 'Unknown id', severity: 'info' },
        { row_id: kept!.row_id, message: 'Repeated id', severity: 'info' },
        { message: 'Brand new', severity: 'info' },
      ]);
      expect(next[0]).toMatchObject({ row_id: kept!.row_id, message: 'Kept, edited', severity: 'critical' });
      const ids = next.map((m) => m.row_id);
      expect(new Set(ids).size).toBe(4);
      for (const id of ids.slice(1)) expect(id).toBeGreaterThan(dropped!.row_id);
    });

    it('replaces the whole list, and an empty list removes every message', async () => {
      await saved([{ message: 'One', severity: 'info' }]);
      expect((await f.get('configs/status/', admin)).json().value.messages.map((m: StatusMessage) => m.message)).toEqual(['One']);
      expect(await saved([])).toEqual([]);
      expect((await f.get('configs/status/', admin)).json().value.messages).toEqual([]);
    });

    it('trims the message and treats blank action text and url as absent (B-040)', async () => {
      const [message] = await saved([{ message: '  Padded  ', severity: 'info', action_text: ' ', action_url: '' }]);
      expect(message).toMatchObject({ message: 'Padded', action_text: null, action_url: null });
    });

    describe('HTML is sanitised before it is stored', () => {
      it.each([
        ['a script', '<script>alert(1)</script>Hello', 'Hello'],
        ['an image with onerror', '<img src=x onerror="alert(1)">Hello', 'Hello'],
        ['an event handler and a style', '<b onclick="alert(1)" style="color:red">Bold</b>', '<b>Bold</b>'],
        ['a javascript: link', '<a href="javascript:alert(1)">Link</a>', '<a target="_blank" rel="noopener noreferrer">Link</a>'],
        ['an iframe', '<iframe src="https://evil.example"></iframe>Text', 'Text'],
        ['an svg with onload', '<svg onload="alert(1)"><circle/></svg>Text', 'Text'],
      ])('removes %s', async (_label, html, expected) => {
        const [message] = await saved([{ message: html, severity: 'info' }]);
        expect(message!.message).toBe(expected);
        expectHarmless(message!.message);
        const [shown] = (await f.get('configs/status/')).json().value.messages;
        expect(shown.message).toBe(expected);
      });

      it('keeps formatting and http(s) links, opening them in a new tab', async () => {
        const [message] = await saved([
          { message: '<p>See <a href="https://example.org">the <em>page</em></a><br></p>', severity: 'info' },
        ]);
        expect(message!.message).toBe(
          '<p>See <a href="https://example.org" target="_blank" rel="noopener noreferrer">the <em>page</em></a><br /></p>',
        );
      });

      it.each([
        ['a lone script', '<script>alert(1)</script>'],
        ['a lone image with onerror', '<img src=x onerror=alert(1)>'],
      ])('keeps %s that sanitises to nothing as escaped, inert text', async (_label, html) => {
        const [message] = await saved([{ message: html, severity: 'info' }]);
        expect(message!.message).not.toBe('');
        expect(message!.message).not.toContain('<');
        expectHarmless(message!.message);
      });
    });

    it('records each save with the messages before and after, under no event', async () => {
      const previous = (await f.get('configs/status/', admin)).json().value.messages;
      const messages = await saved([{ message: 'Audited', severity: 'info' }]);
      expect(await f.lastAudit()).toMatchObject({
        action: 'config.status.update',
        entity: 'config:status',
        entityId: null,
        eventId: null,
        actorUserId: admin.id,
        before: { messages: previous },
        after: { messages },
      });
    });

    describe('validation (422 with detail locations; nothing stored or recorded)', () => {
      const valid = { message: 'Fine', severity: 'info' };

      it.each([
        ['no message (B-039)', { message: undefined }, 'message', 'Message is required.'],
        ['an empty message (B-039)', { message: '' }, 'message', 'Message is required.'],
        ['a message that is blank after trimming (B-040)', { message: ' \n\t ' }, 'message', 'Message is required.'],
        ['a message over 5000 characters', { message: 'm'.repeat(5001) }, 'message', 'Message is too long.'],
        ['an unknown severity (B-038)', { severity: 'danger' }, 'severity', 'Severity is invalid.'],
        ['no severity (B-038)', { severity: undefined }, 'severity', 'Severity is required.'],
        ['an action url that is not a URL (B-041)', { action_url: 'not a url' }, 'action_url', 'Please enter a valid URL.'],
        ['an action url without scheme (B-041)', { action_url: 'www.example.org' }, 'action_url', 'Please enter a valid URL.'],
        ['a javascript: action url (B-041)', { action_url: 'javascript:alert(1)' }, 'action_url', 'Please enter a valid URL.'],
        ['an ftp action url (B-041)', { action_url: 'ftp://example.org/x' }, 'action_url', 'Please enter a valid URL.'],
        ['is_active that is not a boolean', { is_active: 'yes' }, 'is_active', undefined],
        ['an action text over 100 characters', { action_text: 't'.repeat(101) }, 'action_text', 'Action text is too long.'],
      ])('refuses %s', async (_label, overrides, field, msg) => {
        await saved([{ message: 'Before', severity: 'info' }]);
        const before = { status: (await f.get('configs/status/', admin)).json(), audit: await f.auditCount() };
        const response = await save([valid, { ...valid, ...overrides }]);
        expect(response.statusCode).toBe(422);
        expect(json<Detail>(response).detail).toContainEqual(
          expect.objectContaining(detailAt(['body', 'record_update', 'messages', 1, field], msg)),
        );
        expect({ status: (await f.get('configs/status/', admin)).json(), audit: await f.auditCount() }).toEqual(before);
      });

      it('refuses more than 50 messages, a body without the list, and a list that is not a list', async () => {
        const audit = await f.auditCount();
        const tooMany = await save(Array.from({ length: 51 }, () => valid));
        expect(tooMany.statusCode).toBe(422);
        expect(json<Detail>(tooMany).detail).toContainEqual(expect.objectContaining(detailAt(['body', 'record_update', 'messages'])));
        const noList = await f.put('configs/status/', admin, { record_update: {} });
        expect(json<Detail>(noList).detail).toContainEqual(expect.objectContaining(detailAt(['body', 'record_update', 'messages'])));
        const noRecord = await f.put('configs/status/', admin, { messages: [valid] });
        expect(json<Detail>(noRecord).detail).toContainEqual(expect.objectContaining(detailAt(['body', 'record_update'])));
        expect(await f.auditCount()).toBe(audit);
      });
    });

    it('answers 401 anonymous and 403 non-admin, and changes nothing', async () => {
      await saved([{ message: 'Stays', severity: 'info' }]);
      const before = { status: (await f.get('configs/status/', admin)).json(), audit: await f.auditCount() };
      expect(
        (await f.put('configs/status/', undefined, { record_update: { messages: [{ message: 'Hijack', severity: 'info' }] } })).statusCode,
      ).toBe(401);
      const forbidden = await save([{ message: 'Hijack', severity: 'info' }], user);
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json()).toEqual(FORBIDDEN);
      expect({ status: (await f.get('configs/status/', admin)).json(), audit: await f.auditCount() }).toEqual(before);
    });
  });

  describe('GET configs/status/ (B-042)', () => {
    it('shows anonymous visitors and non-admins only the active messages, and an admin every message (B-015)', async () => {
      const messages = await saved([
        { message: 'Visible', severity: 'info', is_active: true },
        { message: 'Hidden', severity: 'warning', is_active: false },
        { message: 'Also visible', severity: 'critical' },
      ]);
      const active = messages.filter((m) => m.is_active);
      for (const who of [undefined, user]) {
        const response = await f.get('configs/status/', who);
        expect(response.statusCode).toBe(200);
        expect(response.json().value.messages).toEqual(active);
      }
      expect(active.map((m) => m.message)).toEqual(['Visible', 'Also visible']);
      expect((await f.get('configs/status/', admin)).json().value.messages).toEqual(messages);
    });

    // A forged or stale token was answered the visitor's view, which a signed-in web app then kept as its own.
    it('refuses a caller with a forged token with 401, and shows it nothing of the inactive messages', async () => {
      await saved([
        { message: 'On', severity: 'info' },
        { message: 'Off', severity: 'info', is_active: false },
      ]);
      const response = await f.get('configs/status/', { auth: { authorization: 'Bearer not-a-token' } });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: 'Your session has expired. Please log in again.' });
      expect((await f.get('configs/status/')).json().value.messages.map((m: StatusMessage) => m.message)).toEqual(['On']);
    });
  });

  it('lists status changes in the unfiltered audit log only, not under an event', async () => {
    const event = await f.newEvent(admin);
    await saved([{ message: 'Global', severity: 'info' }]);
    const all = (await f.get('admin/audit/', admin)).json();
    expect(all.data[0]).toMatchObject({ action: 'config.status.update', entity: 'config:status', entity_id: null });
    const forEvent = (await f.get(`admin/audit/?event_id=${event.row_id}`, admin)).json();
    expect(forEvent.data.map((entry: { action: string }) => entry.action)).toEqual(['event.create']);
  });
});
