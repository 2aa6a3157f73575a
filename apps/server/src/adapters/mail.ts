import { eq, inArray } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTx } from '../db/client';
import { outbox } from '../db/schema/index';

export interface MailMessage {
  to: string;
  kind: 'activation' | 'email_verification' | 'password_reset';
  subject: string;
  text: string;
  html: string;
  link: string;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function compose(kind: MailMessage['kind'], to: string, link: string, intro: string, action: string, after: string): MailMessage {
  const subject = {
    activation: 'Activate your Community Review account',
    email_verification: 'Verify your e-mail address',
    password_reset: 'Reset your Community Review password',
  }[kind];
  const text = `Hello,\n\n${intro}\n\n${action}: ${link}\n\n${after}\n\nCommunity Review`;
  const html =
    `<p>Hello,</p><p>${escapeHtml(intro)}</p>` +
    `<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>` +
    `<p style="color:#555">${escapeHtml(after)}</p><p>Community Review</p>`;
  return { to, kind, subject, text, html, link };
}

/** The three messages the product sends (plain text and HTML), with links built from PUBLIC_URL. */
export const mailTemplates = {
  activation: (to: string, link: string) =>
    compose(
      'activation',
      to,
      link,
      'Thank you for registering. Activate your account to start reviewing.',
      'Activate your account',
      'The link is valid for 48 hours. If you did not register, ignore this message.',
    ),
  emailVerification: (to: string, link: string) =>
    compose(
      'email_verification',
      to,
      link,
      'Please confirm that this is your e-mail address.',
      'Verify your e-mail address',
      'The link is valid for 48 hours. If you did not ask for this, ignore this message.',
    ),
  passwordReset: (to: string, link: string) =>
    compose(
      'password_reset',
      to,
      link,
      'Someone asked to reset the password of your account.',
      'Choose a new password',
      'The link is valid for 1 hour. If you did not ask for this, ignore this message: your password stays as it is.',
    ),
};

/**
 * Transactional outbox: a message is written with the change that causes it (same transaction), then delivered
 * after the commit: over SMTP when SMTP_URL is set, otherwise it stays in the outbox and its link goes to the log.
 */
export function createMailer(options: { db: Db; smtpUrl?: string | undefined; from: string; log: FastifyBaseLogger }) {
  const transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : null;
  return {
    async enqueue(tx: DbOrTx, message: MailMessage): Promise<void> {
      await tx.insert(outbox).values({
        recipient: message.to,
        kind: message.kind,
        subject: message.subject,
        textBody: message.text,
        htmlBody: message.html,
        link: message.link,
      });
    },
    /**
     * Delivers what is waiting. Rows are claimed (sent_at set, SKIP LOCKED) before sending, so two instances never
     * send one message twice. Never throws: a failed delivery goes back to waiting with its error.
     */
    async flush(): Promise<void> {
      const waiting = options.db
        .select({ id: outbox.id })
        .from(outbox)
        .where(eq(outbox.status, 'queued'))
        .orderBy(outbox.id)
        .limit(50)
        .for('update', { skipLocked: true });
      const claimed = await options.db.update(outbox).set({ sentAt: new Date(), status: 'sent' }).where(inArray(outbox.id, waiting)).returning();
      for (const row of claimed) {
        try {
          if (transport) {
            await transport.sendMail({
              from: options.from,
              to: row.recipient,
              subject: row.subject ?? '',
              text: row.textBody ?? '',
              html: row.htmlBody ?? '',
            });
          } else {
            // The link is what a local operator needs; the recipient is not logged.
            options.log.info({ mail: row.kind, link: row.link }, 'mail kept in the outbox (no SMTP_URL)');
          }
        } catch (error) {
          options.log.warn({ mail: row.kind, err: error }, 'mail delivery failed');
          await options.db
            .update(outbox)
            .set({ sentAt: null, status: 'queued', error: String(error) })
            .where(eq(outbox.id, row.id));
        }
      }
    },
  };
}
export type Mailer = ReturnType<typeof createMailer>;
