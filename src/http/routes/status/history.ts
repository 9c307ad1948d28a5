// A page's published uptime history: GET /s/{slug}/history[?month=YYYY-MM] (HTML in the reader's language, or JSON for
// Accept: application/json) and /s/{slug}/history.json, and the same at /history and /history.json on the page's
// custom domain; 404 unless the page publishes it (`publishUptimeHistory`, never a protected page).
import type { Context } from 'hono';
import type { Page } from '../../../domain/page.js';
import type { PageHistory } from '../../../domain/uptime-report.js';
import { translator } from '../../../render/i18n/index.js';
import { HISTORY_CONTENT_SECURITY_POLICY, renderUptimeHistory } from '../../../render/uptime-history.js';
import { historyMonth, pageUptimeHistory } from '../../../services/reports/page-history.js';
import type { App, AppEnv, StatusDeps } from '../../env.js';
import { PROBLEM_CONTENT_TYPE, problem } from '../../problem.js';
import { PUBLIC_CACHE_CONTROL } from './page-headers.js';
import { readerLanguage } from './page-language.js';

/** A month's history is read again after this long (the page's own changes read it again at once). */
export const HISTORY_CACHE_MS = 30_000;
/** Months kept in memory at most, over all pages. */
const HISTORY_CACHE_ENTRIES = 500;

/** The history's paths under a page: `/s/{slug}` + these, or these alone on its custom domain. */
const HISTORY_PATHS: Record<string, 'negotiated' | 'json'> = { '/history': 'negotiated', '/history.json': 'json' };

/** Which page a request is for: `slug` from the path, or the page whose custom domain is the Host; `basePath` to match. */
interface HistoryTarget {
  slug: string;
  page: Page | undefined;
  basePath: string;
}

export function uptimeHistoryRoutes(app: App, deps: StatusDeps): void {
  const cache = new Map<string, { at: number; history: PageHistory }>();
  const read = async (c: Context<AppEnv>, { slug, page }: HistoryTarget): Promise<PageHistory | Response> => {
    if (!page?.publishUptimeHistory || page.passwordHash !== null) {
      const body = problem(404, 'page-not-found', 'Not found', `The page "${slug}" publishes no uptime history.`);
      return new Response(JSON.stringify({ ...body, instance: c.req.path }), {
        status: 404,
        headers: { 'content-type': PROBLEM_CONTENT_TYPE, 'cache-control': 'no-store' },
      });
    }
    const now = deps.clock.now();
    const month = historyMonth(c.req.query('month'), now);
    const key = `${page.id}\u0000${month}\u0000${page.updatedAt}`;
    const cached = cache.get(key);
    if (cached && now - cached.at < HISTORY_CACHE_MS && now >= cached.at) return cached.history;
    const history = await pageUptimeHistory(deps, { page, month, now });
    cache.delete(key);
    cache.set(key, { at: now, history });
    if (cache.size > HISTORY_CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
    return history;
  };
  const serve = async (c: Context<AppEnv>, target: HistoryTarget, json: boolean) => {
    const history = await read(c, target);
    if (history instanceof Response) return history;
    c.header('cache-control', PUBLIC_CACHE_CONTROL);
    if (json) {
      c.header('vary', 'Accept');
      return c.json(history);
    }
    const page = target.page as Page;
    const reader = readerLanguage(page, c.req.query('lang'), c.req.header('accept-language'));
    c.header('vary', reader.fromHeader ? 'Accept, Accept-Language' : 'Accept');
    c.header('content-language', reader.language);
    c.header('content-security-policy', HISTORY_CONTENT_SECURITY_POLICY);
    c.header('x-content-type-options', 'nosniff');
    const i18n = translator(reader.language, page.timeZone);
    return c.html(renderUptimeHistory(history, target.basePath, { i18n, picked: reader.picked }));
  };
  const negotiated = (c: Context<AppEnv>) => /application\/json/i.test(c.req.header('accept') ?? '');
  // On a page's custom domain: /history and /history.json are that page's (as its other forms are).
  app.use('*', async (c, next) => {
    const kind = HISTORY_PATHS[c.req.path];
    const host = c.req.header('host');
    const page = kind && (c.req.method === 'GET' || c.req.method === 'HEAD') && host && deps.pages.pageByDomain(host);
    if (!page) return next();
    return serve(c, { slug: page.slug, page, basePath: '' }, kind === 'json' || negotiated(c));
  });
  const bySlug = (c: Context<AppEnv>): HistoryTarget => {
    const slug = c.req.param('slug') ?? '';
    return { slug, page: deps.pages.pageBySlug(slug), basePath: `/s/${slug}` };
  };
  app.get('/s/:slug/history.json', (c) => serve(c, bySlug(c), true));
  app.get('/s/:slug/history', (c) => serve(c, bySlug(c), negotiated(c)));
}
