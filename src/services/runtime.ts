// The contexts of verbs that need the running server's parts besides the store: the ingest path, the page cache.
import type { Ingest } from '../runner/ingest.js';
import type { ServiceContext } from './context.js';
import type { PageAccess } from './pages/page-access.js';
import type { PageCache } from './pages/page-cache.js';

/** Verbs that record results (heartbeats, relay batches): they answer once the ingest path has committed them. */
export interface IngestContext extends ServiceContext {
  ingest: Ingest;
}

/** Verbs that read public pages: from the page cache's snapshots, not from the store. */
export interface PagesContext extends ServiceContext {
  pages: PageCache;
  pageAccess: PageAccess;
}
