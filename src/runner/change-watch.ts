// Polls the change counter (security.changePollMs) and, when another process committed a config or API write, has this
// one reload what it keeps in memory: pages, push tokens, the monitors it runs. Writes made here apply at once through
// the bus; this is how a second process on the same database follows within a poll.
import { type Logger, logFailure } from '../logger.js';
import type { Store } from '../store/index.js';

export interface ChangeWatch {
  /** Reads the counter; runs `onChange` when it moved since the last read. Resolves with whether it did. */
  poll(): Promise<boolean>;
  /** Reads the counter's value now, so writes committed from here on are seen (before the caches load their state). */
  prime(): Promise<void>;
  /** Starts polling (priming first if that was not done). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export function createChangeWatch(deps: {
  store: Store;
  logger: Logger;
  everyMs: number;
  onChange: () => Promise<void>;
}): ChangeWatch {
  let seen: number | null = null;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let stopped = false;

  async function poll(): Promise<boolean> {
    // Read before reloading: a write committed during the reload moves the counter again and is caught next time.
    const version = await deps.store.changes.current();
    if (seen === version) return false;
    seen = version;
    await deps.onChange();
    return true;
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = poll()
        .catch((error) => logFailure(deps.logger, error, 'polling the change counter failed'))
        .finally(() => {
          running = null;
          schedule();
        });
    }, deps.everyMs);
    timer.unref();
  }

  return {
    poll,
    async prime() {
      seen = await deps.store.changes.current();
    },
    async start() {
      if (seen === null) seen = await deps.store.changes.current();
      schedule();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
