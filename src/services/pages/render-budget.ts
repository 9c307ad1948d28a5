// One byte budget for the rendered forms of every page in memory (bodies plus their Brotli and gzip variants), least recently read out first.

/** WARDEN_PAGE_CACHE_MB's default: a few hundred ~90 KB HTML renderings with their variants (see docs/operations.md, Memory). */
export const DEFAULT_PAGE_CACHE_MB = 64;
/** One page version may keep at most this share of the budget: its 8 languages and option sets cannot take everything. */
export const PAGE_SHARE = 0.25;
/** Renderings kept at most, however small (a key and its bookkeeping cost memory too): 8 KiB of them. */
export const MAX_KEPT_RENDERINGS = 8192;
/** Eviction goes down to this share of a limit, so that the next few inserts do not each pay for a scan. */
const EVICT_TO = 0.9;

/**
 * One kept rendering. A read stamps it (an integer store: no Map work, no clock); the budget drops the lowest stamps.
 * Once dropped or released it is `dead`: bytes made for it later (a variant compressed by a request already under way)
 * are not counted, and go with it when that request is done.
 */
export interface KeptRendering {
  /** Marks the rendering as just read. */
  read(): void;
  /** Its bytes grew (a compressed variant was made): counted, and the budget kept (which may drop others, or this one). */
  grow(bytes: number): void;
  readonly dead: boolean;
}

/** The renderings of one page's snapshot version. */
export interface PageRenderings {
  /**
   * Counts a new rendering of `bytes`; `drop` is called if the budget lets it go (the page then forgets it, and renders
   * it again on its next read). Undefined when it is not kept: larger than a page's share, or the version released.
   */
  keep(bytes: number, drop: () => void): KeptRendering | undefined;
  /** The version is replaced or evicted: its bytes leave the budget, and it keeps nothing more. */
  release(): void;
  bytes(): number;
}

export interface RenderBudget {
  readonly maxBytes: number;
  readonly pageMaxBytes: number;
  /** A new snapshot version's account. */
  page(): PageRenderings;
  /** Bytes kept now, over every page (bodies and the variants made so far). */
  bytes(): number;
  /** Renderings kept now. */
  count(): number;
}

class Kept implements KeptRendering {
  stamp: number;
  bytes: number;
  dead = false;
  constructor(
    readonly owner: Account,
    bytes: number,
    readonly drop: () => void,
  ) {
    this.bytes = bytes;
    this.stamp = owner.budget.tick();
  }
  read(): void {
    this.stamp = this.owner.budget.tick();
  }
  grow(bytes: number): void {
    if (this.dead) return;
    this.bytes += bytes;
    this.owner.grew(this, bytes);
  }
}

class Account implements PageRenderings {
  readonly kept = new Set<Kept>();
  total = 0;
  released = false;
  constructor(readonly budget: Budget) {}

  keep(bytes: number, drop: () => void): KeptRendering | undefined {
    if (this.released || bytes > this.budget.pageMaxBytes) return undefined;
    const kept = new Kept(this, bytes, drop);
    this.kept.add(kept);
    this.grew(kept, bytes);
    // Dropped at once only if it alone nearly fills the page's share: served, not kept.
    return kept.dead ? undefined : kept;
  }

  grew(kept: Kept, bytes: number): void {
    this.total += bytes;
    this.budget.grew(kept, bytes);
    // Over its share: this page's least recently read go first (the one just read or made is the newest, so last).
    if (this.total > this.budget.pageMaxBytes)
      this.budget.evict(this.kept, this.budget.pageMaxBytes * EVICT_TO, Number.POSITIVE_INFINITY, this);
    this.budget.fit();
  }

  release(): void {
    this.released = true;
    for (const kept of this.kept) this.budget.forget(kept);
    this.kept.clear();
    this.total = 0;
  }

  bytes(): number {
    return this.total;
  }
}

class Budget implements RenderBudget {
  readonly all = new Set<Kept>();
  total = 0;
  private clock = 0;
  readonly pageMaxBytes: number;
  constructor(
    readonly maxBytes: number,
    readonly maxCount: number,
  ) {
    this.pageMaxBytes = Math.floor(maxBytes * PAGE_SHARE);
  }

  tick(): number {
    return ++this.clock;
  }

  page(): PageRenderings {
    return new Account(this);
  }

  bytes(): number {
    return this.total;
  }

  count(): number {
    return this.all.size;
  }

  grew(kept: Kept, bytes: number): void {
    this.all.add(kept);
    this.total += bytes;
  }

  fit(): void {
    if (this.total > this.maxBytes || this.all.size > this.maxCount)
      this.evict(this.all, this.maxBytes * EVICT_TO, Math.floor(this.maxCount * EVICT_TO));
  }

  /** Drops the least recently read of `from` until the bytes (of `account`, else of the budget) and count fit. Rare: sorts. */
  evict(from: Set<Kept>, bytesTo: number, countTo: number, account?: Account): void {
    const oldestFirst = [...from].sort((a, b) => a.stamp - b.stamp);
    for (const kept of oldestFirst) {
      const bytes = account ? account.total : this.total;
      if (bytes <= bytesTo && from.size <= countTo) break;
      kept.owner.kept.delete(kept);
      this.forget(kept);
      kept.drop();
    }
  }

  /** Takes a rendering's bytes out of the budget and its page's account. */
  forget(kept: Kept): void {
    if (kept.dead) return;
    kept.dead = true;
    this.all.delete(kept);
    this.total -= kept.bytes;
    if (!kept.owner.released) kept.owner.total -= kept.bytes;
  }
}

/** `maxBytes`: the budget over every page (WARDEN_PAGE_CACHE_MB); a page version keeps at most a quarter of it. */
export function createRenderBudget(
  maxBytes: number = DEFAULT_PAGE_CACHE_MB * 1024 * 1024,
  maxCount: number = MAX_KEPT_RENDERINGS,
): RenderBudget {
  return new Budget(maxBytes, maxCount);
}
