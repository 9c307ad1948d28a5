// The pre-router's page path: a public page already in memory, in a form already rendered, answered without the app.
import type { PageCache } from '../../../services/pages/page-cache.js';
import { corsHeadersOf, PAGE_CORS } from '../../cors.js';
import type { FastPath } from '../../pre-router.js';
import { resolvePageTarget } from './page-paths.js';
import { fastFormResponse } from './serve-form.js';

const CORS = corsHeadersOf(PAGE_CORS);

/**
 * Cached reads are the hot path (every player refreshing a page, every badge on every forum post): they skip the router
 * and middleware and cost about what a bare node:http server serving the same bytes costs. A page that is cold,
 * protected or unknown, or a form not rendered yet (og.png), is left to the app. The bytes, headers and ETag are those
 * the app sends (formResponse builds both, see fastFormResponse).
 */
export function pageFastPath(pages: PageCache): FastPath {
  return {
    name: 'pages',
    answer(req) {
      if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
      const url = req.url ?? '/';
      const query = url.indexOf('?');
      const path = query === -1 ? url : url.slice(0, query);
      const target = resolvePageTarget(pages, req.headers.host, path, req.headers.accept, query === -1 ? '' : url.slice(query + 1), req.headers['accept-language']);
      return (target && fastFormResponse(pages, target, path, req.headers['if-none-match'], CORS)) ?? undefined;
    },
  };
}
