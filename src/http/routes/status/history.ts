// A page's published uptime history: GET /s/{slug}/history[?month=YYYY-MM] (HTML, or JSON for Accept: application/json)
// and /s/{slug}/history.json; 404 unless the page publishes it (`publishUptimeHistory`, never a protected page).
import type { Context } from 'hono';
import type { PageHistory } from '../../../domain/uptime-report.js';
import { HISTORY_CONTENT_SECURITY_POLICY, renderUptimeHistory } from '../../../render/uptime-history.js';
import { historyMonth, pageUptimeHistory } from '../../../services/reports/page-history.js';
import type { App, AppEnv, StatusDeps } from '../../env.js';
import { PROBLEM_CONTENT_TYPE, problem } from '../../problem.js';
import { PUBLIC_CACHE_CONTROL } from './page-headers.js';

/** A month's history is read again after this long (the page's own changes read it again at once). */
export const HISTORY_CACHE_MS = 30_000;
/** Months kept in memory at most, over all pages. */
const HISTORY_CACHE_ENTRIES = 500;

export function uptimeHistoryRoutes(app: App, deps: StatusDeps): void {
  const cache = new Map<string, { at: number; history: PageHistory }>();
  const read = async (c: Context<AppEnv>): Promise<PageHistory | Response> => {
    const slug = c.req.param('slug') ?? '';
    const page = deps.pages.pageBySlug(slug);
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
  const serve = async (c: Context<AppEnv>, json: boolean) => {
    const history = await read(c);
    if (history instanceof Response) return history;
    c.header('cache-control', PUBLIC_CACHE_CONTROL);
    c.header('vary', 'Accept');
    if (json) return c.json(history);
    c.header('content-security-policy', HISTORY_CONTENT_SECURITY_POLICY);
    c.header('x-content-type-options', 'nosniff');
    return c.html(renderUptimeHistory(history, `/s/${history.page.slug}`));
  };
  app.get('/s/:slug/history.json', (c) => serve(c, true));
  app.get('/s/:slug/history', (c) => serve(c, /application\/json/i.test(c.req.header('accept') ?? '')));
}
