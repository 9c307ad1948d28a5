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
  options: { everyMs: number; logger: Logger; failure: string; gate?: SweepGate | undefined },
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
      timer = setInterval(() => {
        if (options.gate && !options.gate()) return;
        sweep().catch((error) => logFailure(options.logger, error, options.failure));
      }, options.everyMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await sweeping?.catch(() => {});
    },
  };
}
