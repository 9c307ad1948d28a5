// One periodic sweep, as the runners use it: at most one pass at a time (a second caller shares the pass under way),
// every `everyMs` once started, failures logged, and a stop that waits for the pass in flight.
import type { Logger } from '../logger.js';

export interface PeriodicSweep<T> {
  /** One pass now (or the one already running); tests call it with an injected clock. */
  sweep(): Promise<T>;
  start(): void;
  stop(): Promise<void>;
}

export function createPeriodicSweep<T>(pass: () => Promise<T>, options: { everyMs: number; logger: Logger; failure: string }): PeriodicSweep<T> {
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
        sweep().catch((error) => options.logger.error({ err: error }, options.failure));
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
