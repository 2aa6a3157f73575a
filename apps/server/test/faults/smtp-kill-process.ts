/**
 * Sends one mail to FAULT_SMTP_URL with the two-phase transport and kills itself (SIGKILL) at FAULT_KILL_AT:
 * `before-end` once the body is written (the end of DATA never written), `after-end` right after `finish()` returns
 * (the end of DATA written to the socket, the answer not yet read). Prints `{"held":true}` before the kill.
 * `node --import tsx apps/server/test/faults/smtp-kill-process.ts`.
 */
import { createSmtpTransport } from '../../src/adapters/smtp-transport';

const transport = createSmtpTransport(process.env.FAULT_SMTP_URL!);
const pending = await transport.begin({
  from: 'no-reply@review.example.org',
  to: 'killed@example.test',
  subject: `Killed ${process.env.FAULT_KILL_AT}`,
  text: 'Text '.repeat(2000),
  html: `<p>${'Html '.repeat(2000)}</p>`,
  messageId: `<killed-${process.env.FAULT_KILL_AT}@review.example.org>`,
  headers: {},
});
process.stdout.write(`${JSON.stringify({ held: true })}\n`);
// Synchronous from here to the kill: nothing else runs in between.
if (process.env.FAULT_KILL_AT === 'after-end') void pending.finish();
process.kill(process.pid, 'SIGKILL');
