/**
 * The test SMTP sink (apps/server/test/smtp-sink.ts) in a process of its own, so that it does not share the bench's
 * or the workers' event loop. Prints `{"port": n}`; then answers each line `stats` on stdin with one JSON line:
 * `{"accepted": n, "counts": {messageId: times}}`, and `reset` by forgetting what it received.
 */
import { createInterface } from 'node:readline';
import { startSmtpSink } from '../../apps/server/test/smtp-sink';

const sink = await startSmtpSink();
process.stdout.write(`${JSON.stringify({ port: sink.port })}\n`);
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'reset') {
    sink.messages.length = 0;
    process.stdout.write('{}\n');
  } else if (line === 'stats') {
    process.stdout.write(`${JSON.stringify({ accepted: sink.messages.length, counts: Object.fromEntries(sink.countsById()) })}\n`);
  }
});
process.on('SIGTERM', () => void sink.close().then(() => process.exit(0)));
