// A page's published uptime history over HTTP on each database: only once the page opts in, a month of days coloured
// as the 90-day bars are, with the incidents of each day; HTML with its own policy, and JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness, T0 } from '../../../../test/api-app.js';
import { dialects } from '../../../../test/store-dialects.js';
import type { CheckRow } from '../../../domain/check.js';
import { HISTORY_CACHE_MS } from './history.js';

const DAY = 86_400_000;
const TODAY = Math.floor(T0 / DAY) * DAY;

const check = (monitorId: string, checkedAt: number, ok: boolean): CheckRow => ({
  monitorId,
  checkedAt,
  ok,
  degraded: false,
  latencyMs: ok ? 20 : null,
  message: null,
  error: ok ? null : 'refused',
  data: null,
  source: 'edge',
  resultId: null,
});

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`the published uptime history on ${dialect.name}`, () => {
    let h: ApiHarness;

    beforeAll(async () => {
      h = await openApiHarness(dialect);
      const lobby = h.a.monitors.lobby?.id as string;
      // March 8th: 10 of 100 checks fail (down, 90 %); March 9th: 1 of 100 (degraded, 99 %); today all pass.
      const day = (start: number, failing: number) =>
        Array.from({ length: 100 }, (_, i) => check(lobby, start + i * 60_000, i >= failing));
      await h.store.checks.write([...day(TODAY - 2 * DAY, 10), ...day(TODAY - DAY, 1), ...day(TODAY, 0)], []);
      await h.pages.start();
    });
    afterAll(async () => {
      await h?.close();
    });

    it('answers 404 until the page publishes its history', async () => {
      const res = await h.call('GET', '/s/alpha/history', { key: null });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      // alpha is warden.yaml's (the API answers 409 to changing it): the file's `publishUptimeHistory: true` is this.
      const alpha = await h.store.pages.findBySlug('alpha');
      await h.store.pages.update(alpha?.id as string, { publishUptimeHistory: true }, T0);
      await h.pages.refreshIndex();
      const created = await h.call('POST', '/api/v1/pages', {
        body: { slug: 'gamma', title: 'Gamma', publishUptimeHistory: true },
      });
      expect(await created.json()).toMatchObject({ publishUptimeHistory: true });
      expect((await h.call('GET', '/s/alpha/history', { key: null })).status).toBe(200);
      // Another organization's page that does not publish stays 404.
      expect((await h.call('GET', '/s/beta/history.json', { key: null })).status).toBe(404);
    });

    it("gives the month's days with the bars' uptime and state, and the incidents open each day, as JSON", async () => {
      const res = await h.call('GET', '/s/alpha/history.json?month=2026-03', { key: null });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toMatch(/^public, max-age=/);
      const history = await res.json();
      expect(history).toMatchObject({ month: '2026-03', previous: '2026-02', next: null, page: { slug: 'alpha' } });
      expect(history.days).toHaveLength(10);
      const bars = (await (await h.call('GET', '/api/v1/status/alpha', { key: null })).json()).components[0].days;
      for (const day of history.days) {
        const bar = bars.find((b: { date: string }) => b.date === day.date);
        expect([day.components[0].uptime, day.components[0].state, day.components[0].downMinutes], day.date).toEqual([
          bar.uptime,
          bar.state,
          bar.downMinutes,
        ]);
      }
      expect(
        history.days.slice(-3).map((d: { state: string; availability: number }) => [d.state, d.availability]),
      ).toEqual([
        ['down', 90],
        ['degraded', 99],
        ['operational', 100],
      ]);
      expect(history.days[0]).toMatchObject({ date: '2026-03-01', state: 'unknown', uptime: null });
      // The page-wide incident seeded as open since March 1st is listed on each day and once for the month.
      expect(history.days.every((d: { incidents: { title: string }[] }) => d.incidents[0]?.title === 'Outage')).toBe(
        true,
      );
      expect(history.incidents.map((i: { title: string }) => i.title)).toEqual(['Outage']);
      expect(history.uptime).toBe(289 / 300);
    });

    it('draws an HTML calendar under its own content security policy, linking the months around', async () => {
      const res = await h.call('GET', '/s/alpha/history?month=2026-03', { key: null });
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-/);
      const html = await res.text();
      expect(html).toContain('<html lang="en">');
      expect(html).toContain('<td class="down" title="8 Mar 2026: Down, 90.00%, 1 incident"');
      expect(html).toContain('Uptime in March 2026: <strong>96.33%</strong>');
      expect(html).toContain('href="/s/alpha/history?month=2026-02"');
      expect(html).toContain('<strong>Outage</strong>');
      // March 1st 2026 is a Sunday: six blanks before it.
      expect(html.match(/<td class="blank">/g)).toHaveLength(6);
      const json = await h.call('GET', '/s/alpha/history', { key: null, headers: { accept: 'application/json' } });
      expect((await json.json()).month).toBe('2026-03');
    });

    it("speaks the page's language, the reader's pick or their browser's, as the page does", async () => {
      const picked = await h.call('GET', '/s/alpha/history?month=2026-03&lang=de', { key: null });
      expect(picked.headers.get('content-language')).toBe('de');
      const german = await picked.text();
      expect(german).toContain('<html lang="de">');
      expect(german).toMatch(/Verfügbarkeit im März 2026: <strong>96,33\s%<\/strong>/);
      expect(german).toMatch(/<th>Mo\.?<\/th>/);
      expect(german).toMatch(/<td class="down" title="[^"]*März 2026: Ausgefallen, 90,00\s%, 1 Störung"/);
      // The pick is kept in the links to the months around and to the page.
      expect(german).toContain('href="/s/alpha/history?month=2026-02&amp;lang=de"');
      expect(german).toContain('href="/s/alpha?lang=de"');
      const browser = await h.call('GET', '/s/alpha/history?month=2026-03', {
        key: null,
        headers: { 'accept-language': 'fr-CA,fr;q=0.9' },
      });
      expect(browser.headers.get('vary')).toContain('Accept-Language');
      expect(await browser.text()).toContain('Disponibilité en mars 2026');
      // A page with a language speaks it whatever the browser says.
      const alpha = await h.store.pages.findBySlug('alpha');
      await h.store.pages.update(alpha?.id as string, { language: 'pl' }, T0);
      await h.pages.refreshIndex();
      const polish = await h.call('GET', '/s/alpha/history?month=2026-03', {
        key: null,
        headers: { 'accept-language': 'fr' },
      });
      expect(polish.headers.get('content-language')).toBe('pl');
      expect(await polish.text()).toContain('<h2>Incydenty</h2>');
      await h.store.pages.update(alpha?.id as string, { language: null }, T0);
      await h.pages.refreshIndex();
    });

    it("serves the history on the page's custom domain, at /history and /history.json", async () => {
      const alpha = await h.store.pages.findBySlug('alpha');
      await h.store.pages.update(
        alpha?.id as string,
        { customDomain: 'status.alpha.test', customDomainVerifiedAt: T0 },
        T0,
      );
      await h.pages.refreshIndex();
      const onDomain = (path: string, headers: Record<string, string> = {}) =>
        h.call('GET', path, { key: null, headers: { host: 'status.alpha.test', ...headers } });
      const html = await onDomain('/history?month=2026-03');
      expect(html.status).toBe(200);
      const body = await html.text();
      expect(body).toContain('href="/history?month=2026-02"');
      expect(body).toContain('href="/">Current status</a>');
      const json = await onDomain('/history.json?month=2026-03');
      expect(await json.json()).toMatchObject({ month: '2026-03', page: { slug: 'alpha' } });
      expect((await (await onDomain('/history', { accept: 'application/json' })).json()).page.slug).toBe('alpha');
      // Without the domain, /history is no page's.
      expect((await h.call('GET', '/history', { key: null })).status).toBe(404);
      // A page on its domain that does not publish its history answers 404 there too.
      await h.store.pages.update(alpha?.id as string, { publishUptimeHistory: false }, T0 + 1);
      await h.pages.refreshIndex();
      expect((await onDomain('/history')).status).toBe(404);
      await h.store.pages.update(alpha?.id as string, { publishUptimeHistory: true, customDomain: null }, T0 + 2);
      await h.pages.refreshIndex();
      // Read once more as the page is now: the next test counts on this month being in memory.
      expect((await h.call('GET', '/s/alpha/history.json', { key: null })).status).toBe(200);
    });

    it("links the history from the page's footer, in the reader's language, only on a page that publishes it", async () => {
      const page = (path: string) => h.call('GET', path, { key: null }).then((r) => r.text());
      expect(await page('/s/alpha')).toContain('<a href="/s/alpha/history">Uptime history</a>');
      expect(await page('/s/alpha?lang=de')).toContain('<a href="/s/alpha/history?lang=de">Verfügbarkeitsverlauf</a>');
      expect(JSON.parse(await page('/s/alpha/status.json')).page.uptimeHistory).toBe(true);
      expect(await page('/s/beta')).not.toContain('/history');
      expect(JSON.parse(await page('/s/beta/status.json')).page).not.toHaveProperty('uptimeHistory');
    });

    it('reads a month again once its cache time passed, and refuses months it cannot show', async () => {
      await h.call('POST', '/api/v1/pages/alpha/incidents', {
        body: { title: 'Lobby restart', message: 'Restarting', components: ['lobby'] },
      });
      const before = await (await h.call('GET', '/s/alpha/history.json', { key: null })).json();
      expect(before.incidents).toHaveLength(1);
      h.clock.advance(HISTORY_CACHE_MS);
      const after = await (await h.call('GET', '/s/alpha/history.json', { key: null })).json();
      expect(after.incidents.map((i: { title: string }) => i.title)).toEqual(['Outage', 'Lobby restart']);
      for (const month of ['2026-04', '2025-01', '2026-13', 'march']) {
        const res = await h.call('GET', `/s/alpha/history.json?month=${month}`, { key: null });
        expect(res.status, month).toBe(400);
        expect((await res.json()).errors[0].path).toBe('query.month');
      }
    });
  });
}
