// Public status pages: /api/v1/status/{slug}, every form under /s/{slug}, the login page, and the same on a page's custom domain.
import type { Context } from 'hono';
import type { Page } from '../../../domain/page.js';
import type { PageCache } from '../../../services/pages/page-cache.js';
import { pageCors, withCors } from '../../cors.js';
import type { App, AppEnv, PageServingDeps, StatusDeps } from '../../env.js';
import { PROBLEM_CONTENT_TYPE, problem } from '../../problem.js';
import { uptimeHistoryRoutes } from './history.js';
import { loginPost } from './login.js';
import { documentPageRoutes } from './page-docs.js';
import { resolveLiveTarget, resolvePageTarget } from './page-paths.js';
import { resolveAssetTarget, serveAsset } from './serve-asset.js';
import { PAGE_ROUTES, serveForm } from './serve-form.js';
import { subscriptionRoutes } from './subscribe.js';

export function statusRoutes(app: App, deps: StatusDeps): void {
  documentPageRoutes(app);
  // Subscribing to a page's incidents and maintenance, and the links of its mails (subscribe.ts).
  subscriptionRoutes(app, deps);
  // A page's published uptime history, a month at a time (history.ts).
  uptimeHistoryRoutes(app, deps);

  // Every public page path, under /s/{slug}, /api/v1/status/{slug} or on a custom domain, is resolved in one place.
  app.use('*', async (c, next) => {
    const handle = pageRequest(c, deps);
    return handle ? withCors(c, pageCors, handle) : next();
  });
}

/** How a request for a page is answered, or null when it is not one (the app's other routes then answer it). */
function pageRequest(c: Context<AppEnv>, deps: PageServingDeps): (() => Promise<Response> | Response) | null {
  const method = c.req.method;
  if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS' && method !== 'POST') return null;
  const { pages } = deps;
  const host = c.req.header('host');
  if (method === 'POST') {
    const login = loginTarget(pages, host, c.req.path);
    if (!login) return null;
    if (!login.page)
      return () =>
        serveForm(c, deps, { page: undefined, slug: login.slug, form: 'html', basePath: login.basePath, options: {} });
    const page = login.page;
    return () => loginPost(c, deps, page, login.basePath);
  }
  const url = c.req.url;
  const query = url.indexOf('?');
  const target = resolvePageTarget(
    pages,
    host,
    c.req.path,
    c.req.header('accept'),
    query === -1 ? '' : url.slice(query + 1),
    c.req.header('accept-language'),
  );
  if (target) {
    c.set('route', PAGE_ROUTES[target.form]);
    return () => serveForm(c, deps, target);
  }
  // The page's own images and stylesheet (serve-asset.ts).
  const asset = resolveAssetTarget(pages, host, c.req.path, query === -1 ? '' : url.slice(query + 1));
  if (asset) return () => serveAsset(c, deps, asset);
  // The live stream is a WebSocket, upgraded by the node server before the app sees the request (src/http/live.ts).
  const live = method === 'OPTIONS' ? null : resolveLiveTarget(pages, host, c.req.path);
  return live ? () => upgradeRequired(c, live.slug, live.page !== undefined) : null;
}

function loginTarget(
  pages: PageCache,
  host: string | undefined,
  path: string,
): { page: Page | undefined; slug: string; basePath: string } | null {
  const onDomain = host ? pages.pageByDomain(host) : undefined;
  if (onDomain && path === '/login') return { page: onDomain, slug: onDomain.slug, basePath: '' };
  const match = /^\/s\/([^/]+)\/login$/.exec(path);
  if (!match) return null;
  const slug = match[1] as string;
  return { page: pages.pageBySlug(slug), slug, basePath: `/s/${slug}` };
}

/** A plain GET of the live stream: it only speaks WebSocket. */
function upgradeRequired(c: Context<AppEnv>, slug: string, known: boolean): Response {
  const body = known
    ? problem(
        426,
        'upgrade-required',
        'Upgrade required',
        'The live stream is a WebSocket: connect with ws:// or wss://. See docs/live.md.',
      )
    : problem(404, 'page-not-found', 'Page not found', `There is no status page "${slug}".`);
  return new Response(JSON.stringify({ ...body, instance: c.req.path }), {
    status: body.status,
    headers: {
      'content-type': PROBLEM_CONTENT_TYPE,
      'cache-control': 'no-store',
      ...(known ? { upgrade: 'websocket' } : {}),
    },
  });
}
