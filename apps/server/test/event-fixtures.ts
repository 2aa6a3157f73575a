import { count, desc, eq } from 'drizzle-orm';
import type { EventPublic } from '@cr/contract/events';
import { auditLog, configs, events } from '../src/db/schema/index';
import { API, type TestContext } from './build-test-app';
import { uniqueName } from './fixtures';

export type Detail = { detail: { loc: (string | number)[]; msg: string; type: string }[] };
type Auth = { auth: { authorization: string } };

/** Event, config and audit helpers for the events-module tests (each test stays a few lines). */
export function eventFixtures(ctx: TestContext) {
  const headersOf = (user?: Auth) => (user ? user.auth : {});

  const postEvent = (user: Auth | undefined, newEvent: unknown) =>
    ctx.app.inject({ method: 'POST', url: `${API}/events/`, headers: headersOf(user), payload: { new_event: newEvent } });

  const putEvent = (user: Auth | undefined, rowId: number | string, eventUpdate: unknown) =>
    ctx.app.inject({ method: 'PUT', url: `${API}/events/${rowId}/`, headers: headersOf(user), payload: { event_update: eventUpdate } });

  const eventBody = (overrides: Record<string, unknown> = {}) => ({
    name: uniqueName('Fund'),
    description: 'A funding round.',
    ...overrides,
  });

  /** Creates an event through the API (as the given admin) and answers it. */
  const newEvent = async (admin: Auth, overrides: Record<string, unknown> = {}): Promise<EventPublic> => {
    const response = await postEvent(admin, eventBody(overrides));
    if (response.statusCode !== 201) throw new Error(`create event failed: ${response.statusCode} ${response.body}`);
    return response.json();
  };

  const get = (url: string, user?: Auth) => ctx.app.inject({ method: 'GET', url: `${API}/${url}`, headers: headersOf(user) });
  const put = (url: string, user: Auth | undefined, payload: object) =>
    ctx.app.inject({ method: 'PUT', url: `${API}/${url}`, headers: headersOf(user), payload });

  const auditCount = async () => (await ctx.db.select({ n: count() }).from(auditLog))[0]!.n;
  const auditOf = (eventId: number) => ctx.db.select().from(auditLog).where(eq(auditLog.eventId, eventId)).orderBy(desc(auditLog.id));
  const lastAudit = async () => (await ctx.db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(1))[0];
  const eventRow = async (id: number) => (await ctx.db.select().from(events).where(eq(events.id, id)))[0];
  const eventCount = async () => (await ctx.db.select({ n: count() }).from(events))[0]!.n;
  const configRows = () => ctx.db.select().from(configs).orderBy(configs.id);

  return { postEvent, putEvent, eventBody, newEvent, get, put, auditCount, auditOf, lastAudit, eventRow, eventCount, configRows };
}

/** A shape check for the 422 body: the detail list holds an item at this location (and message, when given). */
export const detailAt = (loc: (string | number)[], msg?: string) => (msg === undefined ? { loc } : { loc, msg });
