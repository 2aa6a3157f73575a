import { hash } from '@node-rs/argon2';
import { eq, like } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { rateLimits, users } from '../src/db/schema/index';
import { busyMessage, createGate } from '../src/lib/password-hasher';
import { databaseKinds, productionHashing, useTestApp } from './build-test-app';
import { uniqueName } from './fixtures';
import { loginFrom } from './login-requests';

/** Runs `count` tasks, at most `width` at once (a client's parallel tabs); their results in order. */
async function inParallel<T>(count: number, width: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const index = next++;
      results[index] = await task(index);
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return results;
}

const statusCounts = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});

// Issue 26 item 0: correct logins must never lock an address out — only failed guesses count against it.
describe.each(databaseKinds)('correct logins from one address on %s (default limits)', (kind) => {
  const ctx = useTestApp(kind);

  /** A user whose stored hash is argon2id at a tiny cost: a thousand verifications stay quick, the path is the same. */
  const cheapUser = async () => {
    const user = await ctx.register();
    const { id } = await ctx.userIdOf(user.email);
    const passwordHash = await hash(user.password, { memoryCost: 64, timeCost: 1, parallelism: 1 });
    await ctx.db.update(users).set({ passwordHash }).where(eq(users.id, id));
    return user;
  };

  it('lets 1,000 correct logins from one address through: several accounts, and one account from 8 tabs at once', async () => {
    const accounts = [await cheapUser(), await cheapUser(), await cheapUser(), await cheapUser()];
    const tabs = await cheapUser();
    const address = '10.26.0.1';
    const several = await inParallel(500, 4, (index) =>
      loginFrom(ctx, accounts[index % 4]!.catalystId, accounts[index % 4]!.password, address),
    );
    const oneAccount = await inParallel(500, 8, () => loginFrom(ctx, tabs.catalystId, tabs.password, address));
    expect(statusCounts([...several, ...oneAccount].map((response) => response.statusCode))).toEqual({ 200: 1000 });
    // Nothing was counted against the address or the pairs: a wrong guess from there is still a plain 401.
    const counters = await ctx.db
      .select()
      .from(rateLimits)
      .where(like(rateLimits.key, `login:%${address}%`));
    expect(counters).toEqual([]);
    expect((await loginFrom(ctx, tabs.catalystId, 'Wrong-pass1', address)).statusCode).toBe(401);
  });
});

describe.each(databaseKinds)('guessing limits with only failures counted on %s', (kind) => {
  const ctx = useTestApp(kind, { LOGIN_LIMIT_PER_ADDRESS: '3', LOGIN_LIMIT_PER_ACCOUNT_ADDRESS: '2' });
  const addressCount = async (address: string) =>
    (
      await ctx.db
        .select()
        .from(rateLimits)
        .where(eq(rateLimits.key, `login:address:${address}`))
    )[0]?.hits;

  it('refuses the address after 3 failures, and a refused attempt adds nothing to the counter that refused it', async () => {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await loginFrom(ctx, `cardano/${uniqueName('guess')}`, 'Wrong-pass1', '10.26.1.1')).statusCode).toBe(401);
    }
    const user = await ctx.register();
    for (let attempt = 0; attempt < 5; attempt += 1) {
      expect((await loginFrom(ctx, user.catalystId, user.password, '10.26.1.1')).statusCode).toBe(429);
    }
    expect(await addressCount('10.26.1.1')).toBe(3);
    expect((await loginFrom(ctx, user.catalystId, user.password, '10.26.1.2')).statusCode).toBe(200);
  });

  it('refuses a pair after 2 failures, even with the right password, while correct logins elsewhere never count', async () => {
    const user = await ctx.register();
    for (let attempt = 0; attempt < 6; attempt += 1) {
      expect((await loginFrom(ctx, user.catalystId, user.password, '10.26.1.3')).statusCode).toBe(200);
    }
    expect(await addressCount('10.26.1.3')).toBeUndefined();
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect((await loginFrom(ctx, user.catalystId, 'Wrong-pass1', '10.26.1.4')).statusCode).toBe(401);
    }
    expect((await loginFrom(ctx, user.catalystId, user.password, '10.26.1.4')).statusCode).toBe(429);
    expect((await loginFrom(ctx, user.catalystId, user.password, '10.26.1.3')).statusCode).toBe(200);
  });
});

// Issue 26 item 1: guesses must not be able to starve real logins of the password-hashing queue.
describe.each(databaseKinds)('a flood of failing logins on %s', (kind) => {
  // Hashes at their real cost: cheap ones would drain before the flood filled the queue.
  const ctx = useTestApp(kind, { PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_QUEUE: '64', ...productionHashing });

  it('lets the owner of an account in while 90 guesses for unknown accounts from three addresses fill the queue', async () => {
    const owner = await ctx.register();
    const gate = ctx.app.services.passwords.gate;
    const flood = Array.from({ length: 90 }, (_, index) =>
      loginFrom(ctx, `cardano/${uniqueName('nobody')}`, 'Wrong-pass1', `10.26.2.${index % 3}`),
    );
    // The owner arrives once the guesses hold at least half of the queue.
    await vi.waitFor(() => expect(gate.queued).toBeGreaterThanOrEqual(32), { timeout: 60_000, interval: 5 });
    const login = await loginFrom(ctx, owner.catalystId, owner.password, '10.26.2.100');
    expect(login.statusCode).toBe(200);
    const statuses = statusCounts((await Promise.all(flood)).map((response) => response.statusCode));
    // The guesses were under every guessing limit: they were refused for the queue alone, never with 429.
    expect(statuses[429]).toBeUndefined();
    expect(statuses[503]).toBeGreaterThan(0);
    expect(statuses[401]! + statuses[503]!).toBe(90);
  });
});

describe('the password-hashing gate with suspect tasks (issue 26 item 1)', () => {
  const held = () => {
    let finish!: () => void;
    const done = new Promise<void>((resolve) => (finish = resolve));
    const order: string[] = [];
    return { done, finish, order };
  };

  it('keeps half of the queue for clean tasks and serves them first', async () => {
    const gate = createGate({ concurrency: 1, queue: 4 });
    const first = held();
    const order: string[] = [];
    const running = gate.run(() => first.done);
    const suspects = [gate.run(async () => order.push('s1'), { suspect: true }), gate.run(async () => order.push('s2'), { suspect: true })];
    await expect(gate.run(async () => 'never', { suspect: true })).rejects.toMatchObject({ statusCode: 503, message: busyMessage });
    const clean = [gate.run(async () => order.push('c1')), gate.run(async () => order.push('c2'))];
    expect(gate.queued).toBe(4);
    await expect(gate.run(async () => 'never')).rejects.toMatchObject({ statusCode: 503 });
    first.finish();
    await Promise.all([running, ...suspects, ...clean]);
    expect(order).toEqual(['c1', 'c2', 's1', 's2']);
  });

  it('caps the tasks one source holds at once, and frees the place when one ends', async () => {
    const gate = createGate({ concurrency: 1, queue: 10, perSource: 2 });
    const first = held();
    const tasks = [gate.run(() => first.done, { source: 'a' }), gate.run(async () => 1, { source: 'a' })];
    await expect(gate.run(async () => 'never', { source: 'a' })).rejects.toMatchObject({ statusCode: 503 });
    const other = gate.run(async () => 2, { source: 'b' });
    first.finish();
    await Promise.all([...tasks, other]);
    expect(await gate.run(async () => 3, { source: 'a' })).toBe(3);
  });
});
