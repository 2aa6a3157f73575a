import { Worker } from 'node:worker_threads';
import { AppError } from '../errors';
import { ARGON2_OPTIONS, type Argon2Options } from './secrets';

/**
 * Password hashing is CPU-bound (argon2id, ~19 MiB and tens of milliseconds each): a burst of logins could take every
 * core and starve every other request. At most `concurrency` hashes run at once (by default one less than the cores,
 * so one stays free for the event loop and the database), each on a thread of its own at a lower OS priority
 * (`niceness`), so that the kernel runs the server's thread first whenever both are ready; up to `queue` more wait
 * their turn, and beyond that a request answers 503 at once.
 */
export interface HashLimits {
  concurrency: number;
  queue: number;
  /** Added to the hashing threads' nice value, up to 19 (Linux, where a nice value is per thread; elsewhere ignored). */
  niceness?: number;
  /** Hashes one source (a client address) may have running or waiting at once; beyond that it answers 503. */
  perSource?: number;
  /** argon2id's cost for new hashes (OWASP's minimum by default; tests lower it); a stored hash keeps its own. */
  argon2?: Argon2Options;
}

export const busyMessage = 'The server is busy. Please try again in a moment.';
export const serverBusy = () => new AppError(503, busyMessage, { 'retry-after': '1' });

/**
 * Who asks for a hash (issue 26 item 1). A `suspect` task — a login for an account that does not exist, or from an
 * address that has failed lately — may take at most half of the queue's places and waits behind every other task, so
 * guesses can never fill the queue that a real user's login needs. `source` (the client address) caps how many
 * hashes one address has in the gate at once.
 */
export interface HashTicket {
  suspect?: boolean;
  source?: string;
}

/**
 * Runs at most `concurrency` tasks at once, queues up to `queue` more (suspect tasks up to half of them, served
 * last), refuses the rest with 503.
 */
export function createGate(limits: HashLimits) {
  let active = 0;
  const trusted: (() => void)[] = [];
  const suspect: (() => void)[] = [];
  const suspectPlaces = Math.floor(limits.queue / 2);
  const perSource = new Map<string, number>();
  const waiting = () => trusted.length + suspect.length;
  const release = () => {
    const next = trusted.shift() ?? suspect.shift();
    if (next) next();
    else active -= 1;
  };
  const leave = (source: string | undefined) => {
    if (source === undefined) return;
    const left = (perSource.get(source) ?? 1) - 1;
    if (left > 0) perSource.set(source, left);
    else perSource.delete(source);
  };
  return {
    async run<T>(task: () => Promise<T>, ticket: HashTicket = {}): Promise<T> {
      const { source } = ticket;
      if (source !== undefined && limits.perSource !== undefined && (perSource.get(source) ?? 0) >= limits.perSource) {
        throw serverBusy();
      }
      if (active < limits.concurrency) {
        active += 1;
        if (source !== undefined) perSource.set(source, (perSource.get(source) ?? 0) + 1);
      } else {
        const queue = ticket.suspect ? suspect : trusted;
        if (waiting() >= limits.queue || (ticket.suspect && suspect.length >= suspectPlaces)) throw serverBusy();
        if (source !== undefined) perSource.set(source, (perSource.get(source) ?? 0) + 1);
        // The slot passes straight from a finishing task to the next waiting one (active stays the same).
        await new Promise<void>((resolve) => queue.push(resolve));
      }
      try {
        return await task();
      } finally {
        release();
        leave(source);
      }
    },
    /**
     * Whether a task from `source` would be refused now for its source's cap or a full queue: asked before any other
     * work, so that a request that cannot get a hash costs nothing more (issue 45 item 15). (A suspect task may still be
     * refused later for its half of the queue.)
     */
    refuses(source?: string): boolean {
      if (source !== undefined && limits.perSource !== undefined && (perSource.get(source) ?? 0) >= limits.perSource) return true;
      return active >= limits.concurrency && waiting() >= limits.queue;
    },
    /** Every slot taken and the queue full: a new task would be refused. */
    get full() {
      return active >= limits.concurrency && waiting() >= limits.queue;
    },
    get running() {
      return active;
    },
    get queued() {
      return waiting();
    },
    /** Suspect tasks waiting (at most half of the queue). */
    get queuedSuspect() {
      return suspect.length;
    },
  };
}
export type Gate = ReturnType<typeof createGate>;

type HashTask = { op: 'hash'; password: string } | { op: 'verify'; passwordHash: string; password: string };
type Pending = { resolve: (value: string | boolean) => void; reject: (error: Error) => void };

/**
 * Up to `size` hashing threads (lib/hash-worker.mjs), started when first needed and kept. A thread runs one task at a
 * time (the gate never gives it more), so a task goes to an idle thread or starts a new one. A thread that dies fails
 * its task with 503 and is replaced by the next task; `close` ends them all.
 */
export function createHashThreads(size: number, niceness: number, log?: HashLog, argon2: Argon2Options = ARGON2_OPTIONS) {
  const idle: Worker[] = [];
  let closed = false;
  const live = new Set<Worker>();
  const pending = new Map<number, Pending>();
  let nextId = 1;

  const start = () => {
    const worker = new Worker(new URL('./hash-worker.mjs', import.meta.url), { workerData: { niceness } });
    live.add(worker);
    worker.unref();
    // The exit below settles the task (503); the error is for the operator (a missing native module, say).
    worker.on('error', (error) => log?.error({ err: error }, 'a password hashing thread failed'));
    worker.on('exit', (code) => {
      if (!closed && code !== 0) log?.warn({ code }, 'a password hashing thread ended; the next task starts another');
      live.delete(worker);
      const at = idle.indexOf(worker);
      if (at >= 0) idle.splice(at, 1);
      const task = running.get(worker);
      running.delete(worker);
      if (task !== undefined) {
        pending.get(task)?.reject(serverBusy());
        pending.delete(task);
      }
    });
    return worker;
  };
  const running = new Map<Worker, number>();

  const run = (task: HashTask) =>
    new Promise<string | boolean>((resolve, reject) => {
      if (closed) return reject(serverBusy());
      const worker = idle.pop() ?? (live.size < size ? start() : undefined);
      if (!worker) return reject(new Error('every hashing thread is busy (the gate should have held this task)'));
      const id = nextId++;
      pending.set(id, { resolve, reject });
      running.set(worker, id);
      // A busy thread keeps the process alive until it answers; an idle one does not.
      worker.ref();
      const answer = (message: { id?: number; value?: string | boolean; error?: string }) => {
        if (message.id !== id) return;
        worker.off('message', answer);
        worker.unref();
        running.delete(worker);
        pending.delete(id);
        idle.push(worker);
        if (message.error !== undefined) reject(new Error(message.error));
        else resolve(message.value!);
      };
      worker.on('message', answer);
      worker.postMessage({ id, options: argon2, ...task });
    });

  return {
    hash: (password: string) => run({ op: 'hash', password }) as Promise<string>,
    verify: (passwordHash: string, password: string) => run({ op: 'verify', passwordHash, password }) as Promise<boolean>,
    /** The threads alive now (tests end one to see a task fail cleanly). */
    get threads(): readonly Worker[] {
      return [...live];
    },
    async close() {
      closed = true;
      await Promise.all([...live].map((worker) => worker.terminate()));
    },
  };
}

/** Where the threads' failures are told (the server's logger). */
export interface HashLog {
  error(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export function createPasswordHasher(limits: HashLimits, log?: HashLog) {
  const gate = createGate(limits);
  const threads = createHashThreads(limits.concurrency, limits.niceness ?? 0, log, limits.argon2);
  // Verified against when the account does not exist, so that a wrong Catalyst ID takes as long as a wrong password.
  let dummyHash: Promise<string> | undefined;
  const verify = (passwordHash: string, password: string, ticket?: HashTicket) =>
    gate.run(() => threads.verify(passwordHash, password), ticket);
  return {
    hash: (password: string) => gate.run(() => threads.hash(password)),
    verify,
    /** Verifies against a dummy hash (the account does not exist); such a check is always a suspect task. */
    async verifyAgainstDummy(password: string, source?: string): Promise<false> {
      const pending = (dummyHash ??= gate.run(() => threads.hash('dummy-password-for-timing')));
      // A failed dummy hash is tried again next time rather than kept.
      const stored = await pending.catch((error: unknown) => {
        if (dummyHash === pending) dummyHash = undefined;
        throw error;
      });
      await verify(stored, password, { suspect: true, source });
      return false;
    },
    gate,
    threads,
    close: () => threads.close(),
  };
}
export type PasswordHasher = ReturnType<typeof createPasswordHasher>;
