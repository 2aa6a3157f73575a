import { describe, expect, it } from 'vitest';
import { NOTIFICATION_KINDS, notificationPreferencesUpdate, remindersConfig } from '../src/notifications';

// Issue 27: the rules the profile's switches and General Configuration's reminder settings share with the server.
describe('notification preferences', () => {
  it('takes any of the kinds, at least one, and nothing else', () => {
    expect(notificationPreferencesUpdate.safeParse({ review_reminder: false }).success).toBe(true);
    expect(notificationPreferencesUpdate.safeParse(Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, true]))).success).toBe(true);
    expect(notificationPreferencesUpdate.safeParse({}).success).toBe(false);
    expect(notificationPreferencesUpdate.safeParse({ password_reset: false }).success).toBe(false);
    expect(notificationPreferencesUpdate.safeParse({ review_reminder: 'false' }).success).toBe(false);
  });
});

describe('reminder settings', () => {
  const valid = { review_reminders_enabled: true, moderation_reminders_enabled: false, hours_before: [72, 24] };
  it.each([
    [[72, 24], true],
    [[1], true],
    [[720, 1, 2, 3], true],
    [[], false],
    [[0], false],
    [[721], false],
    [[24, 24], false],
    [[1, 2, 3, 4, 5], false],
    [[2.5], false],
  ])('hours %j → %s', (hours, ok) => expect(remindersConfig.safeParse({ ...valid, hours_before: hours }).success).toBe(ok));
});
