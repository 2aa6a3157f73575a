/**
 * The fault test's mail worker in a process of its own (the server's worker, modules/mail/mail-worker.ts), on
 * FAULT_DATABASE_URL, sending to FAULT_SMTP_URL. With FAULT_HOLD_AFTER_BODY=n, the mails after the first n stop for
 * good once their body is written, before they are recorded as sent (the test then kills the process: a kill -9
 * between the body and the end of DATA). Prints `{"ready":true}` once it polls.
 * `node --import tsx apps/server/test/faults/mail-worker-process.ts`.
 */
import type { FastifyBaseLogger } from 'fastify';
import { createSmtpTransport } from '../../src/adapters/smtp-transport';
import { openPostgres } from '../../src/db/client';
import { createMailWorker } from '../../src/modules/mail/mail-worker';

const holdAfter = Number(process.env.FAULT_HOLD_AFTER_BODY ?? Number.POSITIVE_INFINITY);
let bodies = 0;
const database = await openPostgres(process.env.FAULT_DATABASE_URL!, { onConnectionError: () => {} });
const worker = createMailWorker({
  db: database.db,
  transport: createSmtpTransport(process.env.FAULT_SMTP_URL!),
  from: process.env.FAULT_MAIL_FROM!,
  log: { info() {}, warn() {}, error: (...args: unknown[]) => console.error(...args) } as unknown as FastifyBaseLogger,
  ratePerSecond: 1000,
  leaseSeconds: 3,
  pollMs: 200,
  afterBody: async () => {
    bodies += 1;
    if (bodies > holdAfter) await new Promise(() => {});
  },
});
worker.start();
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
