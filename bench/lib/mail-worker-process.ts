/**
 * One mail worker in a process of its own, as a server runs it (apps/server/src/modules/mail/mail-worker.ts), on
 * BENCH_MAIL_DATABASE_URL, sending to BENCH_MAIL_SMTP_URL with the bench's reminder template. Prints `{"ready":true}`
 * once it polls; SIGTERM closes it (a kill -9 is what the bench does to one of two).
 * `node --import tsx bench/lib/mail-worker-process.ts`.
 */
import type { FastifyBaseLogger } from 'fastify';
import { createSmtpTransport } from '../../apps/server/src/adapters/smtp-transport';
import { openPostgres } from '../../apps/server/src/db/client';
import { createMailWorker } from '../../apps/server/src/modules/mail/mail-worker';
import { registerBenchTemplate } from './mail-template';

registerBenchTemplate();
const database = await openPostgres(process.env.BENCH_MAIL_DATABASE_URL!, { onConnectionError: () => {} });
const worker = createMailWorker({
  db: database.db,
  transport: createSmtpTransport(process.env.BENCH_MAIL_SMTP_URL!),
  from: 'Community Review <no-reply@review.example.org>',
  log: { info() {}, warn() {}, error: (...args: unknown[]) => console.error(...args) } as unknown as FastifyBaseLogger,
  ratePerSecond: Number(process.env.BENCH_MAIL_RATE ?? 100_000),
  leaseSeconds: Number(process.env.BENCH_MAIL_LEASE_SECONDS ?? 3),
  pollMs: 200,
});
worker.start();
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
process.on('SIGTERM', () => {
  void worker
    .close()
    .then(() => database.close())
    .then(() => process.exit(0));
});
