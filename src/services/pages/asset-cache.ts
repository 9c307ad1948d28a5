// The bytes of pages' uploaded images, kept in memory by digest (least recently used first out, bounded in bytes).
import type { PageAsset, PageAssetName } from '../../domain/branding.js';
import { ASSET_VERSION_CHARS } from '../../domain/branding.js';
import type { Store } from '../../store/index.js';

/**
 * Bytes kept at most: a few hundred logos and favicons. An image's bytes never change under one digest, so an entry is
 * only ever replaced (a new upload has a new digest), never stale; the page's snapshot says which digest is current.
 */
export const ASSET_CACHE_MAX_BYTES = 32 * 1024 * 1024;

export interface AssetCache {
  /**
   * The page's image whose digest starts with `version` (what its snapshot links), from memory or else the store;
   * what the store holds when it has moved on (a newer upload: served, and kept, instead); undefined when none.
   */
  get(pageId: string, name: PageAssetName, version: string): Promise<PageAsset | undefined>;
}

export function createAssetCache(store: Store, maxBytes = ASSET_CACHE_MAX_BYTES): AssetCache {
  /** Insertion order is recency: a hit is moved to the end, the oldest are dropped from the front. */
  const entries = new Map<string, PageAsset>();
  let bytes = 0;

  const keyOf = (pageId: string, name: PageAssetName, version: string) => `${pageId}\u0000${name}\u0000${version}`;

  function remember(asset: PageAsset): void {
    if (asset.body.length > maxBytes) return;
    const key = keyOf(asset.pageId, asset.name, asset.digest.slice(0, ASSET_VERSION_CHARS));
    const known = entries.get(key);
    if (known) {
      entries.delete(key);
      bytes -= known.body.length;
    }
    entries.set(key, asset);
    bytes += asset.body.length;
    for (const [oldest, entry] of entries) {
      if (bytes <= maxBytes) break;
      entries.delete(oldest);
      bytes -= entry.body.length;
    }
  }

  return {
    async get(pageId, name, version) {
      const key = keyOf(pageId, name, version);
      const known = entries.get(key);
      if (known) {
        entries.delete(key);
        entries.set(key, known);
        return known;
      }
      const stored = await store.pageAssets.get(pageId, name);
      if (stored) remember(stored);
      return stored;
    },
  };
}
