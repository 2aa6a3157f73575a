import type { MailStrings } from './types';

/** The source texts (the mails' English of issues 26 and 27, word for word). */
export const enUS: MailStrings = {
  locale: 'en-GB',
  date: '{{weekday}} {{day}} {{month}} {{year}}, {{hour}}:{{minute}} UTC',
  hello: 'Hello,',
  listSeparator: ', ',
  account: {
    activation: {
      subject: 'Activate your Community Review account',
      intro: 'Thank you for registering. Activate your account to start reviewing.',
      action: 'Activate your account',
      after: 'The link is valid for 48 hours. If you did not register, ignore this message.',
    },
    email_verification: {
      subject: 'Verify your e-mail address',
      intro: 'Please confirm that this is your e-mail address.',
      action: 'Verify your e-mail address',
      after: 'The link is valid for 48 hours. If you did not ask for this, ignore this message.',
    },
    password_reset: {
      subject: 'Reset your Community Review password',
      intro: 'Someone asked to reset the password of your account.',
      action: 'Choose a new password',
      after: 'The link is valid for 1 hour. If you did not ask for this, ignore this message: your password stays as it is.',
    },
  },
  notifications: {
    theRound: 'the round',
    footerText:
      'You receive this e-mail because {{because}}. To stop e-mails about {{label}}, open {{unsubscribe_url}} — or choose your notifications on your profile: {{profile_url}}',
    footerHtml: 'You receive this e-mail because {{because}}.',
    stopLink: 'Stop e-mails about {{label}}',
    chooseLink: 'Choose your notifications',
    kindLabels: {
      review_allocation: 'proposal allocations',
      review_reminder: 'review deadline reminders',
      moderation_allocation: 'moderation allocations',
      moderation_reminder: 'moderation deadline reminders',
      review_outcomes: 'review outcomes',
      lv2_invitation: 'LV2 invitations',
    },
    reasons: {
      not_own_opinion: "not the person's own opinion",
      profanity: 'profanity',
      similarity: 'similarity',
      rationale_does_not_correspond: 'rationale does not correspond',
      false_statement: 'false statement',
      other: 'other',
    },
    review_allocation: {
      subject: { one: '{{count}} proposal to review in {{event}}', other: '{{count}} proposals to review in {{event}}' },
      body: {
        one: 'The proposals of {{event}} have been allocated: {{count}} proposal to review in {{event}}.{{closes}}',
        other: 'The proposals of {{event}} have been allocated: {{count}} proposals to review in {{event}}.{{closes}}',
      },
      closes: ' The review window closes at {{date}}.',
      action: 'Open your proposals',
      because: 'you are a community reviewer in {{event}}',
    },
    moderation_allocation: {
      subject: { one: '{{count}} review to moderate in {{event}}', other: '{{count}} reviews to moderate in {{event}}' },
      body: {
        one: 'The moderation allocation of {{event}} is done: {{count}} review to moderate in {{event}}.{{closes}}',
        other: 'The moderation allocation of {{event}} is done: {{count}} reviews to moderate in {{event}}.{{closes}}',
      },
      closes: ' The moderation window closes at {{date}}.',
      action: 'Open your allocated reviews',
      because: 'you are a moderator in {{event}}',
    },
    review_reminder: {
      subject: 'Reminder: {{done}} of {{total}} proposals reviewed in {{event}}',
      closesAt: 'The review window of {{event}} closes at {{date}}.',
      closesSoon: 'The review window of {{event}} closes at soon.',
      left: {
        one: '{{done}} of {{total}} proposals reviewed: {{left}} proposal is left to review before the window closes.',
        other: '{{done}} of {{total}} proposals reviewed: {{left}} proposals are left to review before the window closes.',
      },
      action: 'Open your proposals',
      because: 'you have proposals left to review in {{event}}',
    },
    moderation_reminder: {
      subject: 'Reminder: {{done}} of {{total}} reviews moderated in {{event}}',
      closesAt: 'The moderation window of {{event}} closes at {{date}}.',
      closesSoon: 'The moderation window of {{event}} closes at soon.',
      left: {
        one: '{{done}} of {{total}} reviews moderated: {{left}} review is left to moderate before the window closes.',
        other: '{{done}} of {{total}} reviews moderated: {{left}} reviews are left to moderate before the window closes.',
      },
      action: 'Open your allocated reviews',
      because: 'you have reviews left to moderate in {{event}}',
    },
    review_outcomes: {
      subject: 'The review outcomes of {{event}} are out',
      intro: 'The review outcomes of {{event}} are out. Your reviews:',
      submitted: { one: '{{count}} submitted', other: '{{count}} submitted' },
      valid: { one: '{{count}} valid', other: '{{count}} valid' },
      excluded: { one: '{{count}} excluded', other: '{{count}} excluded' },
      byModeration: {
        one: '{{count}} excluded by moderation: most of their moderators excluded them{{reasons}}',
        other: '{{count}} excluded by moderation: most of their moderators excluded them{{reasons}}',
      },
      reasons: " (the moderators' reasons: {{list}})",
      reasonItem: '{{reason}} {{count}}',
      byThreshold: {
        one: '{{count}} excluded by the approval threshold: too few of your moderated reviews were found valid, so all your reviews of the round are excluded',
        other:
          '{{count}} excluded by the approval threshold: too few of your moderated reviews were found valid, so all your reviews of the round are excluded',
      },
      action: 'See your history on your profile',
      because: 'you reviewed proposals in {{event}}',
    },
    lv2_invitation: {
      subject: 'You are invited to moderate in {{event}}',
      invited: 'An administrator invited you to be a community moderator (LV2) in {{event}}.',
      answer:
        'Answer the invitation on your profile: press Subscribe next to it, then give your public contact and reward address, or decline.',
      action: 'Answer the invitation',
      because: 'an administrator invited you to moderate in {{event}}',
    },
  },
};
