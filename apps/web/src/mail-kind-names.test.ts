import { LANGUAGES } from '@cr/contract/languages';
import { ACCOUNT_MAIL_KINDS, MAIL_KINDS } from '@cr/contract/mail';
import { NOTIFICATION_KINDS } from '@cr/contract/notifications';
import { describe, expect, it } from 'vitest';
import enUS from './locales/en-US.admin.json';
import es from './locales/es.admin.json';
import ja from './locales/ja.admin.json';

/**
 * Issue 45 item 4: the Mail queue screen (app/routes/admin/mail-queue.tsx, `mailQueue.kinds.<kind>`) showed the
 * notification kinds as raw ids (`review_reminder`, `lv2_invitation`) beside "Account activation". Every kind the
 * server queues has a name for people, in every language.
 */
const names: Record<string, { mailQueue: { kinds: Record<string, string | undefined> } }> = { 'en-US': enUS, es, ja };

describe('mail kinds have names for people (issue 45 item 4)', () => {
  it('the kinds are every account mail and every notification', () => {
    expect([...MAIL_KINDS].sort()).toEqual([...ACCOUNT_MAIL_KINDS, ...NOTIFICATION_KINDS].sort());
    expect(MAIL_KINDS).toContain('review_reminder');
    expect(MAIL_KINDS).toContain('activation');
    expect(Object.keys(names).sort()).toEqual([...LANGUAGES].sort());
  });

  for (const language of LANGUAGES) {
    it(`${language}: a name for each kind, not its id`, () => {
      const kinds = names[language]!.mailQueue.kinds;
      const unnamed = MAIL_KINDS.filter((kind) => {
        const name = kinds[kind]?.trim();
        return !name || name === kind;
      });
      expect(unnamed).toEqual([]);
      // Two kinds never share a name: the queue's rows would read alike.
      expect(new Set(MAIL_KINDS.map((kind) => kinds[kind])).size).toBe(MAIL_KINDS.length);
    });
  }
});
