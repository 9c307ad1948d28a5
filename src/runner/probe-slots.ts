// The bookkeeping of a probe schedule: the slots that cap how many probes run at once, and the ring of how late the
// latest runs started (its stats and the scheduler's lateness metric).

/** At most `concurrency` probes at once; the others wait their turn in order. */
export function createSlots(concurrency: number) {
  const waiting: (() => void)[] = [];
  let active = 0;
  return {
    async acquire(): Promise<void> {
      if (active < concurrency) {
        active++;
        return;
      }
      await new Promise<void>((resolve) => waiting.push(resolve));
    },
    release(): void {
      const next = waiting.shift();
      if (next) next();
      else active--;
    },
    /** Lets every waiting run go (on shutdown: each sees it is stopped and returns). */
    releaseAll(): void {
      for (const resolve of waiting.splice(0)) resolve();
    },
    active: () => active,
    waiting: () => waiting.length,
  };
}

/** How late the latest runs started: a ring of a fixed buffer, so recording one allocates nothing. */
export class LatenessRing {
  private readonly buffer: Float64Array;
  /** Runs recorded since the schedule was made. */
  runs = 0;

  constructor(private readonly size: number) {
    this.buffer = new Float64Array(size);
  }

  record(lateMs: number): void {
    this.buffer[this.runs % this.size] = lateMs;
    this.runs++;
  }

  /** The lateness of the runs since run number `since`, at most the latest `size`. */
  since(since: number): number[] {
    const out: number[] = [];
    for (let run = Math.max(since, this.runs - this.size); run < this.runs; run++)
      out.push(this.buffer[run % this.size] as number);
    return out;
  }

  /** The samples held, in buffer order (as stats() always gave them). */
  samples(): number[] {
    return Array.from(this.buffer.subarray(0, Math.min(this.runs, this.size)));
  }
}
