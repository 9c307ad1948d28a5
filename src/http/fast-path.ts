// The server's request listener: public pages already in memory are written straight to the socket; everything else goes to the app.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { PageCache } from '../services/pages/page-cache.js';
import type { App } from './app.js';
import type { PushFastPath } from './routes/push/fast-path.js';
import { resolvePageTarget } from './routes/status/page-paths.js';
import { fastFormResponse } from './routes/status/serve-form.js';

/**
 * Cached reads are the hot path (every player refreshing a page, every badge on every forum post): they skip the
 * router and middleware and cost about what a bare node:http server serving the same bytes costs. The bytes, headers
 * and ETag are exactly those the app would send (the same formResponse builds both).
 */
export function createRequestListener(
  app: App,
  pages: PageCache,
  push?: PushFastPath,
): (req: IncomingMessage, res: ServerResponse) => void {
  const viaApp = getRequestListener(app.fetch);
  return (req, res) => {
    if (push?.(req, res, viaApp)) return;
    if (req.method === 'GET' || req.method === 'HEAD') {
      const url = req.url ?? '/';
      const query = url.indexOf('?');
      const path = query === -1 ? url : url.slice(0, query);
      const target = resolvePageTarget(pages, req.headers.host, path, req.headers.accept, query === -1 ? '' : url.slice(query + 1));
      const hit = target && fastFormResponse(pages, target, path, req.headers['if-none-match']);
      if (hit) {
        const offered = req.headers['x-request-id'];
        res.writeHead(hit.status, {
          ...hit.headers,
          'x-request-id': typeof offered === 'string' && /^[A-Za-z0-9._-]{1,64}$/.test(offered) ? offered : randomUUID(),
        });
        res.end(req.method === 'HEAD' ? undefined : hit.body);
        return;
      }
    }
    void viaApp(req, res);
  };
}
