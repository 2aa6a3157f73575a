import { defineConfig } from 'vitest/config';

/**
 * `npm run test:faults`: the fault checks of issue 18 (apps/server/test/faults/*.fault.ts). They start their own
 * PostgreSQL cluster and server processes, kill them and restart them, so they run apart from the unit and API
 * tests, one file at a time. They need PostgreSQL's server binaries (Debian's postgresql package); as root they run
 * the cluster as the `postgres` user.
 */
export default defineConfig({
  test: {
    include: ['apps/server/test/faults/**/*.fault.ts'],
    testTimeout: 240_000,
    hookTimeout: 240_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
