import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message the sink accepted. */
export interface SinkMessage {
  messageId: string;
  from: string;
  to: string[];
  subject: string;
  /** The header block as sent (folded lines joined). */
  headers: Record<string, string>;
  body: string;
  /** Date.now() when the sink accepted it. */
  at: number;
}

export interface SmtpSink {
  url: string;
  port: number;
  /** Accepted messages, in order. */
  messages: SinkMessage[];
  /** Refuses a recipient with an SMTP error (`{ code: 550, message }`) or accepts it (null). */
  rejectRecipient: (address: string) => { code: number; message: string } | null;
  /** Refuses a whole message, after the end of its DATA, with an SMTP error (`{ code: 554, message }`), or accepts it. */
  rejectMessage: (message: SinkMessage) => { code: number; message: string } | null;
  /**
   * Once this many messages are in, every further one is received whole and kept (in `messages`: the server has it)
   * but never answered (a server that stalls before its reply).
   */
  holdAfter: number;
  /** Messages received whole and left unanswered. */
  held: number;
  /** Messages whose DATA has begun and not yet ended. */
  receiving: number;
  /** Messages whose connection closed before the end of their DATA: discarded, as an SMTP server does. */
  discarded: number;
  /** How many times each Message-ID arrived. */
  countsById(): Map<string, number>;
  close(): Promise<void>;
}

function parseHeaders(raw: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of raw.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/**
 * A local SMTP server (smtp-server) that keeps what it accepts, for the mail queue's tests, fault checks and bench:
 * counted by Message-ID, so a mail sent twice shows. No TLS, no authentication.
 */
export async function startSmtpSink(): Promise<SmtpSink> {
  const sink: SmtpSink = {
    url: '',
    port: 0,
    messages: [],
    rejectRecipient: () => null,
    rejectMessage: () => null,
    holdAfter: Number.POSITIVE_INFINITY,
    held: 0,
    receiving: 0,
    discarded: 0,
    countsById() {
      const counts = new Map<string, number>();
      for (const message of sink.messages) counts.set(message.messageId, (counts.get(message.messageId) ?? 0) + 1);
      return counts;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // Idle pooled connections are cut at close instead of waited for.
    closeTimeout: 200,
    onRcptTo(address, _session, callback) {
      const refusal = sink.rejectRecipient(address.address);
      if (!refusal) return callback();
      const error = new Error(refusal.message) as Error & { responseCode: number };
      error.responseCode = refusal.code;
      return callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      sink.receiving += 1;
      let ended = false;
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      // The client went away before the end of DATA: smtp-server destroys the stream, the message is dropped.
      stream.on('error', () => {});
      stream.on('close', () => {
        if (ended) return;
        sink.receiving -= 1;
        sink.discarded += 1;
      });
      stream.on('end', () => {
        ended = true;
        sink.receiving -= 1;
        const raw = Buffer.concat(chunks).toString('utf8');
        const split = raw.indexOf('\r\n\r\n');
        const headers = parseHeaders(split >= 0 ? raw.slice(0, split) : raw);
        const message: SinkMessage = {
          messageId: headers['message-id'] ?? '',
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          subject: headers.subject ?? '',
          headers,
          body: split >= 0 ? raw.slice(split + 4) : '',
          at: Date.now(),
        };
        const refusal = sink.rejectMessage(message);
        if (refusal) {
          const error = new Error(refusal.message) as Error & { responseCode: number };
          error.responseCode = refusal.code;
          return callback(error);
        }
        const hold = sink.messages.length >= sink.holdAfter;
        sink.messages.push(message);
        if (hold) sink.held += 1;
        else callback();
      });
    },
  });
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  sink.port = (server.server.address() as AddressInfo).port;
  sink.url = `smtp://127.0.0.1:${sink.port}`;
  return sink;
}
