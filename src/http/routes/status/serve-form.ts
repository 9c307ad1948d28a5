// Serves one form of one page: access check, cached bytes (plain, Brotli or gzip), ETag/304, cache headers (CORS comes from the page's cors middleware). No database work for a warm page.
import type { Context } from 'hono';
import { etagMatches } from '../../../domain/etag.js';
import type { Page } from '../../../domain/page.js';
import { EMBED_CONTENT_SECURITY_POLICY } from '../../../render/embed.js';
import { type FormName, pageForms } from '../../../render/forms.js';
import { isCompressible } from '../../../services/pages/compressed-variants.js';
import type { CachedPage, PageCache, RenderedForm } from '../../../services/pages/page-cache.js';
import { type ContentCoding, pickContentCoding } from '../../accept-encoding.js';
import type { AppEnv, PageServingDeps } from '../../env.js';
import { HTML_HEADERS, PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL } from './page-headers.js';
import type { PageTarget } from './page-paths.js';
import { notFound, pageAccessRefusal, readerOf } from './page-refusals.js';

export { HTML_HEADERS, PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL } from './page-headers.js';
export { PAGE_CHALLENGE, passwordRequired, tooManyAttempts } from './page-refusals.js';

/** Per-form headers beyond the common ones: each HTML form's policy, and a badge opened on its own runs nothing. */
const FORM_HEADERS: Partial<Record<FormName, Record<string, string>>> = {
  html: HTML_HEADERS,
  // Any site may frame the widget (frame-ancestors *); no X-Frame-Options is ever sent with it.
  embed: {
    'content-security-policy': EMBED_CONTENT_SECURITY_POLICY,
    'referrer-policy': 'strict-origin-when-cross-origin',
  },
  badge: { 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'" },
};

export interface FormResponse {
  status: 200 | 304 | 404;
  headers: Record<string, string>;
  body: RenderedForm['body'] | null;
  /** The fast path's answers: the label the metrics count them under (`fast:page-json`); one per form, never a URL. */
  route?: string | undefined;
  /**
   * The same headers as node:http's flat [name, value, …] list, made once per variant, ending with an
   * `x-request-id` slot the writer fills: the fast path writes it with `res.writeHead(status, list)`, no object work.
   */
  rawHeaders?: string[];
}

/** Each form's metrics label (no route template names them: one middleware resolves every page path), made once. */
export const PAGE_ROUTES = Object.fromEntries(Object.keys(pageForms).map((form) => [form, `page-${form}`])) as Record<
  FormName,
  string
>;
const FAST_ROUTES = Object.fromEntries(Object.keys(pageForms).map((form) => [form, `fast:page-${form}`])) as Record<
  FormName,
  string
>;

/**
 * The response for a readable, cached page and its rendered form: shared by the Hono route and the server's fast path.
 * The body is the plain bytes or their Brotli or gzip variant, as Accept-Encoding asks, each with its own ETag.
 * `cors`: the CORS headers the fast path writes itself (in the app, the page's cors middleware adds the same).
 */
export function formResponse(
  cached: CachedPage,
  target: PageTarget,
  path: string,
  request: { ifNoneMatch: string | undefined; acceptEncoding: string | undefined },
  rendered: RenderedForm,
  cors?: Readonly<Record<string, string>>,
  route?: string,
): FormResponse {
  const negotiated = path === target.basePath || path === `${target.basePath}/`;
  const encoded = rendered.encoded;
  const picked = pickContentCoding(request.acceptEncoding, { br: encoded.compressible, gzip: encoded.compressible });
  const variant = picked === 'identity' ? undefined : encoded.get(picked);
  const coding = variant ? picked : 'identity';
  // A 404 rendering (an embed's unknown component) is answered whole: 304 stands for a 200 only.
  const notModified = rendered.status === undefined && etagMatches(request.ifNoneMatch, variant?.etag ?? rendered.etag);
  const headers = headersFor(
    rendered,
    coding,
    target.form,
    cached.page.passwordHash !== null,
    negotiated,
    target.varyLanguage === true,
    notModified,
    cors,
  );
  const body = variant?.body ?? rendered.body;
  return notModified
    ? { status: 304, headers: headers.object, body: null, route, rawHeaders: headers.list }
    : { status: rendered.status ?? 200, headers: headers.object, body, route, rawHeaders: headers.list };
}

interface FormHeaders {
  object: Record<string, string>;
  list: string[];
}

/**
 * The headers of a rendered form, built once per variant (coding, public or private, negotiated or not, 200 or 304)
 * and reused by every response until the next snapshot version: a cached read allocates no header object.
 */
const headerMemo = new WeakMap<RenderedForm, Map<string, FormHeaders>>();

function headersFor(
  rendered: RenderedForm,
  coding: ContentCoding,
  form: FormName,
  isPrivate: boolean,
  negotiated: boolean,
  varyLanguage: boolean,
  notModified: boolean,
  cors: Readonly<Record<string, string>> | undefined,
): FormHeaders {
  let variants = headerMemo.get(rendered);
  if (!variants) {
    variants = new Map();
    headerMemo.set(rendered, variants);
  }
  const key = `${coding}${form}${isPrivate ? 'p' : ''}${negotiated ? 'v' : ''}${varyLanguage ? 'l' : ''}${notModified ? 'n' : ''}${cors ? 'c' : ''}`;
  let headers = variants.get(key);
  if (!headers) {
    const variant = coding === 'identity' ? undefined : rendered.encoded.get(coding);
    const object: Record<string, string> = {
      // A 304 names the type of what it stands for (the node adapter would otherwise call it text/plain).
      'content-type': rendered.contentType,
      ...(variant ? { 'content-encoding': coding } : {}),
      ...(notModified ? {} : { 'content-length': String(Buffer.byteLength(variant?.body ?? rendered.body)) }),
      etag: variant?.etag ?? rendered.etag,
      'cache-control': isPrivate ? PRIVATE_CACHE_CONTROL : PUBLIC_CACHE_CONTROL,
      'x-content-type-options': 'nosniff',
      ...FORM_HEADERS[form],
      ...ownPolicy(form, rendered),
      ...(rendered.language ? { 'content-language': rendered.language } : {}),
      ...varyHeader(negotiated, varyLanguage && rendered.language !== undefined, isCompressible(rendered.contentType)),
      ...cors,
    };
    Object.freeze(object);
    const list = Object.entries(object).flat();
    list.push('x-request-id', '');
    headers = { object, list };
    variants.set(key, headers);
  }
  return headers;
}

/**
 * The request headers the answer depended on: Accept (the page path's HTML or Markdown), Accept-Language, and
 * Accept-Encoding for every form that can be compressed, even when this version's bytes are too small to be (so a
 * cache's key for the URL does not change from one version to the next).
 */
function varyHeader(accept: boolean, acceptLanguage: boolean, acceptEncoding: boolean): Record<string, string> {
  const names = [
    ...(accept ? ['Accept'] : []),
    ...(acceptLanguage ? ['Accept-Language'] : []),
    ...(acceptEncoding ? ['Accept-Encoding'] : []),
  ];
  return names.length === 0 ? {} : { vary: names.join(', ') };
}

/**
 * A form's own policy (a branded page allows its stylesheet and its images' hosts), with what only a header carries:
 * the page may not be framed, the widget may be framed anywhere.
 */
function ownPolicy(form: FormName, rendered: RenderedForm): Record<string, string> {
  const policy = rendered.contentSecurityPolicy;
  if (!policy) return {};
  return { 'content-security-policy': `${policy}; frame-ancestors ${form === 'embed' ? '*' : "'none'"}` };
}

/**
 * The server's fast path: a public page already in memory, in a form already rendered (or rendered at once), is
 * answered without the router or middleware. Null means "not that simple" (cold, protected, unknown, og.png not
 * rendered yet).
 */
export function fastFormResponse(
  pages: PageCache,
  target: PageTarget,
  path: string,
  ifNoneMatch: string | undefined,
  acceptEncoding?: string,
  cors?: Readonly<Record<string, string>>,
): FormResponse | null {
  if (!target.page || target.page.passwordHash !== null) return null;
  const cached = pages.peek(target.page);
  const rendered = cached?.ready(target.form, target.basePath, target.options, target.language);
  return cached && rendered
    ? formResponse(cached, target, path, { ifNoneMatch, acceptEncoding }, rendered, cors, FAST_ROUTES[target.form])
    : null;
}

/**
 * Any form of a public page, as the fast path answers it: at once when it is in memory and rendered, else once the
 * page is built and the form rendered (a page not read since the start, an og.png), with the same bytes and headers
 * as the app's. Null for an unknown or protected page (the app's 404 and password form).
 */
export function publicFormResponse(
  pages: PageCache,
  target: PageTarget,
  path: string,
  ifNoneMatch: string | undefined,
  acceptEncoding: string | undefined,
  cors: Readonly<Record<string, string>>,
): FormResponse | Promise<FormResponse> | null {
  const page = target.page;
  if (!page || page.passwordHash !== null) return null;
  const ready = fastFormResponse(pages, target, path, ifNoneMatch, acceptEncoding, cors);
  if (ready) return ready;
  return renderedFormResponse(
    pages,
    page,
    target,
    path,
    { ifNoneMatch, acceptEncoding },
    cors,
    FAST_ROUTES[target.form],
  );
}

/** The page built if it is not in memory, the form rendered if it is not yet, and the response for it. */
async function renderedFormResponse(
  pages: PageCache,
  page: Page,
  target: PageTarget,
  path: string,
  request: { ifNoneMatch: string | undefined; acceptEncoding: string | undefined },
  cors?: Readonly<Record<string, string>>,
  route?: string,
): Promise<FormResponse> {
  const cached = await pages.get(page);
  const rendered = await cached.render(target.form, target.basePath, target.options, target.language);
  return formResponse(cached, target, path, request, rendered, cors, route);
}

export async function serveForm(c: Context<AppEnv>, deps: PageServingDeps, target: PageTarget): Promise<Response> {
  const { pages } = deps;
  const page = target.page;
  const reader = readerOf(target);
  if (!page) return notFound(c, target.slug, target.form, reader);
  if (page.passwordHash !== null) {
    const refusal = await pageAccessRefusal(c, deps, page, target.form, target.basePath, reader);
    if (refusal) return refusal;
  }
  const request = { ifNoneMatch: c.req.header('if-none-match'), acceptEncoding: c.req.header('accept-encoding') };
  const response = await renderedFormResponse(pages, page, target, c.req.path, request);
  return new Response(response.body as BodyInit | null, { status: response.status, headers: response.headers });
}
