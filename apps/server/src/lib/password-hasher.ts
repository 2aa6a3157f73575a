import { AppError } from '../errors';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './secrets';

/**
 * Password hashing is CPU-bound (argon2id, ~19 MiB and tens of milliseconds each, on libuv's thread pool): a burst of
 * logins could take every core and starve every other request. At most `concurrency` hashes run at once (by default
 * one less than the cores, so one stays free for the event loop and the database); up to `queue` more wait their
 * turn, and beyond that a request answers 503 at once.
 */
export interface HashLimits {
  concurrency: number;
  queue: number;
}

export const busyMessage = 'The server is busy. Please try again in a moment.';
export const serverBusy = () => new AppError(503, busyMessage, { 'retry-after': '1' });

/** Runs at most `concurrency` tasks at once, queues up to `queue` more, refuses the rest with 503. */
export function createGate(limits: HashLimits) {
  let active = 0;
  const waiting: (() => void)[] = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active -= 1;
  };
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (active < limits.concurrency) active += 1;
      else if (waiting.length < limits.queue) await new Promise<void>((resolve) => waiting.push(resolve));
      else throw serverBusy();
      // The slot passes straight from a finishing task to the next waiting one (active stays the same).
      try {
        return await task();
      } finally {
        release();
      }
    },
    /** Every slot taken and the queue full: a new task would be refused. */
    get full() {
      return active >= limits.concurrency && waiting.length >= limits.queue;
    },
    get running() {
      return active;
    },
    get queued() {
      return waiting.length;
    },
  };
}
export type Gate = ReturnType<typeof createGate>;

export function createPasswordHasher(limits: HashLimits) {
  const gate = createGate(limits);
  return {
    hash: (password: string) => gate.run(() => hashPassword(password)),
    verify: (passwordHash: string, password: string) => gate.run(() => verifyPassword(passwordHash, password)),
    verifyAgainstDummy: (password: string) => gate.run(() => verifyAgainstDummy(password)),
    /** Refuses up front, before a login counts as an attempt against its account (guess-guard). */
    refuseWhenBusy() {
      if (gate.full) throw serverBusy();
    },
    gate,
  };
}
export type PasswordHasher = ReturnType<typeof createPasswordHasher>;
