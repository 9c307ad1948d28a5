// Which page and form a public request is for: /api/v1/status/{slug}, /s/{slug}[/…], or "/…" on a page's custom domain.
import type { FormName } from '../../../render/forms.js';
import type { PageCache } from '../../../services/pages/page-cache.js';
import type { Page } from '../../../store/pages.js';

/** Page-relative paths, the same under /s/{slug} and at the root of a custom domain ("" is the page itself). */
export const PAGE_PATHS: Record<string, FormName | 'page'> = {
  '': 'page',
  '/': 'page',
  '/status.json': 'json',
  '/status.md': 'markdown',
};

export interface PageTarget {
  /** Undefined when no page has this slug (a 404 in the form asked for). */
  page: Page | undefined;
  slug: string;
  form: FormName;
  /** `/s/{slug}`, or `` on a custom domain. */
  basePath: string;
}

const SLUG = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** Resolves a GET/HEAD request to a page form, from memory; null when the path is not a page path. */
export function resolvePageTarget(pages: PageCache, host: string | undefined, path: string, accept: string | undefined): PageTarget | null {
  const onDomain = host ? pages.pageByDomain(host) : undefined;
  if (onDomain) {
    const form = PAGE_PATHS[path];
    if (form) return { page: onDomain, slug: onDomain.slug, form: form === 'page' ? pageForm(accept) : form, basePath: '' };
  }
  if (path.startsWith('/api/v1/status/')) {
    const slug = path.slice('/api/v1/status/'.length);
    if (!SLUG.test(slug)) return slug.includes('/') ? null : { page: undefined, slug, form: 'json', basePath: `/s/${slug}` };
    return { page: pages.pageBySlug(slug), slug, form: 'json', basePath: `/s/${slug}` };
  }
  if (path.startsWith('/s/')) {
    const rest = path.slice(3);
    const slash = rest.indexOf('/');
    const slug = slash === -1 ? rest : rest.slice(0, slash);
    const form = PAGE_PATHS[slash === -1 ? '' : rest.slice(slash)];
    if (!form || slug === '') return null;
    return {
      page: SLUG.test(slug) ? pages.pageBySlug(slug) : undefined,
      slug,
      form: form === 'page' ? pageForm(accept) : form,
      basePath: `/s/${slug}`,
    };
  }
  return null;
}

/** The page itself is HTML, or Markdown for clients that ask for it (and not for HTML). */
function pageForm(accept: string | undefined): FormName {
  if (!accept) return 'html';
  return /\btext\/markdown\b/i.test(accept) && !/\btext\/html\b/i.test(accept) ? 'markdown' : 'html';
}
