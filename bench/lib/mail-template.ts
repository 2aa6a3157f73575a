import { registerMailTemplate } from '../../apps/server/src/modules/mail/mail-templates';

/** The kind the mail bench queues: a reminder as the notifications will send it, rendered at delivery. */
export const BENCH_MAIL_KIND = 'bench_review_reminder';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A reminder of about the size of the real ones (plain text and HTML, an unsubscribe header). */
export function registerBenchTemplate() {
  registerMailTemplate(BENCH_MAIL_KIND, (params, row) => {
    const done = Number(params.done);
    const total = Number(params.total);
    const link = `https://review.example.org/allocated-proposals?event=${String(params.event)}`;
    const intro = `The review window of Fund 15 closes in 24 hours. You have reviewed ${done} of ${total} proposals.`;
    const text = `Hello,\n\n${intro}\n\nYour proposals: ${link}\n\n${'Each review counts towards the round. '.repeat(8)}\n\nCommunity Review`;
    return {
      subject: `${total - done} proposals left to review in Fund 15`,
      text,
      html: `<p>Hello,</p><p>${escape(intro)}</p><p><a href="${escape(link)}">Your proposals</a></p><p>${escape('Each review counts towards the round. '.repeat(8))}</p>`,
      link,
      headers: {
        'List-Unsubscribe': `<https://review.example.org/unsubscribe?mail=${row.id}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    };
  });
}
