import net from 'node:net';
import nodemailer from 'nodemailer';
import { parseConnectionUrl } from 'nodemailer/lib/shared/index.js';
import type SMTPPool from 'nodemailer/lib/smtp-pool/index.js';

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

const CONNECTION_TIMEOUT_MS = 10_000;

/**
 * Opens the pool's connections with Nagle's algorithm off. nodemailer writes a message and its closing `.` in two
 * writes; with Nagle on, the second waits for the server's delayed ACK (40 ms on Linux), which held every
 * connection to about 22 messages a second even on the loopback (bench/mail.bench.ts).
 */
function connectWithoutDelay(
  options: SMTPPool.Options,
  callback: (error: Error | null, socketOptions?: { connection: net.Socket }) => void,
) {
  const port = Number(options.port) || (options.secure ? 465 : 587);
  const socket = net.connect({ host: options.host ?? 'localhost', port });
  socket.setNoDelay(true);
  const fail = (error: Error) => {
    clearTimeout(timer);
    socket.destroy();
    callback(error);
  };
  const timer = setTimeout(() => fail(Object.assign(new Error('Connection timeout'), { code: 'ETIMEDOUT' })), CONNECTION_TIMEOUT_MS);
  socket.once('error', fail);
  socket.once('connect', () => {
    clearTimeout(timer);
    socket.off('error', fail);
    callback(null, { connection: socket });
  });
}

/**
 * A pooled nodemailer SMTP transport on `smtpUrl` (`smtp://user:pass@host:587`, `smtps://…`; nodemailer's query
 * options such as `?tls.rejectUnauthorized=false` are kept). Timeouts are short and fixed, so that a send never
 * outlasts the worker's lease (MAIL_LEASE_SECONDS) by waiting on a dead server.
 */
export function createSmtpTransport(smtpUrl: string): MailTransport {
  const options: SMTPPool.Options = {
    maxConnections: SMTP_POOL_CONNECTIONS,
    maxMessages: 1000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    ...parseConnectionUrl(smtpUrl),
    pool: true,
    getSocket: connectWithoutDelay,
  };
  const transport = nodemailer.createTransport(options);
  return {
    concurrency: options.maxConnections ?? SMTP_POOL_CONNECTIONS,
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
