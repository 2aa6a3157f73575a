import { eventsOrConfigsChanged } from '../../db/read-cache';
import {
  DEFAULT_LEVEL_QUALIFIER,
  DEFAULT_REVIEWS_CONFIG,
  mergeReviewsConfig,
  switchActive,
  windowsEndingBeforeStart,
  type AllocationConfig,
  type LevelQualifiers,
  type ReviewsConfig,
  type ReviewsConfigValue,
  type SwitchName,
} from '@cr/contract/events';
import { DEFAULT_APPEALS_CONFIG, type AppealsConfig } from '@cr/contract/appeals';
import { DEFAULT_REMINDERS_CONFIG, type RemindersConfig } from '@cr/contract/notifications';
import { messages } from '@cr/contract/rules';
import type { Db, DbOrTx } from '../../db/client';
import * as records from '../../db/config-records';
import type { ConfigKind } from '../../db/schema/index';
import { validationFailure } from '../../errors';
import { readRunFlags } from '../runs/runs.service';
import { recordAudit } from '../system/audit.service';
import * as repo from './events.repository';
import { requireEvent } from './events.service';

const configRecord = <T>(row: { id: number } | undefined, kind: ConfigKind, eventId: number, value: T) => ({
  row_id: row?.id ?? 0,
  id: kind,
  id2: String(eventId),
  // The reference API's other names for the same two (`AllocationGenerationPublic`, issue 17).
  config_type: kind,
  event: String(eventId),
  value,
});

async function reviewsConfigValue(tx: DbOrTx, eventId: number): Promise<{ row: { id: number } | undefined; value: ReviewsConfig }> {
  const row = await records.findConfig(tx, 'reviews', eventId);
  return { row, value: mergeReviewsConfig((row?.value as ReviewsConfigValue | undefined) ?? {}) };
}

/** An event's stored appeal settings with the defaults where none is stored. */
export const appealsConfigValue = (value: unknown): AppealsConfig => ({
  ...DEFAULT_APPEALS_CONFIG,
  ...((value as Partial<AppealsConfig> | null | undefined) ?? {}),
});

/**
 * Per-event configuration (spec §7 "Configs"): the reviews configuration (switches and their windows), the level
 * qualifiers, the allocation flags (written by the admin runs, modules/runs), and what follows from them (whether
 * a switch counts now, whether registration is open). Every admin change is audited.
 */
export function createEventConfigService(db: Db) {
  /**
   * Replaces a configuration record of an event inside a transaction, with its audit entry. `value` may be a function
   * of the stored value, read under the record's lock.
   */
  async function putConfig<T>(actorUserId: number, kind: ConfigKind, eventId: number, next: T | ((before: T) => T), defaults: T) {
    const saved = await db.transaction(async (tx) => {
      await requireEvent(tx, eventId);
      const before = await records.lockConfig(tx, kind, eventId, defaults);
      const value = typeof next === 'function' ? (next as (before: T) => T)(before.value as T) : next;
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
    // Again once committed: a read between the write and the commit may have kept the old record (db/read-cache).
    eventsOrConfigsChanged();
    return saved;
  }

  return {
    async reviewsConfig(eventId: number) {
      await requireEvent(db, eventId);
      const { row, value } = await reviewsConfigValue(db, eventId);
      return configRecord(row, 'reviews', eventId, value);
    },

    /**
     * A save changes the settings it sends and keeps the others as stored (defaults where none is): a partial save
     * never resets a switch (issue 13 item 12); a `null` clears a window, which is then left out of the record. A
     * window whose end the merge puts before its start is refused.
     */
    putReviewsConfig(actorUserId: number, eventId: number, value: ReviewsConfigValue) {
      const merge = (before: ReviewsConfig) => {
        const merged = mergeReviewsConfig(before, value);
        const inverted = windowsEndingBeforeStart(merged);
        if (inverted.length > 0)
          throw validationFailure(
            inverted.map((name) => ['body', 'record_update', name]),
            messages.endAfterStart,
          );
        return merged;
      };
      return putConfig<ReviewsConfig>(actorUserId, 'reviews', eventId, merge, DEFAULT_REVIEWS_CONFIG);
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

    /** The event's deadline reminders (issue 27): off unless an admin turns them on. */
    async remindersConfig(eventId: number) {
      await requireEvent(db, eventId);
      const row = await records.findConfig(db, 'notifications', eventId);
      const value: RemindersConfig = { ...DEFAULT_REMINDERS_CONFIG, ...((row?.value as Partial<RemindersConfig> | undefined) ?? {}) };
      return configRecord(row, 'notifications', eventId, value);
    },

    putRemindersConfig(actorUserId: number, eventId: number, value: RemindersConfig) {
      return putConfig<RemindersConfig>(actorUserId, 'notifications', eventId, value, DEFAULT_REMINDERS_CONFIG);
    },

    /** The event's appeals (issue 28 item 2): off unless an admin turns them on. */
    async appealsConfig(eventId: number) {
      await requireEvent(db, eventId);
      const row = await records.findConfig(db, 'appeals', eventId);
      return configRecord(row, 'appeals', eventId, appealsConfigValue(row?.value));
    },

    putAppealsConfig(actorUserId: number, eventId: number, value: AppealsConfig) {
      return putConfig<AppealsConfig>(actorUserId, 'appeals', eventId, value, DEFAULT_APPEALS_CONFIG);
    },

    async allocationConfig(eventId: number) {
      await requireEvent(db, eventId);
      const { row, value } = await readRunFlags(db, eventId);
      return configRecord(row, 'allocations', eventId, value as AllocationConfig);
    },

    /** Ids of the events whose reviews config satisfies a rule now (e.g. reviews visible to everyone). */
    async eventIdsWhere(rule: (config: ReviewsConfigValue) => boolean) {
      const rows = await records.cachedAllConfigs(db, 'reviews');
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
  };
}
export type EventConfigService = ReturnType<typeof createEventConfigService>;
