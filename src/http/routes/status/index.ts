// Public status pages: /api/v1/status/{slug}, every form under /s/{slug}, the password form, and the same on a page's custom domain.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { snapshotSchema } from '../../../domain/snapshot.js';
import { issuePageCookie, PAGE_COOKIE_MAX_AGE_SEC, pageCookieName } from '../../../services/pages/page-access.js';
import type { PageCache } from '../../../services/pages/page-cache.js';
import type { Page } from '../../../store/pages.js';
import type { App, AppEnv } from '../../app.js';
import { resolvePageTarget } from './page-paths.js';
import { CORS_HEADERS, passwordRequired, serveForm } from './serve-form.js';

/** The password form posts at most this much. */
const LOGIN_BODY_MAX_BYTES = 2048;

export function statusRoutes(app: App): void {
  documentRoutes(app);

  // Every public page path, under /s/{slug}, /api/v1/status/{slug} or on a custom domain, is resolved in one place.
  app.use('*', async (c, next) => {
    const method = c.req.method;
    if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS' && method !== 'POST') return next();
    const { pages } = c.get('deps');
    const host = c.req.header('host');
    if (method === 'POST') {
      const login = loginTarget(pages, host, c.req.path);
      if (!login) return next();
      if (!login.page) return serveForm(c, { page: undefined, slug: login.slug, form: 'html', basePath: login.basePath });
      return loginPost(c, login.page, login.basePath);
    }
    const target = resolvePageTarget(pages, host, c.req.path, c.req.header('accept'));
    if (!target) return next();
    if (method === 'OPTIONS') return preflight();
    return serveForm(c, target);
  });
}

function loginTarget(pages: PageCache, host: string | undefined, path: string): { page: Page | undefined; slug: string; basePath: string } | null {
  const onDomain = host ? pages.pageByDomain(host) : undefined;
  if (onDomain && path === '/login') return { page: onDomain, slug: onDomain.slug, basePath: '' };
  const match = /^\/s\/([^/]+)\/login$/.exec(path);
  if (!match) return null;
  const slug = match[1] as string;
  return { page: pages.pageBySlug(slug), slug, basePath: `/s/${slug}` };
}

function preflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS_HEADERS,
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
      'access-control-allow-headers': 'Authorization, If-None-Match, Accept, Content-Type',
      'access-control-max-age': '86400',
    },
  });
}

async function loginPost(c: Context<AppEnv>, page: Page, basePath: string): Promise<Response> {
  const { pageAccess, clock } = c.get('deps');
  const length = Number(c.req.header('content-length') ?? '0');
  if (length > LOGIN_BODY_MAX_BYTES) return passwordRequired(c, page, 'html', basePath, 'That request was too large.');
  const body = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
  const password = typeof body.password === 'string' ? body.password : '';
  if (page.passwordHash === null) return c.redirect(basePath || '/', 303);
  if (!password || !pageAccess.passwordOk(page, password)) return passwordRequired(c, page, 'html', basePath, 'That password is not right.');
  const secure = new URL(c.req.url).protocol === 'https:' || c.req.header('x-forwarded-proto') === 'https';
  const cookie = [
    `${pageCookieName(page)}=${issuePageCookie(page, clock.now())}`,
    'Path=/',
    `Max-Age=${PAGE_COOKIE_MAX_AGE_SEC}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ].join('; ');
  return new Response(null, { status: 303, headers: { location: basePath || '/', 'set-cookie': cookie, 'cache-control': 'no-store' } });
}

/** Describes the public status endpoints in the OpenAPI document (served by the handlers above). */
function documentRoutes(app: App): void {
  const slug = z.string().openapi({ param: { name: 'slug', in: 'path' }, example: 'demo' });
  const common = {
    304: { description: 'Not modified (If-None-Match matched the ETag).' },
    401: { description: 'The page is password-protected: send `Authorization: Bearer <page password>`.' },
    404: { description: 'No page with this slug (application/problem+json).' },
  };
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/api/v1/status/{slug}',
    tags: ['Public status'],
    summary: 'The snapshot of a status page',
    description: 'Overall state, components with uptime and live data, incidents, maintenance and player totals. Cached for 30 s (ETag, CORS).',
    request: { params: z.object({ slug }) },
    responses: { 200: { description: 'The snapshot.', content: { 'application/json': { schema: snapshotSchema } } }, ...common },
  });
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/s/{slug}/status.json',
    tags: ['Public status'],
    summary: 'The snapshot of a status page (page-relative)',
    request: { params: z.object({ slug }) },
    responses: { 200: { description: 'The snapshot.', content: { 'application/json': { schema: snapshotSchema } } }, ...common },
  });
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/s/{slug}/status.md',
    tags: ['Public status'],
    summary: 'The status page as Markdown, for people and language models',
    request: { params: z.object({ slug }) },
    responses: { 200: { description: 'Markdown.', content: { 'text/markdown': { schema: z.string() } } }, ...common },
  });
  app.openAPIRegistry.registerPath({
    method: 'get',
    path: '/s/{slug}',
    tags: ['Public status'],
    summary: 'The HTML status page (Markdown with Accept: text/markdown)',
    request: { params: z.object({ slug }) },
    responses: {
      200: { description: 'HTML, or Markdown when asked for.', content: { 'text/html': { schema: z.string() }, 'text/markdown': { schema: z.string() } } },
      ...common,
    },
  });
}
