import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/src/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Most end-to-end files wait on sockets, timers and child processes more than they compute: three at once on this
    // two-core machine finishes the suite in about half the time of the default (cores − 1), with no test near a limit.
    maxWorkers: 3,
    // Each file used to load the whole server afresh (~1 s of imports per file, 190 s of the run): a worker keeps its
    // modules between files instead. Safe because nothing keeps state at module level (ARCHITECTURE: explicit wiring,
    // no singletons); each test builds its own store, app and clock.
    isolate: false,
    setupFiles: ['test/setup-zod-openapi.ts'],
    reporters: ['default'],
  },
});
