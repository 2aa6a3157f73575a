import nodemailer from 'nodemailer';

/** A mail ready for the wire. */
export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** `<…@…>`: the same for every attempt of one queued mail, so a resend is recognisable as the same message. */
  messageId: string;
  headers: Record<string, string>;
}

/** Where the mail worker hands mails over (SMTP; tests and the bench pass their own). */
export interface MailTransport {
  /** Resolves once the server has accepted the mail; rejects with the server's or the connection's error. */
  send(mail: OutgoingMail): Promise<void>;
  /** Mails sent side by side (the pool's connections). */
  concurrency: number;
  close(): void;
}

/** SMTP connections kept open and shared by the sends of one instance. */
export const SMTP_POOL_CONNECTIONS = 5;

/**
 * A pooled nodemailer SMTP transport on `smtpUrl` (`smtp://user:pass@host:587`, `smtps://…`; nodemailer's query
 * options such as `?tls.rejectUnauthorized=false` are kept). Timeouts are short and fixed, so that a send never
 * outlasts the worker's lease (MAIL_LEASE_SECONDS) by waiting on a dead server.
 */
export function createSmtpTransport(smtpUrl: string): MailTransport {
  const url = new URL(smtpUrl);
  const defaults: Record<string, string> = {
    pool: 'true',
    maxConnections: String(SMTP_POOL_CONNECTIONS),
    maxMessages: '1000',
    connectionTimeout: '10000',
    greetingTimeout: '10000',
    socketTimeout: '30000',
  };
  for (const [name, value] of Object.entries(defaults)) if (!url.searchParams.has(name)) url.searchParams.set(name, value);
  const transport = nodemailer.createTransport(url.toString());
  const concurrency = Number(url.searchParams.get('maxConnections')) || SMTP_POOL_CONNECTIONS;
  return {
    concurrency,
    async send(mail) {
      await transport.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mail.messageId,
        headers: mail.headers,
      });
    },
    close: () => transport.close(),
  };
}

/** What nodemailer's SMTP errors carry. */
interface SmtpError {
  code?: string;
  responseCode?: number;
  response?: string;
  message?: string;
}

/**
 * Whether a failed send may succeed later: a 4xx answer, a broken or refused connection, a timeout, and a refused
 * login (the operator fixes the credentials) are temporary; a 5xx answer (no such mailbox, message refused) and an
 * address the client itself refuses are permanent. The reason is the server's answer, or the error, in one line.
 */
export function classifySendError(error: unknown): { permanent: boolean; reason: string } {
  const failure = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as SmtpError;
  const said = (failure.response ?? failure.message ?? String(error)).replace(/\s+/g, ' ').trim();
  const reason = (
    failure.responseCode
      ? said.startsWith(String(failure.responseCode))
        ? said
        : `${failure.responseCode} ${said}`
      : `${failure.code ? `${failure.code}: ` : ''}${said}`
  ).slice(0, 500);
  if (failure.code === 'EAUTH') return { permanent: false, reason };
  if (failure.responseCode) return { permanent: failure.responseCode >= 500, reason };
  return { permanent: failure.code === 'EENVELOPE', reason };
}
