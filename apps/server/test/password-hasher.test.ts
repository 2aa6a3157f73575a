import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { busyMessage, createGate, createHashThreads } from '../src/lib/password-hasher';
import { API, databaseKinds, productionHashing, useTestApp } from './build-test-app';

/** A task the test finishes when it chooses: the gate's slots are held on state, never on time. */
function heldTask() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  let started = false;
  return {
    task: async () => {
      started = true;
      await done;
    },
    finish,
    get started() {
      return started;
    },
  };
}

describe('the password-hashing gate', () => {
  it('runs up to its concurrency, queues up to its queue and refuses the rest with 503', async () => {
    const gate = createGate({ concurrency: 2, queue: 1 });
    const [a, b, c] = [heldTask(), heldTask(), heldTask()];
    const runs = [gate.run(a.task), gate.run(b.task), gate.run(c.task)];
    expect([a.started, b.started, c.started]).toEqual([true, true, false]);
    expect([gate.running, gate.queued]).toEqual([2, 1]);
    await expect(gate.run(async () => 'never')).rejects.toMatchObject({ statusCode: 503, message: busyMessage });
    a.finish();
    await runs[0];
    expect(c.started).toBe(true);
    expect([gate.running, gate.queued]).toEqual([2, 0]);
    b.finish();
    c.finish();
    await Promise.all(runs);
    expect([gate.running, gate.queued]).toEqual([0, 0]);
  });

  it('frees its slot when a task fails', async () => {
    const gate = createGate({ concurrency: 1, queue: 0 });
    await expect(gate.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await gate.run(async () => 7)).toBe(7);
    expect(gate.running).toBe(0);
  });
});

describe('the hashing threads', () => {
  let threads: ReturnType<typeof createHashThreads> | undefined;
  afterEach(async () => {
    await threads?.close();
    threads = undefined;
  });

  it('hash and verify argon2id off the server thread, at a lower OS priority than the server', async () => {
    threads = createHashThreads(1, 7);
    const stored = await threads.hash('Correct-horse-1');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await threads.verify(stored, 'Correct-horse-1')).toBe(true);
    expect(await threads.verify(stored, 'Wrong-horse-1')).toBe(false);
    expect(await threads.verify('not a hash', 'Correct-horse-1')).toBe(false);
    // One thread serves every task; the server's own threads keep their priority (Linux: a nice value per thread).
    expect(threads.threads).toHaveLength(1);
    if (process.platform === 'linux') {
      const nicenessOf = (task: string) => Number(readFileSync(`/proc/self/task/${task}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
      const server = nicenessOf(String(process.pid));
      expect(server).toBe(getPriority());
      expect(readdirSync('/proc/self/task').map(nicenessOf)).toContain(Math.min(19, server + 7));
    }
  });

  it('fails the task of a thread that dies with 503, and the next task starts a new thread', async () => {
    threads = createHashThreads(1, 0);
    await threads.hash('warm-up-password-1');
    const [first] = threads.threads;
    const dying = threads.hash('Correct-horse-1');
    await first!.terminate();
    await expect(dying).rejects.toMatchObject({ statusCode: 503, message: busyMessage });
    expect(threads.threads).toHaveLength(0);
    expect(await threads.hash('Correct-horse-1')).toMatch(/^\$argon2id\$/);
    expect(threads.threads).toHaveLength(1);
    expect(threads.threads[0]).not.toBe(first);
  });

  it('ends every thread on close, and refuses a task after it with 503', async () => {
    threads = createHashThreads(2, 0);
    await Promise.all([threads.hash('first-password-1'), threads.hash('second-password-1')]);
    expect(threads.threads).toHaveLength(2);
    await threads.close();
    expect(threads.threads).toHaveLength(0);
    await expect(threads.hash('late-password-1')).rejects.toMatchObject({ statusCode: 503 });
    expect(threads.threads).toHaveLength(0);
  });
});

describe.each(databaseKinds)('bounded password hashing on %s', (kind) => {
  // One hash at a time and one waiting: the test holds both places itself, so a login finds the queue full.
  // At the production cost (the other API tests hash cheaply, testConfig).
  const ctx = useTestApp(kind, {
    PASSWORD_HASH_CONCURRENCY: '1',
    PASSWORD_HASH_QUEUE: '1',
    ...productionHashing,
  });
  const login = (catalystId: string, password: string) =>
    ctx.app.inject({
      method: 'POST',
      url: `${API}/users/token/login`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `username=${encodeURIComponent(catalystId)}&password=${encodeURIComponent(password)}`,
    });

  it('stores argon2id hashes at the OWASP parameters (m=19 MiB, t=2, p=1)', async () => {
    const user = await ctx.newUser();
    const account = await ctx.accountOf(user.id);
    expect(account.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('answers a login 503 with a message when the hashing queue is full, and logs in once it drains', async () => {
    const user = await ctx.newUser();
    const { gate } = ctx.app.services.passwords;
    const [running, waiting] = [heldTask(), heldTask()];
    const held = [gate.run(running.task), gate.run(waiting.task)];
    expect([gate.running, gate.queued]).toEqual([1, 1]);

    const refused = await login(user.catalystId, user.password);
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({ message: busyMessage });
    expect(refused.headers['retry-after']).toBe('1');
    // Sign-ups hash too, and are refused the same way.
    const signUp = await ctx.registerResponse();
    expect(signUp.statusCode).toBe(503);
    expect(signUp.json()).toEqual({ message: busyMessage });

    running.finish();
    waiting.finish();
    await Promise.all(held);
    const accepted = await login(user.catalystId, user.password);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ token_type: 'bearer' });
  });

  it('does not count a refused login as a wrong password', async () => {
    const user = await ctx.newUser();
    const { gate } = ctx.app.services.passwords;
    const [running, waiting] = [heldTask(), heldTask()];
    const held = [gate.run(running.task), gate.run(waiting.task)];
    for (let i = 0; i < 12; i += 1) expect((await login(user.catalystId, 'Wrong-password-1')).statusCode).toBe(503);
    running.finish();
    waiting.finish();
    await Promise.all(held);
    expect((await login(user.catalystId, user.password)).statusCode).toBe(200);
  });
});
