// Which held pages are rebuilt as events arrive and which wait for their next read. A page read within the last few
// seconds, or watched (the live hub while it has listeners), is rebuilt at once (debounced); any other held page whose
// data changes is only marked, and the next read rebuilds it before answering: pages nobody is looking at cost
// nothing per stored result.
import type { Clock } from '../../domain/clock.js';
import type { CachedPage } from './cached-page.js';

/**
 * A page read within this window is rebuilt as events arrive, so its readers never wait; a page read less often is
 * marked changed instead, and the read that finds it so waits for one rebuild (a few milliseconds).
 */
export const HOT_READ_MS = 10_000;

export interface PageInterest {
  /** Read recently or watched: to be rebuilt as events arrive. */
  eager(pageId: string, lastRead: number): boolean;
  watch(pageId: string): () => void;
  /** The page's data changed while it is not eager: its next read rebuilds it. */
  markChanged(pageId: string): void;
  isChanged(pageId: string): boolean;
  /** A rebuild starting now covers what was marked (an eager rebuild, a page dropped from memory). */
  clear(pageId: string): void;
  /**
   * The read of a page marked changed: `build` once, after any build already running (it may predate the change);
   * readers arriving meanwhile share it. A change marked during the build stays marked.
   */
  catchUp(pageId: string, running: Promise<unknown> | undefined, build: () => Promise<CachedPage>): Promise<CachedPage>;
}

export function createPageInterest(clock: Clock): PageInterest {
  const watchers = new Map<string, number>();
  const changed = new Map<string, number>();
  const catchingUp = new Map<string, Promise<CachedPage>>();
  let marks = 0;

  return {
    eager: (pageId, lastRead) => watchers.has(pageId) || clock.now() - lastRead < HOT_READ_MS,
    watch(pageId) {
      watchers.set(pageId, (watchers.get(pageId) ?? 0) + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (watchers.get(pageId) ?? 1) - 1;
        if (left > 0) watchers.set(pageId, left);
        else watchers.delete(pageId);
      };
    },
    markChanged: (pageId) => void changed.set(pageId, ++marks),
    isChanged: (pageId) => changed.has(pageId),
    clear: (pageId) => void changed.delete(pageId),
    catchUp(pageId, running, build) {
      const pending = catchingUp.get(pageId);
      if (pending) return pending;
      const mark = changed.get(pageId);
      const next = (async () => {
        if (running) await running.catch(() => {});
        const cached = await build();
        if (changed.get(pageId) === mark) changed.delete(pageId);
        return cached;
      })().finally(() => catchingUp.delete(pageId));
      catchingUp.set(pageId, next);
      return next;
    },
  };
}
