import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/sequencer.js';
import { measureTimeScale, timeScale } from './test/time-scale.js';

// Measured once here and inherited by the workers (test/time-scale.ts): the time limits grow on a slow machine.
if (process.env.WARDEN_TEST_TIME_SCALE === undefined) {
  process.env.WARDEN_TEST_TIME_SCALE = String(measureTimeScale());
  const measured = timeScale();
  if (measured > 1)
    console.log(`warden: JavaScript runs ${measured}× slower than usual here; time limits × ${measured}`);
}
const scale = timeScale();

/**
 * Tests that hold a server to a time, under a fault or across processes (stores again within 5 s of the disk having
 * room, a change on one process seen on another within 2 s, a push on one reaching a live stream on another within
 * 1 s) measure the server, not the machine: they run after the rest, on their own, so three other files starving two
 * cores cannot stretch those seconds. Their bounds are not scaled (test/time-scale.ts): they are what users are told.
 */
const TIMED_UNDER_FAULT = [
  'test/e2e/hardening-faults.test.ts',
  'test/e2e/hardening-changes.test.ts',
  'test/e2e/cluster-events.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: Math.round(20_000 * scale),
    hookTimeout: Math.round(30_000 * scale),
    pool: 'forks',
    // Most end-to-end files wait on sockets, timers and child processes more than they compute: three at once on this
    // two-core machine finishes the suite in about half the time of the default (cores − 1), with no test near a limit.
    maxWorkers: 3,
    // Each file used to load the whole server afresh (~1 s of imports per file, 190 s of the run): a worker keeps its
    // modules between files instead. Safe because nothing keeps state at module level (ARCHITECTURE: explicit wiring,
    // no singletons); each test builds its own store, app and clock.
    isolate: false,
    setupFiles: ['test/setup-zod-openapi.ts'],
    // Keeps the PostgreSQL test database's catalogs compact where autovacuum is off (CI): see the file.
    globalSetup: ['test/global-setup.ts'],
    // Dozens of tests hold the server to a time (a change seen on another process within 1 s, a rebuild within 200 ms)
    // while three files share two cores: in a full run one or two of them miss it, a different one each time, and pass
    // alone. One retry each; a slow path fails twice, and the tests that needed the retry are listed at the end.
    retry: 1,
    reporters: ['default', './test/flaky-reporter.ts', './test/slowest-reporter.ts'],
    // The longest files first, also on a clean clone whose cache holds no durations (test/sequencer.ts).
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'warden',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'web/src/**/*.test.ts'],
          exclude: TIMED_UNDER_FAULT,
        },
      },
      // groupOrder 1: after every file of group 0 has finished, one file at a time.
      {
        extends: true,
        test: { name: 'timed-under-fault', include: TIMED_UNDER_FAULT, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
