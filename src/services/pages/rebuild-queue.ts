// When the pages marked dirty are rebuilt: at once after a quiet spell, else once at the end of the debounce window,
// so the results of one ingest batch (or a burst of them) make one rebuild per page.

export interface RebuildQueue {
  mark(pageId: string): void;
  /** Stops: nothing marked from now on is rebuilt. */
  stop(): void;
}

export function createRebuildQueue(debounceMs: number, rebuild: (pageIds: string[]) => void): RebuildQueue {
  const dirty = new Set<string>();
  let timer: NodeJS.Timeout | null = null;
  /** When the last batch of rebuilds started (performance.now(), since the timers are real ones). */
  let lastFlush = Number.NEGATIVE_INFINITY;
  let stopped = false;

  function flush(): void {
    timer = null;
    lastFlush = performance.now();
    const ids = [...dirty];
    dirty.clear();
    rebuild(ids);
  }

  return {
    mark(pageId) {
      dirty.add(pageId);
      if (timer || stopped) return;
      const wait = lastFlush + debounceMs - performance.now();
      // setImmediate-like when quiet: results committed together (one ingest batch) still make one rebuild.
      timer = setTimeout(flush, Math.max(0, wait));
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
