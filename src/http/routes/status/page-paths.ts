// Which page and form a public request is for: /api/v1/status/{slug}, /s/{slug}[/…], or "/…" on a page's custom domain.

import type { PageLanguage } from '../../../domain/languages.js';
import type { Page } from '../../../domain/page.js';
import { FORM_PATHS, type FormName, formOptions, type PageForm, pageForms } from '../../../render/forms.js';
import { STATUSPAGE_PATHS } from '../../../render/statuspage.js';
import type { PageCache } from '../../../services/pages/page-cache.js';
import { readerLanguage } from './page-language.js';

/** Page-relative paths, the same under /s/{slug} and at the root of a custom domain ("" is the page itself). */
export const PAGE_PATHS: Record<string, FormName | 'page'> = {
  '': 'page',
  '/': 'page',
  [FORM_PATHS.json]: 'json',
  [FORM_PATHS.markdown]: 'markdown',
  [FORM_PATHS.feed]: 'feed',
  [FORM_PATHS.badge]: 'badge',
  [FORM_PATHS.og]: 'og',
  [FORM_PATHS.embed]: 'embed',
  [STATUSPAGE_PATHS.summary]: 'statuspageSummary',
  [STATUSPAGE_PATHS.status]: 'statuspageStatus',
  [STATUSPAGE_PATHS.components]: 'statuspageComponents',
  [STATUSPAGE_PATHS.incidents]: 'statuspageIncidents',
  [STATUSPAGE_PATHS.unresolved]: 'statuspageUnresolved',
  [STATUSPAGE_PATHS.maintenances]: 'statuspageMaintenances',
  [STATUSPAGE_PATHS.upcoming]: 'statuspageUpcoming',
  [STATUSPAGE_PATHS.active]: 'statuspageActive',
};

export interface PageTarget {
  /** Undefined when no page has this slug (a 404 in the form asked for). */
  page: Page | undefined;
  slug: string;
  form: FormName;
  /** `/s/{slug}`, or `` on a custom domain. */
  basePath: string;
  /** The form's options from the query string, normalized (see each form's `options`). */
  options: Record<string, string>;
  /** The reader's language, for a localized form (page-language.ts); undefined for the others. */
  language?: PageLanguage;
  /** The language came from Accept-Language, so the answer carries `Vary: Accept-Language`. */
  varyLanguage?: boolean;
}

const SLUG = /^[a-z0-9][a-z0-9_-]{0,63}$/;
/** A slug as public paths take it (the asset paths resolve theirs with it too, see serve-asset.ts). */
export const PAGE_SLUG = SLUG;

/**
 * Resolves a GET/HEAD request to a page form, from memory; null when the path is not a page path.
 * `query` is the query string without its "?" ('' when none); `acceptLanguage` is read only when the reader's language
 * can come from it (page-language.ts).
 */
export function resolvePageTarget(
  pages: PageCache,
  host: string | undefined,
  path: string,
  accept: string | undefined,
  query = '',
  acceptLanguage?: string,
): PageTarget | null {
  const onDomain = host ? pages.pageByDomain(host) : undefined;
  if (onDomain) {
    const named = PAGE_PATHS[path];
    if (named)
      return target(onDomain, onDomain.slug, named === 'page' ? pageForm(accept) : named, '', query, acceptLanguage);
  }
  if (path.startsWith('/api/v1/status/')) {
    const slug = path.slice('/api/v1/status/'.length);
    if (!SLUG.test(slug)) return slug.includes('/') ? null : target(undefined, slug, 'json', `/s/${slug}`, '');
    return target(pages.pageBySlug(slug), slug, 'json', `/s/${slug}`, '');
  }
  if (path.startsWith('/s/')) {
    const rest = path.slice(3);
    const slash = rest.indexOf('/');
    const slug = slash === -1 ? rest : rest.slice(0, slash);
    const named = PAGE_PATHS[slash === -1 ? '' : rest.slice(slash)];
    if (!named || slug === '') return null;
    return target(
      SLUG.test(slug) ? pages.pageBySlug(slug) : undefined,
      slug,
      named === 'page' ? pageForm(accept) : named,
      `/s/${slug}`,
      query,
      acceptLanguage,
    );
  }
  return null;
}

function target(
  page: Page | undefined,
  slug: string,
  form: FormName,
  basePath: string,
  query: string,
  acceptLanguage?: string,
): PageTarget {
  const options = formOptions(form, query);
  if (!(pageForms[form] as PageForm).localized) return { page, slug, form, basePath, options };
  const reader = readerLanguage(page, options.lang, acceptLanguage);
  return { page, slug, form, basePath, options, language: reader.language, varyLanguage: reader.fromHeader };
}

/**
 * The page a live-stream path is for: `/s/{slug}/live`, or `/live` on the page's custom domain. `page` is undefined
 * for an unknown slug; null means the path is not a live-stream path at all.
 */
export function resolveLiveTarget(
  pages: PageCache,
  host: string | undefined,
  path: string,
): { page: Page | undefined; slug: string; basePath: string } | null {
  const onDomain = host ? pages.pageByDomain(host) : undefined;
  if (onDomain && path === FORM_PATHS.live) return { page: onDomain, slug: onDomain.slug, basePath: '' };
  if (!path.startsWith('/s/') || !path.endsWith(FORM_PATHS.live)) return null;
  const slug = path.slice(3, -FORM_PATHS.live.length);
  if (slug === '' || slug.includes('/')) return null;
  return { page: SLUG.test(slug) ? pages.pageBySlug(slug) : undefined, slug, basePath: `/s/${slug}` };
}

/** The page itself is HTML, or Markdown for clients that ask for it (and not for HTML). */
export function pageForm(accept: string | undefined): FormName {
  if (!accept) return 'html';
  return /\btext\/markdown\b/i.test(accept) && !/\btext\/html\b/i.test(accept) ? 'markdown' : 'html';
}
