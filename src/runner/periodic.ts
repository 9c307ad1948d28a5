// One periodic sweep, as the runners use it: at most one pass at a time (a second caller shares the pass under way),
// every `everyMs` once started (while its gate, if any, is open: a cluster's singleton lease), failures logged, and a
// stop that waits for the pass in flight.
import { type Logger, logFailure } from '../logger.js';

export interface PeriodicSweep<T> {
  /** One pass now (or the one already running); tests call it with an injected clock. */
  sweep(): Promise<T>;
  start(): void;
  stop(): Promise<void>;
}

/** Whether this process runs a sweep now; in cluster mode, whether it holds the sweep's singleton lease. */
export type SweepGate = () => boolean;

export function createPeriodicSweep<T>(
  pass: () => Promise<T>,
  options: {
    everyMs: number;
    logger: Logger;
    failure: string;
    gate?: SweepGate | undefined;
    /** The first pass this long after start (then every `everyMs`); absent: `everyMs` after start. */
    firstAfterMs?: number | undefined;
  },
): PeriodicSweep<T> {
  let timer: NodeJS.Timeout | null = null;
  let sweeping: Promise<T> | null = null;

  async function sweep(): Promise<T> {
    if (sweeping) return sweeping;
    sweeping = pass();
    try {
      return await sweeping;
    } finally {
      sweeping = null;
    }
  }

  return {
    sweep,
    start() {
      if (timer) return;
      const tick = () => {
        if (options.gate && !options.gate()) return;
        sweep().catch((error) => logFailure(options.logger, error, options.failure));
      };
      const { firstAfterMs } = options;
      if (firstAfterMs === undefined) timer = setInterval(tick, options.everyMs);
      else
        timer = setTimeout(() => {
          tick();
          timer = setInterval(tick, options.everyMs);
          timer.unref();
        }, firstAfterMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      await sweeping?.catch(() => {});
    },
  };
}

/** What a runner's timer takes from its caller: the logger, an interval tests shorten, the cluster's lease gate. */
export interface TimerDeps {
  logger: Logger;
  everyMs?: number | undefined;
  /** Cluster mode: sweeps only while this instance holds the sweep's singleton lease. */
  gate?: SweepGate | undefined;
}

/** A runner's periodic sweep of `pass`: every `everyMs` (the runner's own interval unless the caller sets one). */
export function createTimer<T>(
  pass: () => Promise<T>,
  deps: TimerDeps,
  own: { everyMs: number; failure: string; firstAfterMs?: number },
): PeriodicSweep<T> {
  return createPeriodicSweep(pass, {
    everyMs: deps.everyMs ?? own.everyMs,
    logger: deps.logger,
    failure: own.failure,
    gate: deps.gate,
    firstAfterMs: own.firstAfterMs,
  });
}
