// Polls the change counter (security.changePollMs) and, when another process committed a config or API write, has this
// one forget and reload what it keeps in memory: push tokens and the outbox's rules at once, then pages and the monitors
// it runs. Writes made here apply at once through the bus; this is how a second process on the same database follows.
import { type Logger, logFailure } from '../logger.js';
import type { Store } from '../store/index.js';

export interface ChangeWatch {
  /**
   * Reads the counter; when it moved since the last read, forgets at once and resolves once a reload that started
   * after the move is done. Resolves with whether it moved.
   */
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
  /** Drops what answers requests from memory (cheap, synchronous): run on every move, even while a reload runs. */
  forget: () => void;
  /** Rebuilds what is kept in memory. A slow one does not hold up the next poll; moves meanwhile run it once more. */
  reload: () => Promise<void>;
}): ChangeWatch {
  let seen: number | null = null;
  let timer: NodeJS.Timeout | null = null;
  let reading: Promise<unknown> | null = null;
  let reloading: Promise<void> | null = null;
  /** A move came while a reload ran (or one failed): run it again once it is done. */
  let again = false;
  let stopped = false;

  async function reloadUntilSettled(): Promise<void> {
    do {
      again = false;
      try {
        await deps.reload();
      } catch (error) {
        logFailure(deps.logger, error, 'reloading after another process wrote failed');
        // Retried at the next poll, whether or not the counter moves again.
        seen = null;
        return;
      }
    } while (again && !stopped);
  }

  function requestReload(): Promise<void> {
    if (reloading) {
      again = true;
      // Settles once the run that sees this move is done (the loop runs it before it ends).
      return reloading;
    }
    reloading = reloadUntilSettled().finally(() => {
      reloading = null;
    });
    return reloading;
  }

  /** Reads the counter; on a move, forgets and asks for a reload. Does not wait for the reload. */
  async function read(): Promise<{ reloaded: Promise<void> } | null> {
    // Read before reloading: a write committed during the reload moves the counter again and is caught next time.
    const version = await deps.store.changes.current();
    if (seen === version) return null;
    seen = version;
    deps.forget();
    // Wrapped: an async function returning a promise would wait for it.
    return { reloaded: requestReload() };
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      reading = read()
        .catch((error) => logFailure(deps.logger, error, 'polling the change counter failed'))
        .finally(() => {
          reading = null;
          schedule();
        });
    }, deps.everyMs);
    timer.unref();
  }

  return {
    async poll() {
      const moved = await read();
      if (!moved) return false;
      await moved.reloaded;
      return true;
    },
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
      await reading;
      await reloading;
    },
  };
}
