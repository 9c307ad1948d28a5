import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most end-to-end files wait on sockets, timers and child processes more than they compute: three at once on this
    // two-core machine finishes the suite in about half the time of the default (cores − 1), with no test near a limit.
    maxWorkers: 3,
    reporters: ['default'],
  },
});
