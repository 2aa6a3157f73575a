import type { AccountMailKind } from '@cr/contract/mail';
import type { NotificationKind } from '@cr/contract/notifications';

/*
 * The words of every mail the server sends (issue 31), one catalog per language, each typed as `MailStrings` so that
 * the compiler proves that every language has every string. `{{name}}` is filled in when a mail is rendered;
 * counts choose between `one` and `other` with Intl.PluralRules of the catalog's locale.
 */

/** A text that depends on a count: `one` for what Intl.PluralRules calls "one", `other` for the rest. */
export interface Plural {
  one: string;
  other: string;
}

/** The moderators' exclusion reasons as the moderation form names them (spec §5). */
export type ExclusionReason =
  'not_own_opinion' | 'profanity' | 'similarity' | 'rationale_does_not_correspond' | 'false_statement' | 'other';

/** An account mail: its subject, what it is about, the link's label, and what to know about the link. */
interface AccountMailStrings {
  subject: string;
  intro: string;
  action: string;
  after: string;
}

/** What a notification mail about an allocation says. */
interface AllocationStrings {
  subject: Plural;
  /** The paragraph; `{{closes}}` is `closes` with the window's end, or nothing when the event has none. */
  body: Plural;
  closes: string;
  action: string;
  because: string;
}

/** What a deadline reminder says. */
interface ReminderStrings {
  subject: string;
  closesAt: string;
  /** Instead of `closesAt` when no valid date is known. */
  closesSoon: string;
  left: Plural;
  action: string;
  because: string;
}

export interface MailStrings {
  /** The locale for Intl.DateTimeFormat and Intl.PluralRules. */
  locale: string;
  /** A date in UTC from the parts of Intl.DateTimeFormat: {{weekday}} {{day}} {{month}} {{year}} {{hour}} {{minute}}. */
  date: string;
  hello: string;
  /** Between the items of a list written in a sentence. */
  listSeparator: string;
  account: Record<AccountMailKind, AccountMailStrings>;
  notifications: {
    /** The event's name when a row has none. */
    theRound: string;
    /** The plain-text footer: {{because}}, {{label}}, {{unsubscribe_url}}, {{profile_url}}. */
    footerText: string;
    /** The HTML footer's first sentence: {{because}}. */
    footerHtml: string;
    /** The HTML footer's unsubscribe link: {{label}}. */
    stopLink: string;
    chooseLink: string;
    /** What each kind is about, as the footer names it. */
    kindLabels: Record<NotificationKind, string>;
    reasons: Record<ExclusionReason, string>;
    review_allocation: AllocationStrings;
    moderation_allocation: AllocationStrings;
    review_reminder: ReminderStrings;
    moderation_reminder: ReminderStrings;
    review_outcomes: {
      subject: string;
      intro: string;
      submitted: Plural;
      valid: Plural;
      excluded: Plural;
      /** {{count}}, and {{reasons}}: `reasons` with the list, or nothing. */
      byModeration: Plural;
      reasons: string;
      reasonItem: string;
      byThreshold: Plural;
      action: string;
      because: string;
    };
    lv2_invitation: {
      subject: string;
      invited: string;
      answer: string;
      action: string;
      because: string;
    };
  };
}
