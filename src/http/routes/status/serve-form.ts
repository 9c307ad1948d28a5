// Serves one form of one page: access check, cached bytes, ETag/304, cache headers (CORS comes from the page's cors middleware). No database work for a warm page.
import type { Context } from 'hono';
import { etagMatches } from '../../../domain/etag.js';
import { EMBED_CONTENT_SECURITY_POLICY } from '../../../render/embed.js';
import type { FormName } from '../../../render/forms.js';
import { CONTENT_SECURITY_POLICY } from '../../../render/html-layout.js';
import { renderLoginPage } from '../../../render/login-page.js';
import { renderNotFoundPage } from '../../../render/not-found-page.js';
import type { CachedPage, PageCache, RenderedForm } from '../../../services/pages/page-cache.js';
import type { AppEnv } from '../../app.js';
import { PROBLEM_CONTENT_TYPE, type Problem, problem } from '../../problem.js';
import type { PageTarget } from './page-paths.js';
import { requestClient } from './request-client.js';

export const PUBLIC_CACHE_CONTROL = 'public, max-age=30, s-maxage=30';
export const PRIVATE_CACHE_CONTROL = 'private, no-store';

/** Forms that people read in a browser get HTML errors; machines get problem+json. */
const HTML_FORMS = new Set<FormName>(['html', 'embed']);

/**
 * Every HTML document of a page but the embed (the page, its password form, its 404): no other site may frame it
 * (frame-ancestors, which a <meta> policy cannot carry, and X-Frame-Options for older browsers), links send other
 * sites the origin only, and nothing is sniffed.
 */
export const HTML_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`,
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
});

/** Per-form headers beyond the common ones: each HTML form's policy, and a badge opened on its own runs nothing. */
const FORM_HEADERS: Partial<Record<FormName, Record<string, string>>> = {
  html: HTML_HEADERS,
  // Any site may frame the widget (frame-ancestors *); no X-Frame-Options is ever sent with it.
  embed: { 'content-security-policy': EMBED_CONTENT_SECURITY_POLICY, 'referrer-policy': 'strict-origin-when-cross-origin' },
  badge: { 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'" },
};

export interface FormResponse {
  status: 200 | 304;
  headers: Record<string, string>;
  body: RenderedForm['body'] | null;
}

/**
 * The response for a readable, cached page and its rendered form: shared by the Hono route and the server's fast path.
 * `cors`: the CORS headers the fast path writes itself (in the app, the page's cors middleware adds the same).
 */
export function formResponse(
  cached: CachedPage,
  target: PageTarget,
  path: string,
  ifNoneMatch: string | undefined,
  rendered: RenderedForm,
  cors?: Readonly<Record<string, string>>,
): FormResponse {
  const negotiated = path === target.basePath || path === `${target.basePath}/`;
  const notModified = etagMatches(ifNoneMatch, rendered.etag);
  const headers = headersFor(rendered, target.form, cached.page.passwordHash !== null, negotiated, notModified, cors);
  return notModified ? { status: 304, headers, body: null } : { status: 200, headers, body: rendered.body };
}

/**
 * The headers of a rendered form, built once per variant (public or private, negotiated or not, 200 or 304) and
 * reused by every response until the next snapshot version: a cached read allocates no header object.
 */
const headerMemo = new WeakMap<RenderedForm, Map<string, Record<string, string>>>();

function headersFor(
  rendered: RenderedForm,
  form: FormName,
  isPrivate: boolean,
  negotiated: boolean,
  notModified: boolean,
  cors: Readonly<Record<string, string>> | undefined,
): Record<string, string> {
  let variants = headerMemo.get(rendered);
  if (!variants) {
    variants = new Map();
    headerMemo.set(rendered, variants);
  }
  const key = `${form}${isPrivate ? 'p' : ''}${negotiated ? 'v' : ''}${notModified ? 'n' : ''}${cors ? 'c' : ''}`;
  let headers = variants.get(key);
  if (!headers) {
    headers = {
      // A 304 names the type of what it stands for (the node adapter would otherwise call it text/plain).
      'content-type': rendered.contentType,
      ...(notModified ? {} : { 'content-length': String(Buffer.byteLength(rendered.body)) }),
      etag: rendered.etag,
      'cache-control': isPrivate ? PRIVATE_CACHE_CONTROL : PUBLIC_CACHE_CONTROL,
      'x-content-type-options': 'nosniff',
      ...FORM_HEADERS[form],
      ...(negotiated ? { vary: 'Accept' } : {}),
      ...cors,
    };
    Object.freeze(headers);
    variants.set(key, headers);
  }
  return headers;
}

/**
 * The server's fast path: a public page already in memory, in a form already rendered (or rendered at once), is
 * answered without the router or middleware. Null means "not that simple" (cold, protected, unknown, og.png not
 * rendered yet): the request goes through the app as usual.
 */
export function fastFormResponse(
  pages: PageCache,
  target: PageTarget,
  path: string,
  ifNoneMatch: string | undefined,
  cors?: Readonly<Record<string, string>>,
): FormResponse | null {
  if (!target.page || target.page.passwordHash !== null) return null;
  const cached = pages.peek(target.page);
  const rendered = cached?.ready(target.form, target.basePath, target.options);
  return cached && rendered ? formResponse(cached, target, path, ifNoneMatch, rendered, cors) : null;
}

export async function serveForm(c: Context<AppEnv>, target: PageTarget): Promise<Response> {
  const { pages, pageAccess, clock } = c.get('deps');
  const page = target.page;
  if (!page) return notFound(c, target.slug, target.form);
  if (page.passwordHash !== null) {
    const request = { cookie: c.req.header('cookie'), authorization: c.req.header('authorization'), client: requestClient(c) };
    const access = await pageAccess.allowed(page, request, () => clock.now());
    if (access.kind === 'limited') return tooManyAttempts(c, target.form, target.basePath, access.retryAfterSec);
    if (access.kind === 'denied') return passwordRequired(c, target.form, target.basePath);
  }
  const cached = await pages.get(page);
  const rendered = await cached.render(target.form, target.basePath, target.options);
  const response = formResponse(cached, target, c.req.path, c.req.header('if-none-match'), rendered);
  return new Response(response.body as BodyInit | null, { status: response.status, headers: response.headers });
}

function notFound(c: Context<AppEnv>, slug: string, form: FormName): Response {
  const headers = { 'cache-control': PUBLIC_CACHE_CONTROL };
  if (HTML_FORMS.has(form)) {
    const page = renderNotFoundPage(slug);
    return new Response(page.body, { status: 404, headers: { ...headers, 'content-type': page.contentType, ...HTML_HEADERS } });
  }
  const body = { ...problem(404, 'page-not-found', 'Page not found', `There is no status page "${slug}".`), instance: c.req.path };
  return new Response(JSON.stringify(body), { status: 404, headers: { ...headers, 'content-type': PROBLEM_CONTENT_TYPE } });
}

/** The challenge of a protected page: it names no page (a custom domain's address does not give its slug away). */
export const PAGE_CHALLENGE = 'Bearer realm="status page"';

/** 401: the password form for people (naming no page), problem+json for machines. */
export function passwordRequired(c: Context<AppEnv>, form: FormName, basePath: string, error?: string): Response {
  const headers = { 'cache-control': PRIVATE_CACHE_CONTROL, 'www-authenticate': PAGE_CHALLENGE };
  return HTML_FORMS.has(form)
    ? loginForm(401, basePath, error, headers)
    : problemAnswer(c, problem(401, 'password-required', 'Password required', 'This page is protected: send Authorization: Bearer <page password>.'), headers);
}

/** 429 with Retry-After: too many wrong passwords from this client for this page; none is checked until then. */
export function tooManyAttempts(c: Context<AppEnv>, form: FormName, basePath: string, retryAfterSec: number): Response {
  const headers = { 'cache-control': PRIVATE_CACHE_CONTROL, 'retry-after': String(retryAfterSec) };
  const detail = `Too many wrong passwords for this page from your address; try again in ${retryAfterSec} s.`;
  return HTML_FORMS.has(form)
    ? loginForm(429, basePath, detail, headers)
    : problemAnswer(c, problem(429, 'too-many-attempts', 'Too many password attempts', detail), headers);
}

function loginForm(status: number, basePath: string, error: string | undefined, headers: Record<string, string>): Response {
  const html = renderLoginPage({ action: `${basePath}/login`, ...(error ? { error } : {}) });
  return new Response(html.body, { status, headers: { ...headers, 'content-type': html.contentType, ...HTML_HEADERS } });
}

function problemAnswer(c: Context<AppEnv>, body: Problem, headers: Record<string, string>): Response {
  return new Response(JSON.stringify({ ...body, instance: c.req.path }), { status: body.status, headers: { ...headers, 'content-type': PROBLEM_CONTENT_TYPE } });
}
