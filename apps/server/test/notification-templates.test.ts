import { describe, expect, it } from 'vitest';
import { NOTIFICATION_KINDS } from '@cr/contract/notifications';
import { formatUtc, renderNotification } from '../src/modules/notifications/templates';

const links = {
  public_url: 'https://review.example.org',
  unsubscribe_url: 'https://review.example.org/unsubscribe?token=abc.def',
  one_click_url: 'https://review.example.org/api/reviews/notifications/unsubscribe?token=abc.def',
};

// Issue 27 item 1: the templates are pure functions of their parameters.
describe('notification templates', () => {
  it('renders every kind with text, HTML, its link and the RFC 8058 headers, whatever the parameters hold', () => {
    for (const kind of NOTIFICATION_KINDS) {
      for (const params of [{}, { event_name: 'Fund 15', count: 'x', done: null, total: -3, reasons: 'no' }]) {
        const mail = renderNotification(kind, { ...params, ...links });
        expect(mail.subject.length, kind).toBeGreaterThan(5);
        expect(mail.text).toContain('Hello,');
        expect(mail.text).toContain(links.unsubscribe_url);
        expect(mail.html).toContain('href="https://review.example.org/unsubscribe?token=abc.def"');
        expect(mail.link).toMatch(/^https:\/\/review\.example\.org\/(allocated-proposals|allocated-reviews|profile)$/);
        expect(mail.headers).toEqual({
          'List-Unsubscribe': `<${links.one_click_url}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        });
        expect(mail.text).not.toContain('NaN');
        expect(mail.text).not.toContain('undefined');
      }
    }
  });

  it('escapes every value in the HTML part and keeps it as written in the text part', () => {
    const name = `<script>alert("x")</script> & 'Fund'`;
    for (const kind of NOTIFICATION_KINDS) {
      const mail = renderNotification(kind, {
        event_name: name,
        count: 2,
        done: 1,
        total: 2,
        reasons: { '<b>': 1 },
        excluded_moderation: 1,
        ...links,
      });
      expect(mail.html, kind).not.toContain('<script>');
      expect(mail.html).not.toContain('<b>');
      expect(mail.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;Fund&#39;');
      expect(mail.text).toContain(name);
    }
  });

  it('counts in words: one proposal, two reviews; what is left of a reminder', () => {
    expect(renderNotification('review_allocation', { event_name: 'F', count: 1, ...links }).subject).toBe('1 proposal to review in F');
    expect(renderNotification('moderation_allocation', { event_name: 'F', count: 2, ...links }).subject).toBe('2 reviews to moderate in F');
    const reminder = renderNotification('review_reminder', {
      event_name: 'F',
      done: 7,
      total: 20,
      window_end: '2030-01-04T18:00:00Z',
      ...links,
    });
    expect(reminder.subject).toBe('Reminder: 7 of 20 proposals reviewed in F');
    expect(reminder.text).toContain('The review window of F closes at Friday 4 January 2030, 18:00 UTC.');
    expect(reminder.text).toContain('7 of 20 proposals reviewed: 13 proposals are left to review before the window closes.');
  });

  it('writes dates in UTC, and nothing for no date', () => {
    expect(formatUtc('2026-12-04T23:30:00+02:00')).toBe('Friday 4 December 2026, 21:30 UTC');
    expect(formatUtc(null)).toBeNull();
    expect(formatUtc('not a date')).toBeNull();
  });
});
