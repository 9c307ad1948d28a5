// GET / on Warden's own address: links to the dashboard and to the public status pages (a page's custom domain serves
// that page at / instead, before this route is reached).
import { isIP } from 'node:net';
import { baseHostOf, normalizeHost } from '../../domain/custom-domain.js';
import { renderHomePage } from '../../render/home-page.js';
import type { App } from '../app.js';
import { problem, problemResponse } from '../problem.js';
import { HTML_HEADERS } from './status/serve-form.js';

/** The most pages / lists: a directory, not an index of a large installation. */
export const HOME_PAGE_LIST_MAX = 100;

export function homeRoutes(app: App): void {
  app.get('/', (c) => {
    if (!isOwnAddress(c.req.header('host'), c.get('deps').baseUrl))
      return problemResponse(c, problem(404, 'not-found', 'Not found', `Nothing is served at ${c.req.path}.`));
    // Public pages only: a password-protected page is not advertised.
    const pages = c
      .get('deps')
      .pages.pages()
      .filter((p) => p.passwordHash === null)
      .sort((a, b) => a.title.localeCompare(b.title) || a.slug.localeCompare(b.slug))
      .slice(0, HOME_PAGE_LIST_MAX);
    const { contentType, body } = renderHomePage(pages);
    return c.body(body, 200, { ...HTML_HEADERS, 'content-type': contentType, 'cache-control': 'no-cache' });
  });
}

/**
 * Whether a request reached Warden by its own address: the base URL's host, a loopback name or an IP address (no
 * page's custom domain is either). Any other name — an unverified or abandoned custom domain — answers 404, so a name
 * pointed at Warden never shows anything its owner did not prove.
 */
export function isOwnAddress(host: string | undefined, baseUrl: string): boolean {
  if (host === undefined) return false;
  const name = normalizeHost(host);
  return name === baseHostOf(baseUrl) || name === 'localhost' || isIP(name) !== 0;
}
