// Which pages exist, by slug, by verified custom domain and by the monitors they show: read from the store in one go
// and swapped whole, so lookups on the hot path are map reads.
import { baseHostOf, normalizeHost, reservedDomainProblem } from '../../domain/custom-domain.js';
import type { Page } from '../../domain/page.js';
import type { Store } from '../../store/index.js';

export interface PageIndex {
  /** Reads every page and which monitors each shows; resolves to the ids of the pages that exist now. */
  load(): Promise<Set<string>>;
  bySlug(slug: string): Page | undefined;
  /** The page whose verified custom domain is this Host; never one for the service's own host (see PageCache). */
  byDomain(host: string): Page | undefined;
  pages(): Page[];
  /** The pages showing this monitor. */
  pagesOf(monitorId: string): Iterable<string>;
  /** Each monitor shown on some page, with the pages showing it. */
  monitors(): Iterable<[string, Set<string>]>;
  /** Moves each time the index is reloaded. */
  version(): number;
}

export function createPageIndex(store: Store, baseUrl: () => string): PageIndex {
  let bySlug = new Map<string, Page>();
  let byDomain = new Map<string, Page>();
  let pagesByMonitor = new Map<string, Set<string>>();
  let version = 0;
  let own: { baseUrl: string; host: string | undefined } | null = null;
  function ownHost(): string | undefined {
    const url = baseUrl();
    if (own?.baseUrl !== url) own = { baseUrl: url, host: baseHostOf(url) };
    return own.host;
  }

  return {
    async load() {
      const [pages, links] = await Promise.all([store.pages.list(), store.components.monitorLinks()]);
      bySlug = new Map(pages.map((p) => [p.slug, p]));
      version++;
      // Only proven domains serve a page: one set through the API waits for its TXT record (warden.yaml's are verified).
      byDomain = new Map(
        pages
          .filter((p) => p.customDomain !== null && p.customDomainVerifiedAt !== null)
          .map((p) => [p.customDomain as string, p]),
      );
      const map = new Map<string, Set<string>>();
      for (const link of links) {
        const set = map.get(link.monitorId) ?? new Set<string>();
        set.add(link.pageId);
        map.set(link.monitorId, set);
      }
      pagesByMonitor = map;
      return new Set(pages.map((p) => p.id));
    },
    bySlug: (slug) => bySlug.get(slug),
    byDomain(host) {
      const name = normalizeHost(host);
      const page = byDomain.get(name);
      // Belt and braces: a row written before these rules, or a base URL changed since, never takes the main address.
      if (!page || reservedDomainProblem(name) !== undefined || name === ownHost()) return undefined;
      return page;
    },
    pages: () => [...bySlug.values()],
    pagesOf: (monitorId) => pagesByMonitor.get(monitorId) ?? [],
    monitors: () => pagesByMonitor.entries(),
    version: () => version,
  };
}
