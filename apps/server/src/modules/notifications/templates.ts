import type { NotificationKind } from '@cr/contract/notifications';
import type { RenderedMail } from '../../adapters/mail';

/**
 * The notification mails (issue 27), plain text and HTML, as pure functions of their parameters. The same
 * `renderNotification` renders a mail queued on its own (an invitation) and, at delivery, a row queued in bulk with
 * parameters only (reminders): `params` is the row's JSON, so every field is read defensively. Every value that
 * comes from people (event names, reasons) is HTML-escaped in the HTML part.
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

/** What each kind is about, as the footer, the profile and the unsubscribe screen name it. */
export const KIND_LABELS: Record<NotificationKind, string> = {
  review_allocation: 'proposal allocations',
  review_reminder: 'review deadline reminders',
  moderation_allocation: 'moderation allocations',
  moderation_reminder: 'moderation deadline reminders',
  review_outcomes: 'review outcomes',
  lv2_invitation: 'LV2 invitations',
};

/** The moderators' exclusion reasons as the moderation form names them (spec §5). */
const REASON_LABELS: Record<string, string> = {
  not_own_opinion: "not the person's own opinion",
  profanity: 'profanity',
  similarity: 'similarity',
  rationale_does_not_correspond: 'rationale does not correspond',
  false_statement: 'false statement',
  other: 'other',
};

export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const textOf = (value: unknown, fallback = '') => (typeof value === 'string' ? value : fallback);
const countOf = (value: unknown) => {
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(number) && number >= 0 ? Math.floor(number) : 0;
};
const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

const UTC_DATE = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** "Friday 4 December 2026, 18:00 UTC", or null for no (or no valid) date. */
export function formatUtc(value: unknown): string | null {
  if (typeof value !== 'string' && !(value instanceof Date)) return null;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return null;
  const parts = Object.fromEntries(UTC_DATE.formatToParts(date).map((part) => [part.type, part.value]));
  return `${parts.weekday} ${parts.day} ${parts.month} ${parts.year}, ${parts.hour}:${parts.minute} UTC`;
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

function compose(kind: NotificationKind, body: Body, links: NotificationLinks): RenderedMail {
  const link = `${links.public_url}${body.action.path}`;
  const profile = `${links.public_url}/profile`;
  const label = KIND_LABELS[kind];
  const footer = `You receive this e-mail because ${body.because}. To stop e-mails about ${label}, open ${links.unsubscribe_url} — or choose your notifications on your profile: ${profile}`;
  const paragraphText = (paragraph: Paragraph) => (Array.isArray(paragraph) ? paragraph.map((line) => `- ${line}`).join('\n') : paragraph);
  const paragraphHtml = (paragraph: Paragraph) =>
    Array.isArray(paragraph)
      ? `<ul>${paragraph.map((line) => `<li>${escapeHtml(line)}</li>`).join('')}</ul>`
      : `<p>${escapeHtml(paragraph)}</p>`;
  const text = ['Hello,', ...body.paragraphs.map(paragraphText), `${body.action.label}: ${link}`, 'Community Review', `--\n${footer}`].join(
    '\n\n',
  );
  const html =
    `<p>Hello,</p>${body.paragraphs.map(paragraphHtml).join('')}` +
    `<p><a href="${escapeHtml(link)}">${escapeHtml(body.action.label)}</a></p><p>Community Review</p>` +
    `<hr><p style="color:#555;font-size:12px">You receive this e-mail because ${escapeHtml(body.because)}. ` +
    `<a href="${escapeHtml(links.unsubscribe_url)}">Stop e-mails about ${escapeHtml(label)}</a> · ` +
    `<a href="${escapeHtml(profile)}">Choose your notifications</a></p>`;
  return {
    subject: body.subject,
    text,
    html,
    link,
    headers: { 'List-Unsubscribe': `<${links.one_click_url}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
  };
}

const closesAt = (what: string, windowEnd: unknown) => {
  const date = formatUtc(windowEnd);
  return date ? ` The ${what} window closes at ${date}.` : '';
};

/** What a review reminder and a moderation reminder say differently. */
const REMINDER_WORDS = {
  review: {
    window: 'review',
    done: 'proposals reviewed',
    left: ['proposal is', 'proposals are'],
    todo: 'review',
    action: { label: 'Open your proposals', path: '/allocated-proposals' },
    because: 'proposals left to review',
  },
  moderation: {
    window: 'moderation',
    done: 'reviews moderated',
    left: ['review is', 'reviews are'],
    todo: 'moderate',
    action: { label: 'Open your allocated reviews', path: '/allocated-reviews' },
    because: 'reviews left to moderate',
  },
} as const;

/** A reminder before a window closes: what is done of the allocation, what is left, and when it closes. */
function reminder(params: Record<string, unknown>, words: (typeof REMINDER_WORDS)[keyof typeof REMINDER_WORDS]): Body {
  const event = textOf(params.event_name, 'the round');
  const done = countOf(params.done);
  const total = countOf(params.total);
  const left = Math.max(total - done, 0);
  const date = formatUtc(params.window_end) ?? 'soon';
  return {
    subject: `Reminder: ${done} of ${total} ${words.done} in ${event}`,
    paragraphs: [
      `The ${words.window} window of ${event} closes at ${date}.`,
      `${done} of ${total} ${words.done}: ${plural(left, words.left[0], words.left[1])} left to ${words.todo} before the window closes.`,
    ],
    action: words.action,
    because: `you have ${words.because} in ${event}`,
  };
}

const bodies: Record<NotificationKind, (params: Record<string, unknown>) => Body> = {
  review_allocation: (params) => {
    const event = textOf(params.event_name, 'the round');
    const count = countOf(params.count);
    return {
      subject: `${plural(count, 'proposal', 'proposals')} to review in ${event}`,
      paragraphs: [
        `The proposals of ${event} have been allocated: ${plural(count, 'proposal', 'proposals')} to review in ${event}.${closesAt('review', params.window_end)}`,
      ],
      action: { label: 'Open your proposals', path: '/allocated-proposals' },
      because: `you are a community reviewer in ${event}`,
    };
  },
  moderation_allocation: (params) => {
    const event = textOf(params.event_name, 'the round');
    const count = countOf(params.count);
    return {
      subject: `${plural(count, 'review', 'reviews')} to moderate in ${event}`,
      paragraphs: [
        `The moderation allocation of ${event} is done: ${plural(count, 'review', 'reviews')} to moderate in ${event}.${closesAt('moderation', params.window_end)}`,
      ],
      action: { label: 'Open your allocated reviews', path: '/allocated-reviews' },
      because: `you are a moderator in ${event}`,
    };
  },
  review_reminder: (params) => reminder(params, REMINDER_WORDS.review),
  moderation_reminder: (params) => reminder(params, REMINDER_WORDS.moderation),
  review_outcomes: (params) => {
    const event = textOf(params.event_name, 'the round');
    const submitted = countOf(params.submitted);
    const valid = countOf(params.valid);
    const byModeration = countOf(params.excluded_moderation);
    const byThreshold = countOf(params.excluded_threshold);
    const reasons = params.reasons && typeof params.reasons === 'object' ? (params.reasons as Record<string, unknown>) : {};
    const reasonList = Object.entries(reasons)
      .map(([reason, count]) => [REASON_LABELS[reason] ?? reason, countOf(count)] as const)
      .filter(([, count]) => count > 0)
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([reason, count]) => `${reason} ${count}`)
      .join(', ');
    const lines = [
      `${submitted} submitted`,
      `${valid} valid`,
      `${byModeration + byThreshold} excluded`,
      ...(byModeration > 0
        ? [
            `${byModeration} excluded by moderation: most of their moderators excluded them${reasonList ? ` (the moderators' reasons: ${reasonList})` : ''}`,
          ]
        : []),
      ...(byThreshold > 0
        ? [
            `${byThreshold} excluded by the approval threshold: too few of your moderated reviews were found valid, so all your reviews of the round are excluded`,
          ]
        : []),
    ];
    return {
      subject: `The review outcomes of ${event} are out`,
      paragraphs: [`The review outcomes of ${event} are out. Your reviews:`, lines],
      action: { label: 'See your history on your profile', path: '/profile' },
      because: `you reviewed proposals in ${event}`,
    };
  },
  lv2_invitation: (params) => {
    const event = textOf(params.event_name, 'the round');
    return {
      subject: `You are invited to moderate in ${event}`,
      paragraphs: [
        `An administrator invited you to be a community moderator (LV2) in ${event}.`,
        'Answer the invitation on your profile: press Subscribe next to it, then give your public contact and reward address, or decline.',
      ],
      action: { label: 'Answer the invitation', path: '/profile' },
      because: `an administrator invited you to moderate in ${event}`,
    };
  },
};

/** The mail of a notification kind: subject, plain text, HTML, its link and the RFC 8058 headers. */
export function renderNotification(kind: NotificationKind, params: Record<string, unknown> & NotificationLinks): RenderedMail {
  return compose(kind, bodies[kind](params), params);
}
