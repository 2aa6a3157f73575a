/**
 * At most `slots` of the given tasks run at once; the others wait their turn in order. For background work (totals
 * and dashboard recounts) that must not take every pooled connection and both cores from the requests being served.
 */
export function createLimiter(slots: number) {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async function limited<T>(task: () => Promise<T>): Promise<T> {
    if (running >= slots) await new Promise<void>((resolve) => waiting.push(resolve));
    else running += 1;
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      // The slot passes straight to the next waiting task, or is freed.
      if (next) next();
      else running -= 1;
    }
  };
}

export type Limiter = ReturnType<typeof createLimiter>;

/** Runs the tasks with at most `slots` at once and answers their results in order (Promise.all with a bound). */
export function allLimited<T extends readonly (() => Promise<unknown>)[]>(
  slots: number,
  tasks: T,
): Promise<{ -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> }> {
  const limited = createLimiter(slots);
  return Promise.all(tasks.map((task) => limited(task))) as never;
}

/**
 * The process's one lane for costly work nobody waits for: stale totals' recounts (count-cache), the dashboard's and
 * the moderation stats' background snapshots (snapshot-cache). One statement at a time across all of them, so that
 * however many expire together they never hold more than one pooled connection and one core (of PostgreSQL's) while
 * requests are served: two at a time took both cores of a two-core host for a second or more, and every request
 * waited meanwhile (issue 30 item 6, the 180-user mix). Work a request waits for does not take this lane.
 */
export const backgroundLane = createLimiter(1);

/**
 * The process's lane for the first count of a list's filter (count-cache: no total kept yet, so a request waits for
 * it): two at a time. When many filters are counted for the first time together — a server just started while a round
 * is under way — they queue here, not on the pool: 160 users' first minute had 50 counts of 80–250 ms hold every pooled
 * connection for 3–4 s, and every request waited, a user's profile as long as a filtered list (issue 30 item 6).
 */
export const firstCountLane = createLimiter(2);

/**
 * Work done after a request has been answered, so that the answer cannot tell what the work found (issue 26 item 6:
 * a password reset for an existing account took longer than one for an unknown account). A failure is logged, never
 * thrown; `settled` waits for what was started (tests, and the server's close).
 */
export function createAfterResponse(log: { error(details: object, message: string): void }) {
  const pending = new Set<Promise<void>>();
  return {
    run(name: string, task: () => Promise<void>): void {
      const running = Promise.resolve()
        .then(task)
        .catch((error: unknown) => log.error({ err: error, task: name }, 'background work failed'))
        .finally(() => pending.delete(running));
      pending.add(running);
    },
    async settled(): Promise<void> {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
export type AfterResponse = ReturnType<typeof createAfterResponse>;
