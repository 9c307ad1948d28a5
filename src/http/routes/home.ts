// GET / on Warden's own address: the public status pages with their overall state and the way into the dashboard, or
// the page itself when there is only one and the dashboard has its owner (a page's custom domain serves that page at /
// instead, before this route).
import { isIP } from 'node:net';
import { baseHostOf, normalizeHost } from '../../domain/custom-domain.js';
import type { Page } from '../../domain/page.js';
import { renderHomePage } from '../../render/home-page.js';
import { setupRequired } from '../../services/accounts/setup.js';
import { serviceContext } from '../../services/context.js';
import { loadPublicPages } from '../../services/pages/list-public-pages.js';
import type { App, PublicPagesDeps } from '../env.js';
import { problem, problemResponse } from '../problem.js';
import { HTML_HEADERS } from './status/serve-form.js';

/** The most pages / lists: a directory, not an index of a large installation. */
export const HOME_PAGE_LIST_MAX = 100;

export function homeRoutes(app: App, deps: PublicPagesDeps): void {
  app.get('/', async (c) => {
    if (!isOwnAddress(c.req.header('host'), deps.baseUrl))
      return problemResponse(c, problem(404, 'not-found', 'Not found', `Nothing is served at ${c.req.path}.`));
    // Public pages only: a password-protected page is not advertised.
    const pages = deps.pages
      .pages()
      .filter((p) => p.passwordHash === null)
      .sort((a, b) => a.title.localeCompare(b.title) || a.slug.localeCompare(b.slug));
    // Before the first account, / is the operator's way in: the demo page alone must not hide the setup.
    const setup = await setupRequired(serviceContext(c.var.deps, { logger: c.var.log }));
    // One page is what a visitor came for: no directory of one. (No-cache: a second page changes the answer.)
    if (pages.length === 1 && !setup)
      return c.body(null, 302, {
        location: `/s/${encodeURIComponent((pages[0] as Page).slug)}`,
        'cache-control': 'no-cache',
      });
    // States from the page cache (snapshots in memory; cold ones are built a few at a time).
    const cached = await loadPublicPages(deps, pages.slice(0, HOME_PAGE_LIST_MAX));
    const listed = cached.map(({ page, snapshot }) => ({
      slug: page.slug,
      title: page.title,
      description: page.description,
      overall: snapshot.overall,
    }));
    const { contentType, body } = renderHomePage(listed, { setup });
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
