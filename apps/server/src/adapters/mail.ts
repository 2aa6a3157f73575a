import { DEFAULT_LANGUAGE, type Language } from '@cr/contract/languages';
// The account mails (the contract's ACCOUNT_MAIL_KINDS, which the Mail queue screen names): written whole when queued.
import type { AccountMailKind } from '@cr/contract/mail';
import type { DbOrTx } from '../db/client';
import { MAIL_STRINGS } from '../mail-strings/index';
import { outbox } from '../db/schema/index';

/** A mail as its template renders it. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  link?: string | null;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post). */
  headers?: Record<string, string>;
}

/**
 * A mail to queue. Either whole (subject, text, html) or as `params` only, rendered at delivery by the template
 * registered for its kind (modules/mail/mail-templates.ts).
 */
export interface MailMessage extends Partial<RenderedMail> {
  to: string;
  kind: AccountMailKind | (string & {});
  /** The account the mail is for, when there is one. */
  userId?: number | null;
  eventId?: number | null;
  params?: Record<string, unknown> | null;
  /** One mail per key: a second mail with the same key is not queued. */
  dedupeKey?: string | null;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

type WholeMail = MailMessage & RenderedMail & { link: string };

function compose(kind: AccountMailKind, to: string, link: string, language: Language): WholeMail {
  const strings = MAIL_STRINGS[language];
  const { subject, intro, action, after } = strings.account[kind];
  const text = `${strings.hello}\n\n${intro}\n\n${action}: ${link}\n\n${after}\n\nCommunity Review`;
  const html =
    `<p>${escapeHtml(strings.hello)}</p><p>${escapeHtml(intro)}</p>` +
    `<p><a href="${escapeHtml(link)}">${escapeHtml(action)}</a></p>` +
    `<p style="color:#555">${escapeHtml(after)}</p><p>Community Review</p>`;
  return { to, kind, subject, text, html, link };
}

/**
 * The three account messages (plain text and HTML), with links built from PUBLIC_URL, in the recipient's language
 * (issue 31: the catalogs of src/mail-strings; en-US when none is given).
 */
export const mailTemplates = {
  activation: (to: string, link: string, language: Language = DEFAULT_LANGUAGE) => compose('activation', to, link, language),
  emailVerification: (to: string, link: string, language: Language = DEFAULT_LANGUAGE) => compose('email_verification', to, link, language),
  passwordReset: (to: string, link: string, language: Language = DEFAULT_LANGUAGE) => compose('password_reset', to, link, language),
};

/**
 * Transactional outbox (issue 27): `enqueue` writes a mail into the queue inside the caller's transaction, so it
 * exists exactly when the change that causes it does; the mail worker (modules/mail/mail-worker.ts) delivers it.
 * After the commit, `flush` asks this instance's worker to deliver at once (without waiting for it); mails queued
 * elsewhere are found by the worker's polling.
 */
export function createMailer(options: { wake: () => void }) {
  return {
    /** Queues one mail; answers false when a mail with its dedupe key was already queued. */
    async enqueue(tx: DbOrTx, message: MailMessage): Promise<boolean> {
      const inserted = await tx
        .insert(outbox)
        .values({
          recipient: message.to,
          kind: message.kind,
          subject: message.subject ?? null,
          textBody: message.text ?? null,
          htmlBody: message.html ?? null,
          link: message.link ?? null,
          userId: message.userId ?? null,
          eventId: message.eventId ?? null,
          params: message.params ?? null,
          headers: message.headers ?? null,
          dedupeKey: message.dedupeKey ?? null,
        })
        .onConflictDoNothing()
        .returning({ id: outbox.id });
      return inserted.length > 0;
    },
    /** Wakes the worker after the commit of queued mails; returns at once. */
    async flush(): Promise<void> {
      options.wake();
    },
  };
}
export type Mailer = ReturnType<typeof createMailer>;
