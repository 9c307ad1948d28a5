// Public status pages: /api/v1/status/{slug}, every form under /s/{slug}, the password form, and the same on a page's custom domain.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { snapshotSchema } from '../../../domain/snapshot.js';
import type { FormName } from '../../../render/forms.js';
import { issuePageCookie, PAGE_COOKIE_MAX_AGE_SEC, pageCookieName } from '../../../services/pages/page-access.js';
import type { Page } from '../../../store/pages.js';
import type { App, AppEnv } from '../../app.js';
import { CORS_HEADERS, passwordRequired, serveForm } from './serve-form.js';

/** Page-relative paths, the same under /s/{slug} and at the root of a custom domain. */
const PAGE_PATHS: Record<string, FormName> = {
  '/status.json': 'json',
  '/status.md': 'markdown',
};

/** The password form posts at most this much. */
const LOGIN_BODY_MAX_BYTES = 2048;

export function statusRoutes(app: App): void {
  documentRoutes(app);

  // A request for a page's custom domain is served that page at "/" and the page-relative paths.
  app.use('*', async (c, next) => {
    const host = c.req.header('host');
    const page = host ? c.get('deps').pages.pageByDomain(host) : undefined;
    if (!page) return next();
    const path = c.req.path;
    if (c.req.method === 'OPTIONS') return preflight();
    if (path === '/login' && c.req.method === 'POST') return login(c, page, '');
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    if (path === '/') return serveForm(c, page, page.slug, wantsMarkdown(c) ? 'markdown' : 'html', '');
    const form = PAGE_PATHS[path];
    if (form) return serveForm(c, page, page.slug, form, '');
    return next();
  });

  app.options('/s/*', () => preflight());
  app.options('/api/v1/status/*', () => preflight());

  app.get('/api/v1/status/:slug', (c) => {
    const slug = c.req.param('slug');
    return serveForm(c, c.get('deps').pages.pageBySlug(slug), slug, 'json', `/s/${slug}`);
  });
  app.get('/s/:slug', (c) => {
    const slug = c.req.param('slug');
    return serveForm(c, c.get('deps').pages.pageBySlug(slug), slug, wantsMarkdown(c) ? 'markdown' : 'html', `/s/${slug}`);
  });
  for (const [path, form] of Object.entries(PAGE_PATHS))
    app.get(`/s/:slug${path}`, (c) => {
      const slug = c.req.param('slug');
      return serveForm(c, c.get('deps').pages.pageBySlug(slug), slug, form, `/s/${slug}`);
    });
  app.post('/s/:slug/login', (c) => {
    const slug = c.req.param('slug');
    const page = c.get('deps').pages.pageBySlug(slug);
    if (!page) return serveForm(c, undefined, slug, 'html', `/s/${slug}`);
    return login(c, page, `/s/${slug}`);
  });
}

function wantsMarkdown(c: Context<AppEnv>): boolean {
  const accept = c.req.header('accept') ?? '';
  return /\btext\/markdown\b/i.test(accept) && !/\btext\/html\b/i.test(accept);
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

async function login(c: Context<AppEnv>, page: Page, basePath: string): Promise<Response> {
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
