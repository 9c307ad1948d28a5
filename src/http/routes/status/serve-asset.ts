// Serves a page's uploaded images and its custom stylesheet: /s/{slug}/assets/{name} and /s/{slug}/custom.css, or
// /assets/{name} and /custom.css on its custom domain; under the page's access rule, from memory once read.
import type { Context } from 'hono';
import { CUSTOM_CSS_PATH, PAGE_ASSET_NAMES, PAGE_ASSET_PATH, type PageAssetName } from '../../../domain/branding.js';
import { etagMatches, etagOf } from '../../../domain/etag.js';
import type { Page } from '../../../domain/page.js';
import type { CachedPage, PageCache } from '../../../services/pages/page-cache.js';
import type { AppEnv, PageServingDeps } from '../../env.js';
import { PROBLEM_CONTENT_TYPE, problem } from '../../problem.js';
import { PUBLIC_CACHE_CONTROL } from './page-headers.js';
import { readerLanguage } from './page-language.js';
import { PAGE_SLUG } from './page-paths.js';
import { pageAccessRefusal } from './page-refusals.js';

/** A request naming the current version (`?v=`, as the page links it) may be cached for good: a new one has a new URL. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
const PRIVATE_IMMUTABLE_CACHE_CONTROL = 'private, max-age=31536000, immutable';
const PRIVATE_SHORT_CACHE_CONTROL = 'private, max-age=30';

/**
 * An image is only ever an image: opened on its own (an SVG with a script in it, say), it runs nothing and reaches
 * nothing, in a sandbox of its own origin.
 */
export const ASSET_CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

type AssetKind = PageAssetName | 'stylesheet';

/** Page-relative paths of what a page serves besides its forms. */
const ASSET_PATHS: Record<string, AssetKind> = {
  ...Object.fromEntries(PAGE_ASSET_NAMES.map((name) => [`${PAGE_ASSET_PATH}/${name}`, name])),
  [CUSTOM_CSS_PATH]: 'stylesheet',
};

export interface AssetTarget {
  page: Page | undefined;
  slug: string;
  kind: AssetKind;
  basePath: string;
  /** The `v` the request names ('' when none). */
  version: string;
}

/** The asset a GET/HEAD is for, from memory; null when the path is none of a page's assets. */
export function resolveAssetTarget(
  pages: PageCache,
  host: string | undefined,
  path: string,
  query: string,
): AssetTarget | null {
  const onDomain = host ? pages.pageByDomain(host) : undefined;
  const version = query === '' ? '' : (new URLSearchParams(query).get('v') ?? '');
  if (onDomain) {
    const kind = ASSET_PATHS[path];
    if (kind) return { page: onDomain, slug: onDomain.slug, kind, basePath: '', version };
  }
  if (!path.startsWith('/s/')) return null;
  const slash = path.indexOf('/', 3);
  if (slash === -1) return null;
  const kind = ASSET_PATHS[path.slice(slash)];
  if (!kind) return null;
  const slug = path.slice(3, slash);
  return {
    page: PAGE_SLUG.test(slug) ? pages.pageBySlug(slug) : undefined,
    slug,
    kind,
    basePath: `/s/${slug}`,
    version,
  };
}

export async function serveAsset(c: Context<AppEnv>, deps: PageServingDeps, target: AssetTarget): Promise<Response> {
  const { pages } = deps;
  const page = target.page;
  if (!page) return notFound(c, `There is no status page "${target.slug}".`);
  if (page.passwordHash !== null) {
    // Answered as problem+json (an image or a stylesheet is never a place for the password form).
    const reader = readerLanguage(page, undefined, undefined);
    const refusal = await pageAccessRefusal(c, deps, page, 'json', target.basePath, reader);
    if (refusal) return refusal;
  }
  const bytes =
    target.kind === 'stylesheet' ? stylesheetOf(await pages.get(page)) : await imageOf(pages, page, target.kind);
  if (!bytes)
    return notFound(
      c,
      target.kind === 'stylesheet'
        ? 'This page has no custom stylesheet.'
        : `This page has no ${target.kind} of its own.`,
    );
  const current = target.version === bytes.version;
  const isPrivate = page.passwordHash !== null;
  const headers: Record<string, string> = {
    'content-type': bytes.contentType,
    etag: bytes.etag,
    'cache-control': current
      ? isPrivate
        ? PRIVATE_IMMUTABLE_CACHE_CONTROL
        : IMMUTABLE_CACHE_CONTROL
      : isPrivate
        ? PRIVATE_SHORT_CACHE_CONTROL
        : PUBLIC_CACHE_CONTROL,
    'x-content-type-options': 'nosniff',
    ...(target.kind === 'stylesheet' ? {} : { 'content-security-policy': ASSET_CONTENT_SECURITY_POLICY }),
  };
  if (etagMatches(c.req.header('if-none-match'), bytes.etag)) return new Response(null, { status: 304, headers });
  return new Response(bytes.body as BodyInit, {
    status: 200,
    headers: { ...headers, 'content-length': String(bytes.body.length) },
  });
}

interface AssetBytes {
  contentType: string;
  body: Uint8Array;
  etag: string;
  /** What `v` names this version (the page links it so). */
  version: string;
}

async function imageOf(pages: PageCache, page: Page, name: PageAssetName): Promise<AssetBytes | undefined> {
  const found = await pages.asset(page, name);
  if (!found) return undefined;
  const { asset, version } = found;
  return {
    contentType: asset.contentType,
    body: asset.body,
    etag: `"${asset.digest.slice(0, 32)}"`,
    version: asset.digest.startsWith(version) ? version : '',
  };
}

/** The stylesheet's bytes, once per snapshot version of the page (the snapshot names its hash, the page holds its text). */
const stylesheets = new WeakMap<CachedPage, AssetBytes | null>();

function stylesheetOf(cached: CachedPage): AssetBytes | undefined {
  let known = stylesheets.get(cached);
  if (known === undefined) {
    const css = cached.page.customCss;
    const linked = cached.snapshot.page.branding.stylesheet;
    if (css === null || linked === null) known = null;
    else {
      const body = Buffer.from(css);
      known = {
        contentType: 'text/css; charset=utf-8',
        body,
        etag: etagOf(body),
        version: new URLSearchParams(linked.slice(linked.indexOf('?') + 1)).get('v') ?? '',
      };
    }
    stylesheets.set(cached, known);
  }
  return known ?? undefined;
}

function notFound(c: Context<AppEnv>, detail: string): Response {
  const body = { ...problem(404, 'not-found', 'Not found', detail), instance: c.req.path };
  return new Response(JSON.stringify(body), {
    status: 404,
    headers: { 'content-type': PROBLEM_CONTENT_TYPE, 'cache-control': PUBLIC_CACHE_CONTROL },
  });
}
