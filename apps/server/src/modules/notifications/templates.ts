import { DEFAULT_LANGUAGE, type Language } from '@cr/contract/languages';
import type { NotificationKind } from '@cr/contract/notifications';
import type { RenderedMail } from '../../adapters/mail';
import { fill, formatUtcIn, MAIL_STRINGS, pluralOf, type MailStrings, type Plural } from '../../mail-strings/index';
import { enUS } from '../../mail-strings/en-US';

/**
 * The notification mails (issue 27), plain text and HTML, as pure functions of their parameters. The same
 * `renderNotification` renders a mail queued on its own (an invitation) and, at delivery, a row queued in bulk with
 * parameters only (reminders): `params` is the row's JSON, so every field is read defensively. Every value that
 * comes from people (event names, reasons) is HTML-escaped in the HTML part. The words come from the catalog of the
 * mail's language (src/mail-strings, issue 31).
 */

/** The links every notification carries, added when it is rendered (the unsubscribe token is signed per person). */
export interface NotificationLinks {
  /** PUBLIC_URL, without a trailing slash. */
  public_url: string;
  /** The web screen that confirms an unsubscribe (and offers to undo it). */
  unsubscribe_url: string;
  /** The API address a mail client POSTs to (RFC 8058 one-click). */
  one_click_url: string;
}

/** What each kind is about, as the footer, the profile and the unsubscribe screen name it (in English). */
export const KIND_LABELS: Record<NotificationKind, string> = enUS.notifications.kindLabels;

export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const textOf = (value: unknown, fallback = '') => (typeof value === 'string' ? value : fallback);
const countOf = (value: unknown) => {
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(number) && number >= 0 ? Math.floor(number) : 0;
};

/** "Friday 4 December 2026, 18:00 UTC" (or the language's way of writing it), or null for no (or no valid) date. */
export function formatUtc(value: unknown, language: Language = DEFAULT_LANGUAGE): string | null {
  return formatUtcIn(MAIL_STRINGS[language], value);
}

/** One paragraph of a mail: the same words in both parts, escaped in the HTML one. */
type Paragraph = string | string[];

interface Body {
  subject: string;
  paragraphs: Paragraph[];
  action: { label: string; path: string };
  /** Why this person gets this mail (the footer's first sentence). */
  because: string;
}

function compose(kind: NotificationKind, strings: MailStrings, body: Body, links: NotificationLinks): RenderedMail {
  const words = strings.notifications;
  const link = `${links.public_url}${body.action.path}`;
  const profile = `${links.public_url}/profile`;
  const label = words.kindLabels[kind];
  const footer = fill(words.footerText, { because: body.because, label, unsubscribe_url: links.unsubscribe_url, profile_url: profile });
  const paragraphText = (paragraph: Paragraph) => (Array.isArray(paragraph) ? paragraph.map((line) => `- ${line}`).join('\n') : paragraph);
  const paragraphHtml = (paragraph: Paragraph) =>
    Array.isArray(paragraph)
      ? `<ul>${paragraph.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`
      : `<p>${escapeHtml(paragraph)}</p>`;
  const text = [
    strings.hello,
    ...body.paragraphs.map(paragraphText),
    `${body.action.label}: ${link}`,
    'Community Review',
    `--\n${footer}`,
  ].join('\n\n');
  const html =
    `<p>${escapeHtml(strings.hello)}</p>${body.paragraphs.map(paragraphHtml).join('')}` +
    `<p><a href="${escapeHtml(link)}">${escapeHtml(body.action.label)}</a></p><p>Community Review</p>` +
    `<hr><p style="color:#555;font-size:12px">${escapeHtml(fill(words.footerHtml, { because: body.because }))} ` +
    `<a href="${escapeHtml(links.unsubscribe_url)}">${escapeHtml(fill(words.stopLink, { label }))}</a> · ` +
    `<a href="${escapeHtml(profile)}">${escapeHtml(words.chooseLink)}</a></p>`;
  return {
    subject: body.subject,
    text,
    html,
    link,
    headers: { 'List-Unsubscribe': `<${links.one_click_url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

const PATHS = { proposals: '/allocated-proposals', reviews: '/allocated-reviews', profile: '/profile' } as const;

/** A reminder before a window closes: what is done of the allocation, what is left, and when it closes. */
function reminder(
  strings: MailStrings,
  params: Record<string, unknown>,
  kind: 'review_reminder' | 'moderation_reminder',
  path: string,
): Body {
  const words = strings.notifications[kind];
  const event = textOf(params.event_name, strings.notifications.theRound);
  const done = countOf(params.done);
  const total = countOf(params.total);
  const left = Math.max(total - done, 0);
  const date = formatUtcIn(strings, params.window_end);
  return {
    subject: fill(words.subject, { done, total, event }),
    paragraphs: [
      date ? fill(words.closesAt, { event, date }) : fill(words.closesSoon, { event }),
      pluralOf(strings.locale, words.left, left, { done, total, left }),
    ],
    action: { label: words.action, path },
    because: fill(words.because, { event }),
  };
}

/** A mail about an allocation: how many to do, and when the window closes (when the event says). */
function allocation(
  strings: MailStrings,
  params: Record<string, unknown>,
  kind: 'review_allocation' | 'moderation_allocation',
  path: string,
): Body {
  const words = strings.notifications[kind];
  const event = textOf(params.event_name, strings.notifications.theRound);
  const count = countOf(params.count);
  const date = formatUtcIn(strings, params.window_end);
  const closes = date ? fill(words.closes, { date }) : '';
  return {
    subject: pluralOf(strings.locale, words.subject, count, { event }),
    paragraphs: [pluralOf(strings.locale, words.body, count, { event, closes })],
    action: { label: words.action, path },
    because: fill(words.because, { event }),
  };
}

const bodies: Record<NotificationKind, (strings: MailStrings, params: Record<string, unknown>) => Body> = {
  review_allocation: (strings, params) => allocation(strings, params, 'review_allocation', PATHS.proposals),
  moderation_allocation: (strings, params) => allocation(strings, params, 'moderation_allocation', PATHS.reviews),
  review_reminder: (strings, params) => reminder(strings, params, 'review_reminder', PATHS.proposals),
  moderation_reminder: (strings, params) => reminder(strings, params, 'moderation_reminder', PATHS.reviews),
  review_outcomes: (strings, params) => {
    const words = strings.notifications.review_outcomes;
    const reasonLabels: Record<string, string> = strings.notifications.reasons;
    const plural = (forms: Plural, count: number, values: Record<string, string> = {}) => pluralOf(strings.locale, forms, count, values);
    const event = textOf(params.event_name, strings.notifications.theRound);
    const submitted = countOf(params.submitted);
    const valid = countOf(params.valid);
    const byModeration = countOf(params.excluded_moderation);
    const byThreshold = countOf(params.excluded_threshold);
    const reasons = params.reasons && typeof params.reasons === 'object' ? (params.reasons as Record<string, unknown>) : {};
    const reasonList = Object.entries(reasons)
      .map(([reason, count]) => [Object.hasOwn(reasonLabels, reason) ? reasonLabels[reason]! : reason, countOf(count)] as const)
      .filter(([, count]) => count > 0)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([reason, count]) => fill(words.reasonItem, { reason, count }))
      .join(strings.listSeparator);
    const lines = [
      plural(words.submitted, submitted),
      plural(words.valid, valid),
      plural(words.excluded, byModeration + byThreshold),
      ...(byModeration > 0
        ? [plural(words.byModeration, byModeration, { reasons: reasonList ? fill(words.reasons, { list: reasonList }) : '' })]
        : []),
      ...(byThreshold > 0 ? [plural(words.byThreshold, byThreshold)] : []),
    ];
    return {
      subject: fill(words.subject, { event }),
      paragraphs: [fill(words.intro, { event }), lines],
      action: { label: words.action, path: PATHS.profile },
      because: fill(words.because, { event }),
    };
  },
  lv2_invitation: (strings, params) => {
    const words = strings.notifications.lv2_invitation;
    const event = textOf(params.event_name, strings.notifications.theRound);
    return {
      subject: fill(words.subject, { event }),
      paragraphs: [fill(words.invited, { event }), words.answer],
      action: { label: words.action, path: PATHS.profile },
      because: fill(words.because, { event }),
    };
  },
};

/**
 * The mail of a notification kind in a language (issue 31; the recipient's, en-US when they chose none): subject,
 * plain text, HTML, its link and the RFC 8058 headers.
 */
export function renderNotification(
  kind: NotificationKind,
  params: Record<string, unknown> & NotificationLinks,
  language: Language = DEFAULT_LANGUAGE,
): RenderedMail {
  const strings = MAIL_STRINGS[language];
  return compose(kind, strings, bodies[kind](strings, params), params);
}
