import type { EventInput } from '@cr/contract/events';
import type { Db, DbOrTx } from '../../db/client';
import { lockNotAvailable, uniqueViolation } from '../../db/errors';
import { cachedRead, eventsOrConfigsChanged } from '../../db/read-cache';
import { conflict, notFound } from '../../errors';
import { runMessages } from '../runs/runs.service';
import { recordAudit } from '../system/audit.service';
import * as repo from './events.repository';

export const eventMessages = {
  nameTaken: 'An event with this name already exists.',
  eventNotFound: 'This event does not exist.',
};

/** An event's row, or 404; `forUpdate` locks it (and orders concurrent edits of one event). */
export async function requireEvent(tx: DbOrTx, eventId: number, forUpdate = false) {
  const event = await repo.findEvent(tx, eventId, { forUpdate });
  if (!event) throw notFound(eventMessages.eventNotFound);
  return event;
}

const toDate = (value: string | null | undefined) => (value ? new Date(value) : null);

/**
 * Events and their categories (spec §7 "Events", "Categories"); every admin change is audited. An event's
 * configuration is in event-config.service.ts, the site-wide status messages in modules/system.
 */
export function createEventsService(db: Db) {
  async function saveEvent(actorUserId: number, input: EventInput, eventId?: number) {
    const values = {
      name: input.name.trim(),
      description: input.description.trim(),
      active: input.active ?? false,
      startTime: toDate(input.start_time),
      endTime: toDate(input.end_time),
    };
    try {
      const saved = await db.transaction(async (tx) => {
        // An unknown event is 404 whatever its new name; the lock also orders concurrent edits of one event.
        const before = eventId === undefined ? null : await requireEvent(tx, eventId, true);
        const sameName = await repo.findEventByName(tx, values.name);
        if (sameName && sameName.id !== eventId) throw conflict(eventMessages.nameTaken);
        const row = eventId === undefined ? await repo.insertEvent(tx, values) : (await repo.updateEvent(tx, eventId, values))!;
        await recordAudit(tx, {
          actorUserId,
          action: eventId === undefined ? 'event.create' : 'event.update',
          entity: 'event',
          entityId: String(row.id),
          eventId: row.id,
          before: before && repo.toEventPublic(before),
          after: repo.toEventPublic(row),
        });
        return repo.toEventPublic(row);
      });
      // Again once committed: a read between the write and the commit may have kept the old rows.
      eventsOrConfigsChanged();
      return saved;
    } catch (error) {
      if (uniqueViolation(error) === 'events_name_key') throw conflict(eventMessages.nameTaken);
      throw error;
    }
  }

  return {
    // The public reads of events and categories change only by an admin's edit or an import: kept in process for
    // the read cache's short TTL and dropped on every change (db/read-cache), so that each costs no SQL at all.
    list: (page: { size: number; page: number }) =>
      cachedRead(db, `events:list:${page.size}:${page.page}`, async () => {
        const { rows, total } = await repo.listEvents(db, page);
        return { data: rows.map(repo.toEventPublic), page: { total, size: page.size, page: page.page } };
      }),

    /** The current events: the active ones (spec §7 `events/current/`). */
    current: () => cachedRead(db, 'events:current', async () => (await repo.listActiveEvents(db)).map(repo.toEventPublic)),

    get: (eventId: number) => cachedRead(db, `events:one:${eventId}`, async () => repo.toEventPublic(await requireEvent(db, eventId))),

    /** The event as stored now, past the read cache: what an admin's change starts from. */
    fresh: async (eventId: number) => repo.toEventPublic(await requireEvent(db, eventId)),

    create: (actorUserId: number, input: EventInput) => saveEvent(actorUserId, input),
    update: (actorUserId: number, eventId: number, input: EventInput) => saveEvent(actorUserId, input, eventId),

    /**
     * Locks an event's row for a run that must not overlap another one on the same event: a second run gets 409 at
     * once (DOMAIN.md), while reviews and subscriptions referencing the event go on being written. 404 when unknown.
     */
    async lockEvent(tx: DbOrTx, eventId: number) {
      let row;
      try {
        row = await repo.lockEventNoWait(tx, eventId);
      } catch (error) {
        if (lockNotAvailable(error)) throw conflict(runMessages.runInProgress);
        throw error;
      }
      if (!row) throw notFound(eventMessages.eventNotFound);
      return repo.toEventPublic(row);
    },

    categoriesOf: (tx: DbOrTx, eventId: number) => repo.listCategories(tx, eventId),

    /** Finds or creates an event's categories by title (the proposal import). */
    ensureCategories: (tx: DbOrTx, eventId: number, items: { title: string; externalId?: string | null }[]) =>
      repo.ensureCategories(tx, eventId, items),

    categories: (eventId?: number) =>
      cachedRead(db, `categories:${eventId ?? 'all'}`, async () =>
        (await repo.listCategories(db, eventId)).map((row) => ({
          id: row.id,
          title: row.title,
          description: row.description,
          event_id: row.eventId,
          row_id: row.id,
          event: row.eventId,
          document_id: row.externalId,
        })),
      ),
  };
}
export type EventsService = ReturnType<typeof createEventsService>;
