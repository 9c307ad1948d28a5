// Keeps each page's snapshot and rendered forms in memory, rebuilt when an event touches the page or after 30 s, so reads do no database work.
import type { Bus } from '../../bus/bus.js';
import { type PageAsset, type PageAssetName, pageAssetVersion } from '../../domain/branding.js';
import type { Clock } from '../../domain/clock.js';
import { baseHostOf, normalizeHost, reservedDomainProblem } from '../../domain/custom-domain.js';
import type { Page } from '../../domain/page.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { type Logger, logFailure } from '../../logger.js';
import type { FormImages } from '../../render/forms.js';
import type { Store } from '../../store/index.js';
import { createAssetCache } from './asset-cache.js';
import { buildSnapshot } from './build-snapshot.js';
import { type CachedPage, withForms } from './cached-page.js';
import { createRenderBudget, DEFAULT_PAGE_CACHE_MB } from './render-budget.js';

export type { CachedPage, RenderedForm } from './cached-page.js';

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
/** A page's snapshot was (re)built: `previous` is the version it replaces, undefined when the page was cold. */
export interface SnapshotRebuilt {
  page: Page;
  snapshot: Snapshot;
  previous: Snapshot | undefined;
}

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

interface Entry {
  cached: CachedPage;
  lastRead: number;
}

/**
 * `smtp`: the system SMTP server, when set (the snapshot then offers email subscriptions). `renderBytes`: the bytes
 * the rendered forms of every page may hold together (WARDEN_PAGE_CACHE_MB), least recently read out first.
 */
export function createPageCache(deps: { store: Store; bus: Bus; clock: Clock; logger: Logger; baseUrl: () => string; smtp?: unknown; renderBytes?: number | undefined }): PageCache {
  let bySlug = new Map<string, Page>();
  let byDomain = new Map<string, Page>();
  let pagesByMonitor = new Map<string, Set<string>>();
  let indexVersion = 0;
  const entries = new Map<string, Entry>();
  const budget = createRenderBudget(deps.renderBytes ?? DEFAULT_PAGE_CACHE_MB * 1024 * 1024);
  const building = new Map<string, Promise<CachedPage>>();
  const dirty = new Set<string>();
  const unsubscribes: (() => void)[] = [];
  const listeners = new Set<(event: SnapshotRebuilt) => void>();
  const assets = createAssetCache(deps.store);
  let debounce: NodeJS.Timeout | null = null;
  /** When the last batch of rebuilds started (performance.now(), since the timers are real ones). */
  let lastFlush = Number.NEGATIVE_INFINITY;
  let ticker: NodeJS.Timeout | null = null;
  let stopped = false;

  async function loadIndex(): Promise<void> {
    const [pages, links] = await Promise.all([deps.store.pages.list(), deps.store.components.monitorLinks()]);
    bySlug = new Map(pages.map((p) => [p.slug, p]));
    indexVersion++;
    // Only proven domains serve a page: one set through the API waits for its TXT record (warden.yaml's are verified).
    byDomain = new Map(pages.filter((p) => p.customDomain !== null && p.customDomainVerifiedAt !== null).map((p) => [p.customDomain as string, p]));
    const map = new Map<string, Set<string>>();
    for (const link of links) {
      const set = map.get(link.monitorId) ?? new Set<string>();
      set.add(link.pageId);
      map.set(link.monitorId, set);
    }
    pagesByMonitor = map;
    const known = new Set(pages.map((p) => p.id));
    for (const id of entries.keys()) if (!known.has(id)) forget(id);
  }

  /** Drops a page from memory: its renderings leave the budget (a request still holding them is served). */
  function forget(pageId: string): void {
    entries.get(pageId)?.cached.release();
    entries.delete(pageId);
  }

  let own: { baseUrl: string; host: string | undefined } | null = null;
  function ownHost(): string | undefined {
    const baseUrl = deps.baseUrl();
    if (own?.baseUrl !== baseUrl) own = { baseUrl, host: baseHostOf(baseUrl) };
    return own.host;
  }
  function pageUrl(page: Page): string {
    return `${deps.baseUrl()}/s/${page.slug}`;
  }

  async function build(page: Page): Promise<CachedPage> {
    const pending = building.get(page.id);
    if (pending) return pending;
    const promise = (async () => {
      const now = deps.clock.now();
      const snapshot = await buildSnapshot(deps, { page, now, pageUrl: pageUrl(page), previous: entries.get(page.id)?.cached.snapshot });
      const images = await imagesOf(page, snapshot);
      const previous = entries.get(page.id);
      const cached = withForms(page, snapshot, now, images, budget.page());
      entries.set(page.id, { cached, lastRead: previous?.lastRead ?? now });
      // The version replaced stops counting: what the fast path may still be serving from it goes with its last request.
      previous?.cached.release();
      notify({ page, snapshot, previous: previous?.cached.snapshot });
      return cached;
    })();
    building.set(page.id, promise);
    try {
      return await promise;
    } finally {
      building.delete(page.id);
    }
  }

  /** The uploaded logo's bytes for og.png (PNG or JPEG, what its renderer embeds); read once per version. */
  async function imagesOf(page: Page, snapshot: Snapshot): Promise<FormImages> {
    const version = pageAssetVersion(snapshot.page.branding.logo, 'logo');
    const logo = version === undefined ? undefined : await assets.get(page.id, 'logo', version);
    return logo && (logo.contentType === 'image/png' || logo.contentType === 'image/jpeg') ? { logo: { contentType: logo.contentType, body: logo.body } } : {};
  }

  function notify(event: SnapshotRebuilt): void {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        deps.logger.error({ err: error, page: event.page.slug }, 'snapshot listener failed');
      }
    }
  }

  function markDirty(pageId: string): void {
    if (!entries.has(pageId)) return;
    dirty.add(pageId);
    if (debounce || stopped) return;
    const wait = lastFlush + REBUILD_DEBOUNCE_MS - performance.now();
    // setImmediate-like when quiet: results committed together (one ingest batch) still make one rebuild.
    debounce = setTimeout(flush, Math.max(0, wait));
  }

  function flush(): void {
    debounce = null;
    lastFlush = performance.now();
    const ids = [...dirty];
    dirty.clear();
    for (const id of ids) {
      const entry = entries.get(id);
      const page = entry && bySlug.get(entry.cached.page.slug);
      if (!page) continue;
      // A build already running may have read the database before the change that marked the page: build again after it.
      const running = building.get(id);
      if (running) {
        void running.finally(() => markDirty(id)).catch(() => {});
        continue;
      }
      build(page).catch((error) => logFailure(deps.logger, error, 'rebuilding page failed', { page: page.slug }));
    }
  }

  let lastIndexLoad = 0;

  function tick(): void {
    const now = deps.clock.now();
    // A fallback: writes by another process (the CLI, a second server) move the change counter, polled every second.
    if (now - lastIndexLoad >= SNAPSHOT_MAX_AGE_MS) {
      lastIndexLoad = now;
      loadIndex().catch((error) => logFailure(deps.logger, error, 'reloading pages failed'));
    }
    for (const [id, entry] of entries) {
      if (now - entry.lastRead > IDLE_EVICT_MS) forget(id);
      else if (now - entry.cached.builtAt >= SNAPSHOT_MAX_AGE_MS - REBUILD_DEBOUNCE_MS) markDirty(id);
    }
  }

  function peek(page: Page): CachedPage | undefined {
    const entry = entries.get(page.id);
    if (!entry || entry.cached.page.updatedAt !== page.updatedAt) return undefined;
    const now = deps.clock.now();
    entry.lastRead = now;
    // Stale-while-revalidate: a reader never waits for a rebuild of a page that is already in memory.
    if (now - entry.cached.builtAt >= SNAPSHOT_MAX_AGE_MS) markDirty(page.id);
    return entry.cached;
  }

  return {
    async start() {
      await loadIndex();
      lastIndexLoad = deps.clock.now();
      const onMonitor = (event: { monitorId: string }) => {
        for (const pageId of pagesByMonitor.get(event.monitorId) ?? []) markDirty(pageId);
      };
      unsubscribes.push(deps.bus.subscribe('monitor.checked', onMonitor));
      unsubscribes.push(deps.bus.subscribe('monitor.state', onMonitor));
      unsubscribes.push(
        deps.bus.subscribe('page.changed', (event) => {
          void loadIndex()
            .then(() => {
              const entry = entries.get(event.pageId);
              const page = entry && bySlug.get(entry.cached.page.slug);
              if (page) return build(page);
              forget(event.pageId);
            })
            .catch((error) => logFailure(deps.logger, error, 'reloading pages failed'));
        }),
      );
      ticker = setInterval(tick, 1000);
      ticker.unref();
    },
    async stop() {
      stopped = true;
      listeners.clear();
      for (const unsubscribe of unsubscribes) unsubscribe();
      if (debounce) clearTimeout(debounce);
      if (ticker) clearInterval(ticker);
      await Promise.allSettled(building.values());
    },
    pageBySlug: (slug) => bySlug.get(slug),
    pageByDomain(host) {
      const name = normalizeHost(host);
      const page = byDomain.get(name);
      // Belt and braces: a row written before these rules, or a base URL changed since, never takes the main address.
      if (!page || reservedDomainProblem(name) !== undefined || name === ownHost()) return undefined;
      return page;
    },
    pages: () => [...bySlug.values()],
    peek,
    async get(page) {
      return peek(page) ?? build(page);
    },
    refreshIndex: loadIndex,
    indexVersion: () => indexVersion,
    async refreshAll() {
      await loadIndex();
      for (const id of entries.keys()) markDirty(id);
    },
    rendered: () => ({ bytes: budget.bytes(), renderings: budget.count() }),
    onSnapshot(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async asset(page, name) {
      const cached = peek(page) ?? (await build(page));
      const version = pageAssetVersion(cached.snapshot.page.branding[name], name);
      const asset = version === undefined ? undefined : await assets.get(page.id, name, version);
      return asset && version !== undefined ? { asset, version } : undefined;
    },
    monitorsInMemory() {
      const ids: string[] = [];
      for (const [monitorId, pageIds] of pagesByMonitor) for (const pageId of pageIds) if (entries.has(pageId)) {
        ids.push(monitorId);
        break;
      }
      return ids;
    },
  };
}
