import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '@cr/contract/languages';
import { NOTIFICATION_KINDS } from '@cr/contract/notifications';
import { mailTemplates } from '../src/adapters/mail';
import { MAIL_STRINGS } from '../src/mail-strings/index';
import { formatUtc, renderNotification } from '../src/modules/notifications/templates';

const links = {
  public_url: 'https://review.example.org',
  unsubscribe_url: 'https://review.example.org/unsubscribe?token=abc.def',
  one_click_url: 'https://review.example.org/api/reviews/notifications/unsubscribe?token=abc.def',
};

/** Parameters that reach every branch of every template: a window end, counts of one and more, reasons. */
const PARAMS: Record<string, unknown>[] = [
  {},
  {
    event_name: 'Fund <15> & "co"',
    count: 1,
    done: 0,
    total: 1,
    window_end: '2030-01-04T18:00:00Z',
    submitted: 1,
    valid: 0,
    excluded_moderation: 1,
    excluded_threshold: 1,
    reasons: { similarity: 1, other: 2 },
  },
  {
    event_name: 'Fund 15',
    count: 5,
    done: 2,
    total: 9,
    window_end: '2030-01-04T18:00:00Z',
    submitted: 5,
    valid: 2,
    excluded_moderation: 2,
    excluded_threshold: 3,
    reasons: { profanity: 1, not_own_opinion: 1 },
  },
];

// Issue 31: the mails in every language, from the typed catalogs of src/mail-strings.
describe('mails in every language', () => {
  it('renders every notification kind in every language: no placeholder left, the HTML escaped', () => {
    for (const language of LANGUAGES) {
      for (const kind of NOTIFICATION_KINDS) {
        for (const params of PARAMS) {
          const mail = renderNotification(kind, { ...params, ...links }, language);
          for (const part of [mail.subject, mail.text, mail.html]) {
            expect(part, `${language} ${kind}`).not.toContain('{{');
            expect(part).not.toContain('}}');
            expect(part).not.toContain('undefined');
            expect(part).not.toContain('NaN');
          }
          expect(mail.text).toContain(links.unsubscribe_url);
          expect(mail.html).not.toContain('<15>');
          expect(mail.headers!['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
        }
      }
    }
  });

  it('takes the words of the language: subjects from its catalog, its greeting, counted with its plural rules', () => {
    for (const language of ['es', 'ja'] as const) {
      const words = MAIL_STRINGS[language];
      const allocation = renderNotification('review_allocation', { event_name: 'F', count: 3, ...links }, language);
      expect(allocation.subject).toBe(
        words.notifications.review_allocation.subject.other.replace('{{count}}', '3').replace('{{event}}', 'F'),
      );
      expect(allocation.text.startsWith(`${words.hello}\n\n`)).toBe(true);
      expect(allocation.text).toContain(words.notifications.kindLabels.review_allocation);
    }
    const one = renderNotification('review_allocation', { event_name: 'F', count: 1, ...links }, 'es');
    expect(one.subject).toBe('1 propuesta para reseñar en F');
    expect(renderNotification('review_allocation', { event_name: 'F', count: 2, ...links }, 'es').subject).toBe(
      '2 propuestas para reseñar en F',
    );
    expect(renderNotification('moderation_allocation', { event_name: 'F', count: 2, ...links }, 'ja').subject).toBe(
      'Fでモデレーションするレビューが2件あります',
    );
    const outcomes = renderNotification(
      'review_outcomes',
      { event_name: 'F', submitted: 2, excluded_moderation: 1, reasons: { similarity: 1 }, ...links },
      'ja',
    );
    expect(outcomes.text).toContain('（モデレーターの理由：類似：1件）');
  });

  it('writes dates in UTC the language’s way', () => {
    expect(formatUtc('2026-12-04T23:30:00+02:00', 'en-US')).toBe('Friday 4 December 2026, 21:30 UTC');
    expect(formatUtc('2026-12-04T23:30:00+02:00', 'es')).toBe('viernes, 4 de diciembre de 2026, 21:30 UTC');
    expect(formatUtc('2026-12-04T23:30:00+02:00', 'ja')).toBe('2026年12月4日（金曜日）21:30 UTC');
    expect(formatUtc('nope', 'ja')).toBeNull();
  });

  it('writes the account mails in every language, escaped, with the link', () => {
    const link = 'http://app.test/x?token=a&b="c"';
    for (const language of LANGUAGES) {
      for (const template of [mailTemplates.activation, mailTemplates.emailVerification, mailTemplates.passwordReset]) {
        const mail = template('a@example.test', link, language);
        expect(mail.subject).toBe(MAIL_STRINGS[language].account[mail.kind as 'activation'].subject);
        expect(mail.text).toContain(link);
        expect(mail.html).toContain('href="http://app.test/x?token=a&amp;b=&quot;c&quot;"');
        for (const part of [mail.subject, mail.text, mail.html]) expect(part).not.toContain('{{');
      }
    }
    expect(mailTemplates.activation('a@example.test', link, 'ja').subject).toBe('Community Reviewのアカウントを有効化してください');
    expect(mailTemplates.passwordReset('a@example.test', link, 'es').subject).toBe('Restablecer la contraseña de Community Review');
  });
});
