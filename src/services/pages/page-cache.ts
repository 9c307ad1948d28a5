// Keeps each page's snapshot and rendered forms in memory, so reads do no database work. A page read in the last few
// seconds, or watched (live clients, boards), is rebuilt when an event touches it; any other page held is only marked,
// and its next read rebuilds it: ten thousand pages nobody is looking at cost nothing per result.
import type { Bus } from '../../bus/bus.js';
import { type PageAsset, type PageAssetName, pageAssetVersion } from '../../domain/branding.js';
import type { Clock } from '../../domain/clock.js';
import type { Page } from '../../domain/page.js';
import { type Logger, logFailure } from '../../logger.js';
import type { Store } from '../../store/index.js';
import type { CachedPage } from './cached-page.js';
import { createPageBuilds, type SnapshotRebuilt } from './page-builds.js';
import { createPageFollows } from './page-follows.js';
import { createPageIndex } from './page-index.js';
import { createPageInterest } from './page-interest.js';
import { createRebuildQueue } from './rebuild-queue.js';

export type { CachedPage, RenderedForm } from './cached-page.js';
export type { SnapshotRebuilt } from './page-builds.js';
export { HOT_READ_MS } from './page-interest.js';

/** A snapshot is rebuilt at least this often while people read the page. */
export const SNAPSHOT_MAX_AGE_MS = 30_000;
/**
 * A page is rebuilt at most once per this window: the first event after a quiet spell rebuilds at once (so the live
 * stream and readers see a change within milliseconds), events arriving during the window cause one more rebuild at
 * its end.
 */
export const REBUILD_DEBOUNCE_MS = 250;
/** Pages nobody read for this long are dropped from memory; the next read builds them again. */
const IDLE_EVICT_MS = 10 * 60_000;

export interface PageCache {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** The page with this slug, from memory. */
  pageBySlug(slug: string): Page | undefined;
  /**
   * The page whose verified custom domain is this Host (any port, trailing dot or case), from memory. Never one for
   * the service's own host, localhost or an IP address: those are the main address.
   */
  pageByDomain(host: string): Page | undefined;
  pages(): Page[];
  /** The cached snapshot and forms; builds them if the page is cold. */
  get(page: Page): Promise<CachedPage>;
  /** The cached snapshot if the page is warm, without waiting; undefined when it must be built. */
  peek(page: Page): CachedPage | undefined;
  /** Drops what is known about pages and rebuilds (after config or API changes). */
  refreshIndex(): Promise<void>;
  /** Moves each time the index of pages (slugs, domains, the Page objects) is reloaded: memos of lookups key on it. */
  indexVersion(): number;
  /** Re-reads the index and rebuilds every page in memory: another process wrote (the change counter moved). */
  refreshAll(): Promise<void>;
  /**
   * Keeps the page rebuilt as events arrive however seldom it is read (the live hub while it has listeners); returns
   * the release. `onSnapshot` hears of a page's changes promptly only while the page is watched or read.
   */
  watch(pageId: string): () => void;
  /**
   * Calls the listener after each rebuild of a page's snapshot, synchronously, once the new version is what
   * `peek` and `get` return. The live hub diffs `previous` against `snapshot`. Returns the unsubscribe.
   */
  onSnapshot(listener: (event: SnapshotRebuilt) => void): () => void;
  /** The monitors shown on the pages held in memory: whose results rebuild a page now (cluster mode polls them while Redis is down). */
  monitorsInMemory(): string[];
  /** The rendered forms held now, over every page: bytes (bodies and the compressed variants made) and renderings. */
  rendered(): { bytes: number; renderings: number };
  /**
   * The page's uploaded image as its current snapshot links it, with that link's version (bytes from memory once read);
   * undefined when the page shows none of its own (none uploaded, or an external URL).
   */
  asset(page: Page, name: PageAssetName): Promise<{ asset: PageAsset; version: string } | undefined>;
}

export interface PageCacheDeps {
  store: Store;
  bus: Bus;
  clock: Clock;
  logger: Logger;
  baseUrl: () => string;
  smtp?: unknown;
  renderBytes?: number | undefined;
}

/**
 * `smtp`: the system SMTP server, when set (the snapshot then offers email subscriptions). `renderBytes`: the bytes
 * the rendered forms of every page may hold together (WARDEN_PAGE_CACHE_MB), least recently read out first.
 */
export function createPageCache(deps: PageCacheDeps): PageCache {
  const index = createPageIndex(deps.store, deps.baseUrl);
  const pages = createPageBuilds(deps);
  const queue = createRebuildQueue(REBUILD_DEBOUNCE_MS, rebuild);
  const follows = createPageFollows(deps.bus);
  /** Cold builds under way, per organization. */
  const building = new Map<string, number>();
  const unsubscribes: (() => void)[] = [];
  const interest = createPageInterest(deps.clock);
  let ticker: NodeJS.Timeout | null = null;
  let lastIndexLoad = 0;

  async function loadIndex(): Promise<void> {
    const known = await index.load();
    for (const [id] of [...pages.entries()]) if (!known.has(id)) forget(id);
  }

  function forget(pageId: string): void {
    pages.forget(pageId);
    interest.clear(pageId);
  }

  /** The page's data changed: rebuilt soon if someone is looking, else on its next read. */
  function markDirty(pageId: string): void {
    const entry = pages.entry(pageId);
    if (!entry) return;
    if (interest.eager(pageId, entry.lastRead)) queue.mark(pageId);
    else interest.markChanged(pageId);
  }

  function rebuild(ids: string[]): void {
    for (const id of ids) {
      const entry = pages.entry(id);
      const page = entry && index.bySlug(entry.cached.page.slug);
      if (!page) continue;
      interest.clear(id);
      // A build already running may have read the database before the change that marked the page: build again after it.
      const running = pages.running(id);
      if (running) {
        void running.finally(() => markDirty(id)).catch(() => {});
        continue;
      }
      pages.build(page).catch((error) => logFailure(deps.logger, error, 'rebuilding page failed', { page: page.slug }));
    }
  }

  function tick(): void {
    const now = deps.clock.now();
    // A fallback: writes by another process (the CLI, a second server) move the change counter, polled every second.
    if (now - lastIndexLoad >= SNAPSHOT_MAX_AGE_MS) {
      lastIndexLoad = now;
      loadIndex().catch((error) => logFailure(deps.logger, error, 'reloading pages failed'));
    }
    const held = new Set<string>();
    for (const [id, entry] of [...pages.entries()]) {
      if (now - entry.lastRead > IDLE_EVICT_MS) {
        forget(id);
        continue;
      }
      held.add(entry.cached.page.organizationId);
      // Pages nobody looks at age until read (then revalidated behind the reader, as `peek` does).
      if (now - entry.cached.builtAt >= SNAPSHOT_MAX_AGE_MS - REBUILD_DEBOUNCE_MS && interest.eager(id, entry.lastRead))
        queue.mark(id);
    }
    // A build under way keeps its organization followed (its entry appears when it ends).
    for (const organizationId of building.keys()) held.add(organizationId);
    follows.keepOnly(held);
  }

  /**
   * A cold page: its organization's monitor events are followed first, so that a result another process commits after
   * the build reads the database still rebuilds it.
   */
  async function buildCold(page: Page): Promise<CachedPage> {
    building.set(page.organizationId, (building.get(page.organizationId) ?? 0) + 1);
    try {
      await follows.follow(page.organizationId);
      return await pages.build(page);
    } finally {
      const left = (building.get(page.organizationId) ?? 1) - 1;
      if (left > 0) building.set(page.organizationId, left);
      else building.delete(page.organizationId);
    }
  }

  function peek(page: Page): CachedPage | undefined {
    const entry = pages.entry(page.id);
    if (!entry || entry.cached.page.updatedAt !== page.updatedAt) return undefined;
    const now = deps.clock.now();
    entry.lastRead = now;
    // Changed while nobody read it: what is held is known to be out of date, so `get` rebuilds it before answering.
    if (interest.isChanged(page.id)) return undefined;
    // Stale-while-revalidate: a reader never waits for a rebuild merely because the page is old.
    if (now - entry.cached.builtAt >= SNAPSHOT_MAX_AGE_MS) queue.mark(page.id);
    return entry.cached;
  }

  async function get(page: Page): Promise<CachedPage> {
    const held = peek(page);
    if (held) return held;
    if (interest.isChanged(page.id) && pages.entry(page.id))
      return interest.catchUp(page.id, pages.running(page.id), () => pages.build(page));
    return buildCold(page);
  }

  function onPageChanged(event: { pageId: string }): void {
    void loadIndex()
      .then(() => {
        const entry = pages.entry(event.pageId);
        const page = entry && index.bySlug(entry.cached.page.slug);
        if (page) return pages.build(page);
        forget(event.pageId);
      })
      .catch((error) => logFailure(deps.logger, error, 'reloading pages failed'));
  }

  return {
    async start() {
      await loadIndex();
      lastIndexLoad = deps.clock.now();
      const onMonitor = (event: { monitorId: string }) => {
        for (const pageId of index.pagesOf(event.monitorId)) markDirty(pageId);
      };
      unsubscribes.push(deps.bus.subscribe('monitor.checked', onMonitor));
      unsubscribes.push(deps.bus.subscribe('monitor.state', onMonitor));
      unsubscribes.push(deps.bus.subscribe('page.changed', onPageChanged));
      ticker = setInterval(tick, 1000);
      ticker.unref();
    },
    async stop() {
      queue.stop();
      for (const unsubscribe of unsubscribes) unsubscribe();
      if (ticker) clearInterval(ticker);
      follows.releaseAll();
      await pages.stop();
    },
    pageBySlug: index.bySlug,
    pageByDomain: index.byDomain,
    pages: index.pages,
    peek,
    get,
    watch: interest.watch,
    refreshIndex: loadIndex,
    indexVersion: index.version,
    async refreshAll() {
      await loadIndex();
      for (const [id] of [...pages.entries()]) markDirty(id);
    },
    rendered: pages.rendered,
    onSnapshot: pages.onSnapshot,
    async asset(page, name) {
      const cached = await get(page);
      const version = pageAssetVersion(cached.snapshot.page.branding[name], name);
      const asset = version === undefined ? undefined : await pages.asset.get(page.id, name, version);
      return asset && version !== undefined ? { asset, version } : undefined;
    },
    monitorsInMemory: () => monitorsOnBuiltPages(index, pages),
  };
}

/** The monitors shown on at least one page whose snapshot is in memory. */
function monitorsOnBuiltPages(
  index: { monitors(): Iterable<[string, Iterable<string>]> },
  pages: { entry(pageId: string): unknown },
): string[] {
  const ids: string[] = [];
  for (const [monitorId, pageIds] of index.monitors())
    for (const pageId of pageIds)
      if (pages.entry(pageId)) {
        ids.push(monitorId);
        break;
      }
  return ids;
}
