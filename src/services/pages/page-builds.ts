import { pageAssetVersion } from '../../domain/branding.js';
import type { Clock } from '../../domain/clock.js';
import type { Page } from '../../domain/page.js';
import type { Snapshot } from '../../domain/snapshot.js';
import type { Logger } from '../../logger.js';
import type { FormImages } from '../../render/forms.js';
import type { Store } from '../../store/index.js';
import { type AssetCache, createAssetCache } from './asset-cache.js';
import { buildSnapshot } from './build-snapshot.js';
import { type CachedPage, withForms } from './cached-page.js';
import { createRenderBudget, DEFAULT_PAGE_CACHE_MB } from './render-budget.js';

/** A page's snapshot was (re)built: `previous` is the version it replaces, undefined when the page was cold. */
export interface SnapshotRebuilt {
  page: Page;
  snapshot: Snapshot;
  previous: Snapshot | undefined;
}

export interface PageEntry {
  cached: CachedPage;
  lastRead: number;
}

export interface PageBuilds {
  /** Builds the page's snapshot and forms (joining a build already running) and keeps them. */
  build(page: Page): Promise<CachedPage>;
  /** The build running for this page, if any. */
  running(pageId: string): Promise<CachedPage> | undefined;
  entry(pageId: string): PageEntry | undefined;
  entries(): Iterable<[string, PageEntry]>;
  /** Drops a page from memory: its renderings leave the budget (a request still holding them is served). */
  forget(pageId: string): void;
  onSnapshot(listener: (event: SnapshotRebuilt) => void): () => void;
  rendered(): { bytes: number; renderings: number };
  asset: AssetCache;
  /** Waits for the builds running; no listener hears of them. */
  stop(): Promise<void>;
}

export function createPageBuilds(deps: {
  store: Store;
  clock: Clock;
  logger: Logger;
  baseUrl: () => string;
  smtp?: unknown;
  renderBytes?: number | undefined;
}): PageBuilds {
  const entries = new Map<string, PageEntry>();
  const budget = createRenderBudget(deps.renderBytes ?? DEFAULT_PAGE_CACHE_MB * 1024 * 1024);
  const building = new Map<string, Promise<CachedPage>>();
  const listeners = new Set<(event: SnapshotRebuilt) => void>();
  const assets = createAssetCache(deps.store);

  function notify(event: SnapshotRebuilt): void {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        deps.logger.error({ err: error, page: event.page.slug }, 'snapshot listener failed');
      }
    }
  }

  async function build(page: Page): Promise<CachedPage> {
    const pending = building.get(page.id);
    if (pending) return pending;
    const promise = (async () => {
      const now = deps.clock.now();
      const pageUrl = `${deps.baseUrl()}/s/${page.slug}`;
      const snapshot = await buildSnapshot(deps, {
        page,
        now,
        pageUrl,
        previous: entries.get(page.id)?.cached.snapshot,
      });
      const images = await imagesOf(assets, page, snapshot);
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

  return {
    build,
    running: (pageId) => building.get(pageId),
    entry: (pageId) => entries.get(pageId),
    entries: () => entries.entries(),
    forget(pageId) {
      entries.get(pageId)?.cached.release();
      entries.delete(pageId);
    },
    onSnapshot(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    rendered: () => ({ bytes: budget.bytes(), renderings: budget.count() }),
    asset: assets,
    async stop() {
      listeners.clear();
      await Promise.allSettled(building.values());
    },
  };
}

/** The uploaded logo's bytes for og.png (PNG or JPEG, what its renderer embeds); read once per version. */
async function imagesOf(assets: AssetCache, page: Page, snapshot: Snapshot): Promise<FormImages> {
  const version = pageAssetVersion(snapshot.page.branding.logo, 'logo');
  const logo = version === undefined ? undefined : await assets.get(page.id, 'logo', version);
  return logo && (logo.contentType === 'image/png' || logo.contentType === 'image/jpeg')
    ? { logo: { contentType: logo.contentType, body: logo.body } }
    : {};
}
