// The boards as one running part: the keeper's pass every few seconds and on each page rebuild, the sender's every
// second (woken sooner when the keeper recorded an edit). Started after the page cache, stopped before it.
import type { Clock } from '../domain/clock.js';
import type { Logger } from '../logger.js';
import type { TargetGuard } from '../net/target-guard.js';
import { createBoardSender } from '../notify/boards/sender.js';
import type { Store } from '../store/index.js';
import { type BoardPages, createBoardKeeper } from './board-keeper.js';
import { createPeriodicSweep } from './periodic.js';

export const BOARD_TIMING = { keepEveryMs: 5_000, sendEveryMs: 1_000 } as const;

export interface Boards {
  start(): void;
  stop(): Promise<void>;
  /** One keeper pass then one send pass: tests drive it with an injected clock. */
  sweep(): Promise<{ recorded: number; shown: number }>;
}

export function createBoards(deps: {
  store: Store;
  clock: Clock;
  logger: Logger;
  pages: BoardPages;
  guards: (organizationId: string) => Promise<TargetGuard>;
  timing?: Partial<typeof BOARD_TIMING>;
}): Boards {
  const timing = { ...BOARD_TIMING, ...deps.timing };
  const stopping = new AbortController();
  const keeper = createBoardKeeper(deps);
  const send = createBoardSender({ ...deps, signal: stopping.signal });
  const keeping = createPeriodicSweep(() => keeper.pass(), {
    everyMs: timing.keepEveryMs,
    logger: deps.logger,
    failure: 'boards: render failed',
    firstAfterMs: 0,
  });
  const sending = createPeriodicSweep(send, {
    everyMs: timing.sendEveryMs,
    logger: deps.logger,
    failure: 'boards: send failed',
  });
  let unfollow: (() => void) | null = null;
  return {
    start() {
      unfollow = keeper.follow();
      keeping.start();
      sending.start();
    },
    async stop() {
      unfollow?.();
      stopping.abort();
      await Promise.all([keeping.stop(), sending.stop()]);
    },
    async sweep() {
      const recorded = await keeping.sweep();
      return { recorded, shown: await sending.sweep() };
    },
  };
}
