import { afterEach, describe, expect, it, vi } from 'vitest';
import { inTurn, nextTask } from './in-turn';

/** Resolves once the turns queued so far have run (the MessageChannel's messages come before a timer's). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

afterEach(() => vi.restoreAllMocks());

describe('inTurn: costly work a little at a time (issue 30 item 5)', () => {
  it('runs queued work in order, in turns of about 8 ms each, never in the caller', async () => {
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const ran: number[] = [];
    // A microtask runs once the task that queued it is over: what has run by then is where a turn ended.
    const turnEnds = new Set<number>();
    for (let index = 0; index < 5; index += 1) {
      inTurn(() => {
        ran.push(index);
        now += 5; // each piece of work takes 5 ms: a turn stops once 8 ms have passed, after two
        queueMicrotask(() => turnEnds.add(ran.length));
      });
    }
    expect(ran).toEqual([]);
    await settle();
    expect(ran).toEqual([0, 1, 2, 3, 4]);
    expect([...turnEnds]).toEqual([2, 4, 5]);
  });

  it('forgets work taken off the queue before its turn', async () => {
    const ran: string[] = [];
    inTurn(() => ran.push('kept'));
    const cancel = inTurn(() => ran.push('cancelled'));
    cancel();
    await settle();
    expect(ran).toEqual(['kept']);
  });
});

describe('inTurn with alone', () => {
  it('ends the turn after work queued alone', async () => {
    const ran: string[] = [];
    const turnEnds = new Set<number>();
    const note = (name: string) => () => {
      ran.push(name);
      queueMicrotask(() => turnEnds.add(ran.length));
    };
    inTurn(note('a'));
    inTurn(note('b'), { alone: true });
    inTurn(note('c'), { alone: true });
    inTurn(note('d'));
    await settle();
    expect(ran).toEqual(['a', 'b', 'c', 'd']);
    expect([...turnEnds]).toEqual([2, 3, 4]);
  });
});

describe('nextTask', () => {
  it('resolves in a task of its own: after the microtasks and the current task’s own work', async () => {
    const order: string[] = [];
    const awaited = nextTask().then(() => order.push('next task'));
    queueMicrotask(() => order.push('microtask'));
    order.push('this task');
    await awaited;
    expect(order).toEqual(['this task', 'microtask', 'next task']);
  });

  it('resolves each of many awaited at once', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => nextTask().then(() => i)));
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });
});
