import net from 'node:net';
import type { Duplex, Readable } from 'node:stream';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import { parseConnectionUrl } from 'nodemailer/lib/shared/index.js';
import SMTPConnection from 'nodemailer/lib/smtp-connection/index.js';

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

/**
 * A message the server has been given whole except the end of its DATA (`<CRLF>.<CRLF>`): it holds an incomplete
 * message, which it discards if the connection drops (RFC 5321 §4.1.1.4: a message is accepted only once the end is
 * received). The mail worker records the mail as sent between the two phases (issue 27: 0 duplicates, 0 lost).
 */
export interface PendingSend {
  /**
   * Ends the message: the end of DATA is written to the socket before this returns (no await, no callback between:
   * once in the kernel it reaches the server even if the process dies). Resolves on the server's 2xx answer; rejects
   * with its refusal, or with the connection's error (also at once when the connection was lost while held).
   */
  finish(): Promise<void>;
  /** Drops the message: closes the connection without the end of DATA, so the server discards what it received. */
  abort(): void;
}

/** Where the mail worker hands mails over (SMTP; tests and the bench pass their own). */
export interface MailTransport {
  /**
   * The first phase of a send: the envelope accepted (MAIL, RCPT, DATA) and the whole message written to the
   * connection except the end of DATA. Rejects with the server's refusal or the connection's error (nothing was
   * delivered).
   */
  begin(mail: OutgoingMail): Promise<PendingSend>;
  /** Sends side by side (the pool's connections); the worker never runs more at once. */
  concurrency: number;
  close(): void;
}

/** Both phases at once (the bench's raw rate; callers with nothing to record in between). */
export async function sendMail(transport: MailTransport, mail: OutgoingMail): Promise<void> {
  await (await transport.begin(mail)).finish();
}

/** SMTP connections kept open and shared by the sends of one instance. */
export const SMTP_POOL_CONNECTIONS = 5;
/** Messages per connection before it is closed and a new one opened (as nodemailer's pool does). */
const MESSAGES_PER_CONNECTION = 1000;

const CONNECTION_TIMEOUT_MS = 10_000;

type SocketOptions = { host?: string | undefined; port?: number | string | undefined; secure?: boolean | undefined };

/**
 * Opens a connection with Nagle's algorithm off. A message and the end of its DATA go out in two writes; with Nagle
 * on, the second waits for the server's delayed ACK (40 ms on Linux), which held every connection to about 22
 * messages a second even on the loopback (bench/mail.bench.ts).
 */
function connectWithoutDelay(options: SocketOptions): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const port = Number(options.port) || (options.secure ? 465 : 587);
    const socket = net.connect({ host: options.host ?? 'localhost', port });
    socket.setNoDelay(true);
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const timer = setTimeout(() => fail(Object.assign(new Error('Connection timeout'), { code: 'ETIMEDOUT' })), CONNECTION_TIMEOUT_MS);
    socket.once('error', fail);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.off('error', fail);
      resolve(socket);
    });
  });
}

/** One pooled connection: nodemailer's SMTP client, with what has become of it. */
interface Connection {
  client: SMTPConnection;
  /** Set once the connection failed or closed: it is not used again. */
  lost: Error | null;
  /** Called when the connection fails (the send under way rejects). */
  onLost?: ((error: Error) => void) | undefined;
  messages: number;
}

const connectionError = (message: string) => Object.assign(new Error(message), { code: 'ECONNECTION' });

/** The MIME message (nodemailer's composer, as `sendMail` builds it) and its envelope. */
async function compose(mail: OutgoingMail): Promise<{ envelope: SMTPConnection.Envelope; raw: Buffer }> {
  const node = new MailComposer({
    from: mail.from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    messageId: mail.messageId,
    headers: mail.headers,
  }).compile();
  const envelope = node.getEnvelope();
  return { envelope: { from: envelope.from || false, to: envelope.to }, raw: await node.build() };
}

/**
 * A pooled SMTP transport on `smtpUrl` (`smtp://user:pass@host:587`, `smtps://…`; nodemailer's query options such as
 * `?tls.rejectUnauthorized=false` are kept) that sends in two phases (`begin`, then `finish` or `abort`). Each
 * connection is nodemailer's SMTP client (`nodemailer/lib/smtp-connection`: greeting, EHLO, STARTTLS, AUTH, the
 * envelope), given the message as a stream whose end is held back: its `pipe` hands over nodemailer's DATA stream
 * (which escapes leading dots and writes the end of DATA when it is ended), the body is written to it and waited
 * for until it is in the socket, and `finish` ends it. Connections are opened on demand up to
 * SMTP_POOL_CONNECTIONS, reused while sound, closed after a failure or MESSAGES_PER_CONNECTION messages. Timeouts
 * are short and fixed, so that a send never outlasts the worker's lease (MAIL_LEASE_SECONDS) by waiting on a dead
 * server.
 */
export function createSmtpTransport(smtpUrl: string): MailTransport {
  const options: SMTPConnection.Options = {
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    ...(parseConnectionUrl(smtpUrl) as SMTPConnection.Options),
  };
  const idle: Connection[] = [];
  let closed = false;

  async function open(): Promise<Connection> {
    const socket = await connectWithoutDelay(options);
    const client = new SMTPConnection({ ...options, connection: socket } as SMTPConnection.Options);
    const connection: Connection = { client, lost: null, messages: 0 };
    const lose = (error: Error) => {
      connection.lost ??= error;
      connection.onLost?.(error);
    };
    client.on('error', lose);
    client.on('end', () => lose(connectionError('Connection closed')));
    await new Promise<void>((resolve, reject) => {
      connection.onLost = reject;
      client.connect((error) => (error ? reject(error) : resolve()));
    });
    if (options.auth) {
      await new Promise<void>((resolve, reject) => {
        connection.onLost = reject;
        client.login(options.auth as SMTPConnection.Credentials, (error) => (error ? reject(error) : resolve()));
      });
    }
    connection.onLost = undefined;
    return connection;
  }

  async function take(): Promise<Connection> {
    for (let connection = idle.pop(); connection; connection = idle.pop()) if (!connection.lost) return connection;
    return open();
  }

  function release(connection: Connection) {
    connection.onLost = undefined;
    connection.messages += 1;
    if (connection.lost) connection.client.close();
    else if (closed || connection.messages >= MESSAGES_PER_CONNECTION) connection.client.quit();
    else idle.push(connection);
  }

  /** Closes a connection whose state is unknown or that carries a message to drop. */
  function discard(connection: Connection) {
    connection.onLost = undefined;
    connection.lost ??= connectionError('Connection dropped');
    connection.client._socket?.destroy();
    connection.client.close();
  }

  return {
    concurrency: SMTP_POOL_CONNECTIONS,
    async begin(mail) {
      const { envelope, raw } = await compose(mail);
      const connection = await take();
      return new Promise<PendingSend>((resolve, reject) => {
        let held = false;
        let answered: { resolve: () => void; reject: (error: Error) => void } | undefined;
        let answer: Error | null | undefined;
        const settle = (error: Error | null) => {
          if (!held) {
            discard(connection);
            reject(error ?? connectionError('The server answered before the end of the message'));
          } else if (answered) {
            if (error) {
              discard(connection);
              answered.reject(error);
            } else {
              release(connection);
              answered.resolve();
            }
          } else answer ??= error;
        };
        connection.onLost = (error) => settle(error);
        // nodemailer pipes the message into its DATA stream once the server said 354: the body is written to that
        // stream now, its end only in `finish`.
        const message = {
          on: () => message,
          pipe(data: Duplex) {
            data.write(raw);
            void untilWritten(connection, data).then(
              () => {
                if (answer !== undefined || connection.lost) return settle(answer ?? connection.lost);
                held = true;
                resolve({
                  finish() {
                    // The connection was lost while the message was held (the server discarded it), or the server
                    // spoke out of turn (a 421 before shutting down): the end is not written.
                    if (answer !== undefined || connection.lost) {
                      discard(connection);
                      return Promise.reject(
                        answer ?? connection.lost ?? connectionError('The server answered before the end of the message'),
                      );
                    }
                    const done = new Promise<void>((resolveAnswer, rejectAnswer) => {
                      answered = { resolve: resolveAnswer, reject: rejectAnswer };
                    });
                    // DataStream's flush pushes `<CRLF>.<CRLF>` to its pipe into the socket: written within this call.
                    data.end();
                    return done;
                  },
                  abort: () => discard(connection),
                });
              },
              (error: Error) => settle(error),
            );
            return data;
          },
        };
        connection.client.send(envelope, message as unknown as Readable, (error) => settle(error));
      });
    },
    close() {
      closed = true;
      for (const connection of idle.splice(0)) connection.client.quit();
    },
  };
}

/**
 * Resolves once `data` (nodemailer's DATA stream) has passed everything written to it into the connection's socket
 * and the socket has handed it to the kernel, so that the end of DATA, written later, is not queued behind the body.
 */
async function untilWritten(connection: Connection, data: Duplex): Promise<void> {
  for (;;) {
    if (connection.lost) throw connection.lost;
    const socket = connection.client._socket;
    if (data.writableLength === 0 && data.readableLength === 0 && socket.writableLength === 0) return;
    if (socket.writableLength > 0 && socket.writableNeedDrain) {
      await new Promise<void>((resolve) => {
        const done = () => {
          socket.off('drain', done);
          socket.off('close', done);
          resolve();
        };
        socket.on('drain', done);
        socket.on('close', done);
      });
    } else await new Promise((resolve) => setImmediate(resolve));
  }
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
