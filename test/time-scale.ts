// How much slower this machine runs JavaScript now than the machine the suite's time limits were set on. Those limits
// catch a hang, not a slow machine: a shared VM that runs a loop four times slower than usual (seen here) would
// otherwise fail tens of browser and process tests on their limits alone. vitest.config.ts measures once and passes
// the factor to its workers in WARDEN_TEST_TIME_SCALE; tests with a limit of their own scale it with `scaled`.

/** Time of this loop, in ms, on the machines the limits were set on (18 ms seen here on a quick day, ~100 on a slow). */
const REFERENCE_MS = 30;
/** A hang still fails: limits grow at most this much. */
const MAX_SCALE = 4;

function loop(): number {
  let sum = 0;
  for (let i = 0; i < 2e7; i++) sum += i % 7;
  return sum;
}

/** Measures the factor: the best of five runs of a fixed loop against its reference time, from 1 to MAX_SCALE. */
export function measureTimeScale(): number {
  let best = Number.POSITIVE_INFINITY;
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    loop();
    best = Math.min(best, performance.now() - started);
  }
  return Math.round(Math.min(MAX_SCALE, Math.max(1, best / REFERENCE_MS)) * 10) / 10;
}

/** The factor the suite runs with: from the environment (set by vitest.config.ts, or by hand), else 1. */
export function timeScale(): number {
  return Math.min(MAX_SCALE, Math.max(1, Number(process.env.WARDEN_TEST_TIME_SCALE) || 1));
}

/** A test's own time limit on this machine. */
export const scaled = (ms: number): number => Math.round(ms * timeScale());
