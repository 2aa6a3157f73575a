import sanitizeHtml from 'sanitize-html';
import {
  DEFAULT_LEVEL_QUALIFIER,
  DEFAULT_REVIEWS_CONFIG,
  switchActive,
  type AllocationConfig,
  type EventInput,
  type LevelQualifiers,
  type ReviewsConfigValue,
  type StatusMessage,
  type StatusMessageInput,
  type SwitchName,
} from '@cr/contract/events';
import type { Db, DbOrTx } from '../../db/client';
import { uniqueViolation } from '../../db/errors';
import type { ConfigKind } from '../../db/schema/index';
import { conflict, notFound } from '../../errors';
import { lockNotAvailable } from '../../db/errors';
import { recordAudit } from '../system/audit.service';
import * as records from '../../db/config-records';
import { readRunFlags, runMessages } from '../runs/runs.service';
import * as repo from './events.repository';

export const eventMessages = {
  nameTaken: 'An event with this name already exists.',
  eventNotFound: 'This event does not exist.',
};

/** Status-message HTML keeps formatting and links, never scripts, handlers or styles (spec §3: HTML allowed). */
export function sanitizeMessageHtml(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: ['a', 'b', 'strong', 'i', 'em', 'u', 's', 'br', 'p', 'span', 'code', 'ul', 'ol', 'li'],
    allowedAttributes: { a: ['href', 'title', 'target', 'rel'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    transformTags: { a: sanitizeHtml.simpleTransform('a', { target: '_blank', rel: 'noopener noreferrer' }) },
  }).trim();
}

const toDate = (value: string | null | undefined) => (value ? new Date(value) : null);

/** Events, their configuration records, status messages and categories; every admin change is audited. */
export function createEventsService(db: Db) {
  async function requireEvent(tx: DbOrTx, eventId: number, forUpdate = false) {
    const event = await repo.findEvent(tx, eventId, { forUpdate });
    if (!event) throw notFound(eventMessages.eventNotFound);
    return event;
  }

  const configRecord = <T>(row: { id: number } | undefined, kind: ConfigKind, eventId: number, value: T) => ({
    row_id: row?.id ?? 0,
    id: kind,
    id2: String(eventId),
    value,
  });

  async function saveEvent(actorUserId: number, input: EventInput, eventId?: number) {
    const values = {
      name: input.name.trim(),
      description: input.description.trim(),
      active: input.active ?? false,
      startTime: toDate(input.start_time),
      endTime: toDate(input.end_time),
    };
    try {
      return await db.transaction(async (tx) => {
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
    } catch (error) {
      if (uniqueViolation(error) === 'events_name_key') throw conflict(eventMessages.nameTaken);
      throw error;
    }
  }

  async function reviewsConfigValue(tx: DbOrTx, eventId: number): Promise<{ row: { id: number } | undefined; value: ReviewsConfigValue }> {
    const row = await records.findConfig(tx, 'reviews', eventId);
    return { row, value: { ...DEFAULT_REVIEWS_CONFIG, ...((row?.value as ReviewsConfigValue | undefined) ?? {}) } };
  }

  /** Replaces a configuration record of an event inside a transaction, with its audit entry. */
  async function putConfig<T>(actorUserId: number, kind: ConfigKind, eventId: number, value: T, defaults: T) {
    return db.transaction(async (tx) => {
      await requireEvent(tx, eventId);
      const before = await records.lockConfig(tx, kind, eventId, defaults);
      const row = await records.updateConfig(tx, before.id, value);
      await recordAudit(tx, {
        actorUserId,
        action: `config.${kind}.update`,
        entity: `config:${kind}`,
        entityId: String(eventId),
        eventId,
        before: before.value,
        after: value,
      });
      return configRecord(row, kind, eventId, value);
    });
  }

  return {
    async list(page: { size: number; page: number }) {
      const { rows, total } = await repo.listEvents(db, page);
      return { data: rows.map(repo.toEventPublic), page: { total, size: page.size, page: page.page } };
    },

    /** The current events: the active ones (spec §7 `events/current/`). */
    async current() {
      return (await repo.listActiveEvents(db)).map(repo.toEventPublic);
    },

    async get(eventId: number) {
      return repo.toEventPublic(await requireEvent(db, eventId));
    },

    create: (actorUserId: number, input: EventInput) => saveEvent(actorUserId, input),
    update: (actorUserId: number, eventId: number, input: EventInput) => saveEvent(actorUserId, input, eventId),

    async reviewsConfig(eventId: number) {
      await requireEvent(db, eventId);
      const { row, value } = await reviewsConfigValue(db, eventId);
      return configRecord(row, 'reviews', eventId, value);
    },

    /** The stored map keeps every known setting (defaults where the admin sent none) and any extra text setting. */
    putReviewsConfig(actorUserId: number, eventId: number, value: ReviewsConfigValue) {
      return putConfig(actorUserId, 'reviews', eventId, { ...DEFAULT_REVIEWS_CONFIG, ...value }, DEFAULT_REVIEWS_CONFIG);
    },

    async levelQualifiers(eventId: number) {
      await requireEvent(db, eventId);
      const row = await records.findConfig(db, 'reviews-level-qualifiers', eventId);
      const value = (row?.value as LevelQualifiers | undefined) ?? { lv1: DEFAULT_LEVEL_QUALIFIER, lv2: DEFAULT_LEVEL_QUALIFIER };
      return configRecord(row, 'reviews-level-qualifiers', eventId, value);
    },

    putLevelQualifiers(actorUserId: number, eventId: number, value: LevelQualifiers) {
      return putConfig(actorUserId, 'reviews-level-qualifiers', eventId, value, {
        lv1: DEFAULT_LEVEL_QUALIFIER,
        lv2: DEFAULT_LEVEL_QUALIFIER,
      });
    },

    async allocationConfig(eventId: number) {
      await requireEvent(db, eventId);
      const { row, value } = await readRunFlags(db, eventId);
      return configRecord(row, 'allocations', eventId, value as AllocationConfig);
    },

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

    /** Ids of the events whose reviews config satisfies a rule now (e.g. reviews visible to everyone). */
    async eventIdsWhere(rule: (config: ReviewsConfigValue) => boolean) {
      const rows = await records.allConfigs(db, 'reviews');
      return rows
        .filter((row) => row.eventId !== null && rule({ ...DEFAULT_REVIEWS_CONFIG, ...(row.value as ReviewsConfigValue) }))
        .map((row) => row.eventId!);
    },

    /** Whether a switch of an event counts now (on, and inside its window where one is set). */
    async switchActive(eventId: number, name: SwitchName, now = new Date(), tx: DbOrTx = db) {
      const { value } = await reviewsConfigValue(tx, eventId);
      return switchActive(value, name, now);
    },

    /**
     * Registration is open unless there are current events and none of them has user registration enabled (an
     * operator can close sign-ups during a round; with no round running anyone may register).
     */
    async registrationOpen(now = new Date()) {
      const current = await repo.listActiveEvents(db);
      if (current.length === 0) return true;
      const rows = await records.findConfigs(
        db,
        'reviews',
        current.map((event) => event.id),
      );
      const byEvent = new Map(rows.map((row) => [row.eventId, row.value as ReviewsConfigValue]));
      return current.some((event) =>
        switchActive({ ...DEFAULT_REVIEWS_CONFIG, ...(byEvent.get(event.id) ?? {}) }, 'user_registration_enabled', now),
      );
    },

    async status(options: { activeOnly?: boolean } = {}) {
      const row = await records.findConfig(db, 'status', null);
      const messages = ((row?.value as { messages?: StatusMessage[] } | undefined)?.messages ?? []).filter(
        (message) => !options.activeOnly || message.is_active,
      );
      return { row_id: row?.id ?? 0, id: 'status', value: { messages } };
    },

    /** Replaces the list of status messages; new ones get the next row ids, HTML is sanitised before it is stored. */
    async putStatus(actorUserId: number, input: StatusMessageInput[]) {
      return db.transaction(async (tx) => {
        const before = await records.lockConfig(tx, 'status', null, { messages: [] });
        const previous = (before.value as { messages?: StatusMessage[] }).messages ?? [];
        let next = Math.max(0, ...previous.map((message) => message.row_id)) + 1;
        const used = new Set<number>();
        const messages: StatusMessage[] = input.map((message) => {
          const keep = message.row_id !== undefined && previous.some((old) => old.row_id === message.row_id) && !used.has(message.row_id);
          const rowId = keep ? message.row_id! : next++;
          used.add(rowId);
          return {
            row_id: rowId,
            // Markup that sanitises to nothing (a lone script) is kept as visible, harmless text.
            message:
              sanitizeMessageHtml(message.message) || sanitizeHtml(message.message, { allowedTags: [], disallowedTagsMode: 'escape' }),
            severity: message.severity,
            is_active: message.is_active ?? true,
            action_text: message.action_text ?? null,
            action_url: message.action_url ?? null,
          };
        });
        const row = await records.updateConfig(tx, before.id, { messages });
        await recordAudit(tx, {
          actorUserId,
          action: 'config.status.update',
          entity: 'config:status',
          entityId: null,
          eventId: null,
          before: { messages: previous },
          after: { messages },
        });
        return { row_id: row.id, id: 'status', value: { messages } };
      });
    },

    async categories(eventId?: number) {
      const rows = await repo.listCategories(db, eventId);
      return rows.map((row) => ({ id: row.id, title: row.title, description: row.description, event_id: row.eventId }));
    },
  };
}
export type EventsService = ReturnType<typeof createEventsService>;
