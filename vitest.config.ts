import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // A limit for a hung test, not a measure: API tests that migrate, seed the demo or walk every route take tens of
    // seconds on a busy 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core CI machine, idle whenever its
    // test waits on PostgreSQL, a password-hashing thread or a process it started. One worker more than the cores keeps
    // them busy through those waits (2-core machine, alone: 152 s with two workers, 140 s with three, at the same CPU).
    // Files are independent (a database each, port 0).
    maxWorkers: availableParallelism() + 1,
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          include: ['packages/*/test/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
          // The server's files share no module state (each builds its own app on its own database) and mock nothing,
          // so a worker imports the server once rather than once per file: a third less CPU for the whole run
          // (issue 26 item 18; 246 CPU-s against 353 on one machine).
          isolate: false,
        },
      },
      // The web app's unit tests mock modules and timers: each file in its own module graph.
      { extends: true, test: { name: 'web', include: ['apps/web/src/**/*.test.ts'] } },
    ],
  },
});
