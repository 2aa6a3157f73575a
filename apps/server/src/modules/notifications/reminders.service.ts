import { DEFAULT_REMINDERS_CONFIG, type RemindersConfig } from '@cr/contract/notifications';
import { mergeReviewsConfig, type ReviewsConfigValue } from '@cr/contract/events';
import type { Db } from '../../db/client';
import { allConfigs, findConfig } from '../../db/config-records';
import { requireEvent } from '../events/events.service';
import * as repo from './notifications.repository';

const HOUR = 3_600_000;
export const WINDOWS = ['review', 'moderation'] as const;
type Window = (typeof WINDOWS)[number];

/** What one call recorded: a reminder sent (with how many mails it queued) or skipped. */
export interface ReminderOutcome {
  eventId: number;
  window: Window;
  hoursBefore: number;
  windowEnd: string;
  status: 'sent' | 'skipped';
  queued: number;
}

/**
 * Which reminders of one window are due at `now`, and what becomes of each (pure): none before the first is due; once
 * the window has closed every one is skipped (it would remind of nothing); otherwise the latest due one is sent and
 * the earlier due ones are skipped, so a server back after downtime sends one reminder, not a flood.
 */
export function dueReminders(windowEnd: Date, hoursBefore: number[], now: Date): { hoursBefore: number; status: 'sent' | 'skipped' }[] {
  const end = windowEnd.getTime();
  const due = [...new Set(hoursBefore)].filter((hours) => end - hours * HOUR <= now.getTime()).sort((a, b) => b - a);
  if (due.length === 0) return [];
  if (now.getTime() >= end) return due.map((hours) => ({ hoursBefore: hours, status: 'skipped' }));
  return due.map((hours, index) => ({ hoursBefore: hours, status: index === due.length - 1 ? 'sent' : 'skipped' }));
}

/**
 * Deadline reminders (issue 27 item 3): due times, not cron lines. `runDueReminders(now)` looks at every event whose
 * reminders are on, and for each due (event, window, hours before, window end) records a `reminder_runs` row; only
 * the instance whose insert succeeds goes on (the primary key makes each fire once across instances), and it queues
 * in the same transaction, by one INSERT … SELECT, one mail per person with unfinished work. The scheduler calls it
 * every minute.
 */
export function createRemindersService(deps: { db: Db; onQueued?: () => void; log?: { error(details: object, message: string): void } }) {
  const { db } = deps;

  async function runWindow(eventId: number, eventName: string, window: Window, windowEnd: string, config: RemindersConfig, now: Date) {
    const outcomes: ReminderOutcome[] = [];
    const end = new Date(windowEnd);
    for (const reminder of dueReminders(end, config.hours_before, now)) {
      const key = { eventId, window, hoursBefore: reminder.hoursBefore, windowEnd: end };
      if (reminder.status === 'skipped') {
        if (await repo.claimReminder(db, key, 'skipped')) outcomes.push({ ...key, windowEnd, status: 'skipped', queued: 0 });
        continue;
      }
      const queued = await db.transaction(async (tx) => {
        if (!(await repo.claimReminder(tx, key, 'sent'))) return null;
        const context = { eventId, eventName, windowEnd, hoursBefore: reminder.hoursBefore };
        const count = window === 'review' ? await repo.queueReviewReminders(tx, context) : await repo.queueModerationReminders(tx, context);
        await repo.setReminderQueued(tx, key, count);
        return count;
      });
      if (queued !== null) outcomes.push({ ...key, windowEnd, status: 'sent', queued });
    }
    return outcomes;
  }

  async function runEvent(eventId: number, config: RemindersConfig, now: Date): Promise<ReminderOutcome[]> {
    const outcomes: ReminderOutcome[] = [];
    const event = await requireEvent(db, eventId);
    if (!event.active) return outcomes;
    const reviews = mergeReviewsConfig(((await findConfig(db, 'reviews', event.id))?.value as ReviewsConfigValue | undefined) ?? {});
    for (const window of WINDOWS) {
      if (!config[`${window}_reminders_enabled`] || reviews[`${window}_submission_enabled`] !== true) continue;
      const windowEnd = reviews[`${window}_submission_ends_at`];
      if (typeof windowEnd !== 'string' || Number.isNaN(Date.parse(windowEnd))) continue;
      outcomes.push(...(await runWindow(event.id, event.name, window, windowEnd, config, now)));
    }
    return outcomes;
  }

  async function runDueReminders(now: Date = new Date()): Promise<ReminderOutcome[]> {
    const outcomes: ReminderOutcome[] = [];
    for (const record of await allConfigs(db, 'notifications')) {
      if (record.eventId === null) continue;
      const config = { ...DEFAULT_REMINDERS_CONFIG, ...(record.value as Partial<RemindersConfig>) };
      if (!config.review_reminders_enabled && !config.moderation_reminders_enabled) continue;
      try {
        outcomes.push(...(await runEvent(record.eventId, config, now)));
      } catch (error) {
        // One event's failure (its transaction rolled back: it is tried again next time) does not hold up the others.
        if (!deps.log) throw error;
        deps.log.error({ err: error, eventId: record.eventId }, 'reminders of an event failed');
      }
    }
    if (outcomes.some((outcome) => outcome.queued > 0)) deps.onQueued?.();
    return outcomes;
  }

  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;

  return {
    runDueReminders,
    /** Checks for due reminders every `intervalMs` (a tick still running is not started twice). */
    start(intervalMs = 60_000) {
      if (timer) return;
      timer = setInterval(() => {
        if (running) return;
        running = runDueReminders(new Date())
          .catch((error: unknown) => deps.log?.error({ err: error }, 'reminders failed'))
          .finally(() => {
            running = null;
          });
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
export type RemindersService = ReturnType<typeof createRemindersService>;
