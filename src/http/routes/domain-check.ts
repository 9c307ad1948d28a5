// GET /domain-check?domain=NAME: whether NAME is a verified custom domain of a status page here, for a reverse
// proxy's on-demand TLS (Caddy's `on_demand_tls { ask … }`): it gets a certificate only for names Warden would serve,
// so nobody can make it request certificates by pointing arbitrary names at the server.
import { normalizeHost } from '../../domain/custom-domain.js';
import type { PageCache } from '../../services/pages/page-cache.js';
import type { App } from '../env.js';
import { problem, problemResponse } from '../problem.js';

/** Longer than any DNS name: refused before it is looked at. */
const DOMAIN_MAX = 253;

/** `pages`: the page cache, whose index of verified custom domains answers. */
export function domainCheckRoutes(app: App, pages: Pick<PageCache, 'pageByDomain'>): void {
  app.get('/domain-check', (c) => {
    const domain = c.req.query('domain');
    if (domain === undefined || domain === '' || domain.length > DOMAIN_MAX)
      return problemResponse(
        c,
        problem(400, 'validation', 'Invalid request', 'Give the name to check as ?domain=.', [
          { path: 'query.domain', message: `expected a domain name of 1 to ${DOMAIN_MAX} characters` },
        ]),
      );
    const name = normalizeHost(domain);
    // The page index in memory answers: no database round trip per TLS handshake the proxy makes.
    const page = pages.pageByDomain(name);
    if (!page)
      return problemResponse(
        c,
        problem(404, 'not-found', 'Not found', `${name} is not a verified custom domain of a status page here.`),
      );
    return c.json({ domain: name, verified: true }, 200, { 'cache-control': 'no-store' });
  });
}
