// Keeps each page's snapshot and rendered forms in memory, rebuilt when an event touches the page or after 30 s, so reads do no database work.
import { createHash } from 'node:crypto';
import type { Bus } from '../../bus/bus.js';
import type { Clock } from '../../domain/clock.js';
import type { Snapshot } from '../../domain/snapshot.js';
import type { Logger } from '../../logger.js';
import { type FormName, pageForms, type Rendered } from '../../render/forms.js';
import type { Db } from '../../store/connect.js';
import { listPages, type Page } from '../../store/pages.js';
import { buildSnapshot } from './build-snapshot.js';

/** A snapshot is rebuilt at least this often while people read the page. */
export const SNAPSHOT_MAX_AGE_MS = 30_000;
/** Events arriving this close together cause one rebuild. */
const REBUILD_DEBOUNCE_MS = 250;
/** Pages nobody read for this long are dropped from memory; the next read builds them again. */
const IDLE_EVICT_MS = 10 * 60_000;
/** Distinct option sets (e.g. badge styles) kept per form of a page. */
const MAX_VARIANTS_PER_PAGE = 64;

export interface RenderedForm extends Rendered {
  etag: string;
}

export interface CachedPage {
  page: Page;
  snapshot: Snapshot;
  builtAt: number;
  form(name: FormName, basePath: string, options?: Record<string, string>): RenderedForm;
}

export interface PageCache {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** The page with this slug or custom domain, from memory. */
  pageBySlug(slug: string): Page | undefined;
  pageByDomain(host: string): Page | undefined;
  pages(): Page[];
  /** The cached snapshot and forms; builds them if the page is cold. */
  get(page: Page): Promise<CachedPage>;
  /** The cached snapshot if the page is warm, without waiting; undefined when it must be built. */
  peek(page: Page): CachedPage | undefined;
  /** Drops what is known about pages and rebuilds (after config or API changes). */
  refreshIndex(): Promise<void>;
}

interface Entry {
  cached: CachedPage;
  lastRead: number;
}

export function createPageCache(deps: { db: Db; bus: Bus; clock: Clock; logger: Logger; baseUrl: () => string }): PageCache {
  let bySlug = new Map<string, Page>();
  let byDomain = new Map<string, Page>();
  let pagesByMonitor = new Map<string, Set<string>>();
  const entries = new Map<string, Entry>();
  const building = new Map<string, Promise<CachedPage>>();
  const dirty = new Set<string>();
  const unsubscribes: (() => void)[] = [];
  let debounce: NodeJS.Timeout | null = null;
  let ticker: NodeJS.Timeout | null = null;
  let stopped = false;

  async function loadIndex(): Promise<void> {
    const pages = await listPages(deps.db);
    const links = await deps.db.selectFrom('components').select(['page_id', 'monitor_id']).where('monitor_id', 'is not', null).execute();
    bySlug = new Map(pages.map((p) => [p.slug, p]));
    byDomain = new Map(pages.filter((p) => p.customDomain).map((p) => [p.customDomain as string, p]));
    const map = new Map<string, Set<string>>();
    for (const link of links) {
      const set = map.get(link.monitor_id as string) ?? new Set<string>();
      set.add(link.page_id);
      map.set(link.monitor_id as string, set);
    }
    pagesByMonitor = map;
    const known = new Set(pages.map((p) => p.id));
    for (const id of entries.keys()) if (!known.has(id)) entries.delete(id);
  }

  function pageUrl(page: Page): string {
    return `${deps.baseUrl()}/s/${page.slug}`;
  }

  async function build(page: Page): Promise<CachedPage> {
    const pending = building.get(page.id);
    if (pending) return pending;
    const promise = (async () => {
      const now = deps.clock.now();
      const snapshot = await buildSnapshot(deps.db, page, now, pageUrl(page));
      const cached = withForms(page, snapshot, now);
      const previous = entries.get(page.id);
      entries.set(page.id, { cached, lastRead: previous?.lastRead ?? now });
      return cached;
    })();
    building.set(page.id, promise);
    try {
      return await promise;
    } finally {
      building.delete(page.id);
    }
  }

  function markDirty(pageId: string): void {
    if (!entries.has(pageId)) return;
    dirty.add(pageId);
    if (debounce || stopped) return;
    debounce = setTimeout(() => {
      debounce = null;
      const ids = [...dirty];
      dirty.clear();
      for (const id of ids) {
        const entry = entries.get(id);
        const page = entry && bySlug.get(entry.cached.page.slug);
        if (page) build(page).catch((error) => deps.logger.error({ err: error, page: page.slug }, 'rebuilding page failed'));
      }
    }, REBUILD_DEBOUNCE_MS);
  }

  function tick(): void {
    const now = deps.clock.now();
    for (const [id, entry] of entries) {
      if (now - entry.lastRead > IDLE_EVICT_MS) entries.delete(id);
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
              entries.delete(event.pageId);
            })
            .catch((error) => deps.logger.error({ err: error }, 'reloading pages failed'));
        }),
      );
      ticker = setInterval(tick, 1000);
      ticker.unref();
    },
    async stop() {
      stopped = true;
      for (const unsubscribe of unsubscribes) unsubscribe();
      if (debounce) clearTimeout(debounce);
      if (ticker) clearInterval(ticker);
      await Promise.allSettled(building.values());
    },
    pageBySlug: (slug) => bySlug.get(slug),
    pageByDomain: (host) => byDomain.get(host.toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '')),
    pages: () => [...bySlug.values()],
    peek,
    async get(page) {
      return peek(page) ?? build(page);
    },
    refreshIndex: loadIndex,
  };
}

function withForms(page: Page, snapshot: Snapshot, builtAt: number): CachedPage {
  const rendered = new Map<string, RenderedForm>();
  return {
    page,
    snapshot,
    builtAt,
    form(name, basePath, options = {}) {
      const key = `${name}\u0000${basePath}\u0000${JSON.stringify(options)}`;
      let out = rendered.get(key);
      if (!out) {
        const form = pageForms[name];
        const result = form.render(snapshot, { basePath, options });
        // Bytes once, so every response writes the same buffer.
        const body = typeof result.body === 'string' ? Buffer.from(result.body) : result.body;
        out = { contentType: result.contentType, body, etag: `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"` };
        if (rendered.size < MAX_VARIANTS_PER_PAGE) rendered.set(key, out);
      }
      return out;
    },
  };
}
