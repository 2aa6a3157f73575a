/**
 * The browser tests' SMTP server (playwright.config.ts starts it before the app's server, which sends all its mail
 * here, as a server in production sends to its SMTP relay). It accepts every mail and keeps none, except that an
 * address starting `bounce-once-` is refused for good (550) the first time: the admin's mail-queue test sees that
 * mail fail with the server's answer, retries it, and sees it sent. `node --import tsx e2e/smtp-sink.ts`.
 */
import { SMTPServer } from 'smtp-server';

const refusedOnce = new Set<string>();
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  closeTimeout: 200,
  onRcptTo(address, _session, callback) {
    if (!address.address.startsWith('bounce-once-') || refusedOnce.has(address.address)) return callback();
    refusedOnce.add(address.address);
    callback(Object.assign(new Error('5.1.1 Mailbox unavailable (bounce-once)'), { responseCode: 550 }));
  },
  onData(stream, _session, callback) {
    stream.on('data', () => {});
    stream.on('end', () => callback());
  },
});
server.on('error', (error) => console.error('SMTP sink:', error.message));
server.listen(Number(process.env.E2E_SMTP_PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
