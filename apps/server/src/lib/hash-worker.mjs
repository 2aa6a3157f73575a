// One password-hashing thread (lib/password-hasher.ts): argon2id runs here synchronously, one task at a time, at a
// lower OS priority than the server's own thread, so that a burst of logins yields the CPU to every other request.
// Plain JavaScript so that it runs the same under tsx, vitest and node alone.
import { getPriority, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { hashSync, verifySync } from '@node-rs/argon2';

// On Linux a nice value belongs to a thread: 0 here means this thread alone, never the server's. Elsewhere it would
// be the whole process, so the threads keep the server's priority there (the gate still bounds the hashes at once).
let niceness = getPriority();
if (process.platform === 'linux' && workerData.niceness > 0) {
  try {
    setPriority(Math.min(19, niceness + workerData.niceness));
    niceness = getPriority();
  } catch {
    // Refused (a container's limits): the thread keeps the server's priority.
  }
}
parentPort.postMessage({ ready: true, niceness });

parentPort.on('message', ({ id, op, password, passwordHash, options }) => {
  try {
    if (op === 'hash') parentPort.postMessage({ id, value: hashSync(password, options) });
    else if (op === 'verify') {
      let value = false;
      try {
        value = verifySync(passwordHash, password);
      } catch {
        // A malformed stored hash verifies nothing.
      }
      parentPort.postMessage({ id, value });
    } else throw new Error(`unknown operation ${op}`);
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
