import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'apps/server/test/**/*.test.ts', 'apps/web/src/**/*.test.ts'],
    // A limit for a hung test, not a measure: API tests that migrate, seed the demo or walk every route take tens of
    // seconds on a busy 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core CI machine, idle whenever its
    // test waits on PostgreSQL or a password-hashing thread. Files are independent (a database each, port 0).
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
