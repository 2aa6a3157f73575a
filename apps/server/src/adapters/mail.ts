import { eq, inArray } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { NotificationKind } from '@cr/contract/notifications';
import type { Db, DbOrTx } from '../db/client';
import { outbox } from '../db/schema/index';

/** Account mails (never turned off) and the notifications of issue 27 (each may be turned off). */
export type MailKind = 'activation' | 'email_verification' | 'password_reset' | NotificationKind;

export interface MailMessage {
  to: string;
  kind: MailKind;
  subject: string;
  text: string;
  html: string;
  link: string;
  /** The account the mail is for (preferences, unsubscribe). */
  userId?: number;
  eventId?: number;
  /** Extra headers, e.g. List-Unsubscribe and List-Unsubscribe-Post (RFC 8058). */
  headers?: Record<string, string>;
  /** A notification keyed so that it is queued at most once (a repeated run never mails twice). */
  dedupeKey?: string;
  /** The template parameters the mail was rendered from. */
  params?: Record<string, unknown>;
}

/** What a template makes of a queued row's parameters. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  link?: string | null;
  headers?: Record<string, string>;
}
export type QueuedMailRow = typeof outbox.$inferSelect;
export type MailRenderer = (params: Record<string, unknown>, row: QueuedMailRow) => RenderedMail;

const renderers = new Map<string, MailRenderer>();

/**
 * Bulk notifications (a reminder to thousands) are queued by one INSERT … SELECT with `params` and no bodies; the
 * worker renders them when it delivers them, through the template registered here for their kind.
 */
export function registerMailTemplate(kind: string, render: MailRenderer): void {
  renderers.set(kind, render);
}

/** A queued row's subject, bodies, link and headers: as stored, or rendered from its parameters. */
export function renderQueuedMail(row: QueuedMailRow): RenderedMail & { rendered: boolean } {
  if (row.subject !== null && row.textBody !== null && row.htmlBody !== null) {
    return { subject: row.subject, text: row.textBody, html: row.htmlBody, link: row.link, headers: row.headers ?? {}, rendered: false };
  }
  const render = renderers.get(row.kind);
  if (!render) throw new Error(`no mail template for the kind ${row.kind}`);
  return { ...render(row.params ?? {}, row), rendered: true };
}

const BATCH = 50;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

type AccountMailKind = 'activation' | 'email_verification' | 'password_reset';

function compose(kind: AccountMailKind, to: string, link: string, intro: string, action: string, after: string): MailMessage {
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

  /** Delivers one claimed row; answers whether it went (a failure goes back to waiting, or fails for good). */
  async function deliver(row: QueuedMailRow): Promise<boolean> {
    let mail;
    try {
      mail = renderQueuedMail(row);
    } catch (error) {
      options.log.error({ mail: row.kind, err: error }, 'mail could not be rendered');
      await options.db
        .update(outbox)
        .set({ sentAt: null, status: 'failed', error: String(error) })
        .where(eq(outbox.id, row.id));
      return false;
    }
    if (mail.rendered) {
      // Kept as sent, so that the outbox (and the dev outbox API) shows what went out.
      await options.db
        .update(outbox)
        .set({ subject: mail.subject, textBody: mail.text, htmlBody: mail.html, link: mail.link ?? null, headers: mail.headers ?? null })
        .where(eq(outbox.id, row.id));
    }
    try {
      if (transport) {
        await transport.sendMail({
          from: options.from,
          to: row.recipient,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          headers: mail.headers ?? {},
        });
      } else {
        // The link is what a local operator needs; the recipient is not logged.
        options.log.info({ mail: row.kind, link: mail.link ?? null }, 'mail kept in the outbox (no SMTP_URL)');
      }
      return true;
    } catch (error) {
      options.log.warn({ mail: row.kind, err: error }, 'mail delivery failed');
      await options.db
        .update(outbox)
        .set({ sentAt: null, status: 'queued', error: String(error) })
        .where(eq(outbox.id, row.id));
      return false;
    }
  }

  return {
    /** Queues a rendered message in the caller's transaction; a message whose dedupe key is queued already is dropped. */
    async enqueue(tx: DbOrTx, message: MailMessage): Promise<void> {
      await tx
        .insert(outbox)
        .values({
          recipient: message.to,
          kind: message.kind,
          subject: message.subject,
          textBody: message.text,
          htmlBody: message.html,
          link: message.link,
          userId: message.userId ?? null,
          eventId: message.eventId ?? null,
          headers: message.headers ?? null,
          params: message.params ?? null,
          dedupeKey: message.dedupeKey ?? null,
        })
        .onConflictDoNothing({ target: outbox.dedupeKey });
    },
    /**
     * Delivers what is waiting, 50 rows at a time until none is left (or a delivery failed). Rows are claimed (SKIP
     * LOCKED) before sending, so two instances never send one message twice. Never throws.
     */
    async flush(): Promise<void> {
      for (;;) {
        const waiting = options.db
          .select({ id: outbox.id })
          .from(outbox)
          .where(eq(outbox.status, 'queued'))
          .orderBy(outbox.id)
          .limit(BATCH)
          .for('update', { skipLocked: true });
        const claimed = await options.db
          .update(outbox)
          .set({ sentAt: new Date(), status: 'sent' })
          .where(inArray(outbox.id, waiting))
          .returning();
        let delivered = 0;
        for (const row of claimed) if (await deliver(row)) delivered += 1;
        if (claimed.length < BATCH || delivered < claimed.length) return;
      }
    },
  };
}
export type Mailer = ReturnType<typeof createMailer>;
