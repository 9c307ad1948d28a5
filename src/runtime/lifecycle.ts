// The server's parts started in order and stopped in reverse: one list instead of a start order, a stop order and a
// clean-up after a failed start kept by hand. A start that fails part-way stops what had started (the listening socket,
// the leases, Redis, the store), then fails with the start's error; a stop past its time budget moves on to the next part.
import type { Logger } from '../logger.js';

export interface Part {
  /** What the logs call it, and what a test names to make its start fail (test/lifecycle.test.ts). */
  name: string;
  start(): Promise<void> | void;
  /** Undoes start; called once, and only for a part whose start returned. */
  stop(): Promise<void> | void;
}

export interface LifecycleOptions {
  logger: Logger;
  /** Whole budget of a stop: a part still stopping when it is spent is left to finish on its own, and the next is stopped. */
  stopBudgetMs: number;
  /** Called after each part started (tests throw here to fail the start at that part); a throw fails the start there. */
  afterStart?: ((name: string) => Promise<void> | void) | undefined;
}

export interface Lifecycle {
  /** Starts every part in order; on a failure, stops those started (in reverse) and rethrows the failure. */
  start(): Promise<void>;
  /** Stops the started parts in reverse order (once; later calls wait for the same stop). */
  stop(): Promise<void>;
  /** The names of the parts started and not stopped yet, in start order. */
  running(): string[];
}

export function createLifecycle(parts: readonly Part[], options: LifecycleOptions): Lifecycle {
  const names = new Set<string>();
  for (const part of parts) {
    if (names.has(part.name)) throw new Error(`two parts are named ${part.name}`);
    names.add(part.name);
  }
  const started: Part[] = [];
  let stopping: Promise<void> | null = null;

  async function stopAll(): Promise<void> {
    const deadline = Date.now() + options.stopBudgetMs;
    while (started.length > 0) {
      const part = started.pop() as Part;
      const left = Math.max(0, deadline - Date.now());
      const outcome = await withinBudget(part, left);
      if (outcome === 'late')
        options.logger.warn(
          { part: part.name, budgetMs: options.stopBudgetMs },
          'stopping a part outlasted the shutdown budget: moving on',
        );
      else if (outcome !== 'stopped')
        options.logger.error({ err: outcome.error, part: part.name }, 'stopping a part failed');
    }
  }

  const stop = (): Promise<void> => {
    stopping ??= stopAll();
    return stopping;
  };

  return {
    async start() {
      if (stopping) throw new Error('this lifecycle was stopped');
      for (const part of parts) {
        try {
          await part.start();
        } catch (error) {
          options.logger.error({ err: error, part: part.name }, 'start failed: stopping what had started');
          await stop();
          throw error;
        }
        started.push(part);
        // Stopped while this part was starting (a signal during the start): what started after the stop ran goes too.
        if (stopping) {
          await stopping;
          await stopAll();
          throw new Error('stopped while starting');
        }
        try {
          await options.afterStart?.(part.name);
        } catch (error) {
          await stop();
          throw error;
        }
      }
    },
    stop,
    running: () => started.map((part) => part.name),
  };
}

/** A part's stop, waited for at most `ms` (it goes on in the background past that: a socket closing, a query ending). */
async function withinBudget(part: Part, ms: number): Promise<'stopped' | 'late' | { error: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  const stopped = (async () => {
    try {
      await part.stop();
      return 'stopped' as const;
    } catch (error) {
      return { error };
    }
  })();
  try {
    return await Promise.race([stopped, late]);
  } finally {
    clearTimeout(timer);
  }
}
