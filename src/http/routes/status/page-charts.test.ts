// The HTML page's charts through the app: real checks become the chosen window's SVG, ?range picks it on the slug
// path and the custom domain, each window its own cached rendering, and the JSON carries the series.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../../../../test/app-harness.js';
import { dialects } from '../../../../test/store-dialects.js';

const CONFIG = `
organization: { name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: minecraft-java, config: { host: 127.0.0.1, port: 25565 } }
pages:
  - slug: acme
    title: Acme Network
    customDomain: status.acme.test
    components:
      - { name: Lobby, monitor: lobby }
      - { name: Forum }
`;

const labels = (html: string) =>
  [...html.matchAll(/role="img" aria-label="((?:Response time|Players) over [^"]+)"/g)].map((m) => m[1]);

for (const dialect of dialects)
  describe.skipIf(!dialect.available)(`the charts of the HTML page on ${dialect.name}`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startHarness(dialect, CONFIG);
      await h.ingest.record({
        monitorId: h.monitors.lobby!.id,
        ok: true,
        latencyMs: 20,
        data: { players: 42, maxPlayers: 100 },
        source: 'edge',
      });
    });
    afterAll(() => h.close());

    it('draws the lobby’s response time and players over 24 hours by default, and 7 or 30 days when asked', async () => {
      const html = await (await h.request('/s/acme')).text();
      expect(labels(html)).toEqual([
        'Response time over 24 hours: median 20 ms, 95th percentile 20 ms',
        'Players over 24 hours: average 42, fewest 42, most 42',
      ]);
      expect(html).toContain('<a href="?range=24h#components-title" aria-current="page">24 h</a>');
      for (const [query, words] of [
        ['range=7d', '7 days'],
        ['range=30d', '30 days'],
        ['range=24h', '24 hours'],
        ['range=1y', '24 hours'],
      ]) {
        const answer = await h.request(`/s/acme?${query}`);
        expect(answer.status).toBe(200);
        expect(
          labels(await answer.text()).every((label) => label?.includes(`over ${words}:`)),
          query,
        ).toBe(true);
      }
      const domain = await h.request('/?range=30d', { host: 'status.acme.test' });
      expect(labels(await domain.text())[0]).toMatch(/^Response time over 30 days: /);
    });

    it('gives each window its own ETag, and the default the same bytes with or without ?range=24h', async () => {
      const [plain, day, week] = await Promise.all(
        ['/s/acme', '/s/acme?range=24h', '/s/acme?range=7d'].map((path) => h.request(path)),
      );
      expect(day!.headers.get('etag')).toBe(plain!.headers.get('etag'));
      expect(week!.headers.get('etag')).not.toBe(plain!.headers.get('etag'));
    });

    it('serves the series and each day’s details in the JSON', async () => {
      const snapshot = await (await h.request('/s/acme/status.json')).json();
      const [lobby, forum] = snapshot.components;
      expect(lobby.charts.latency['24h']).toMatchObject({ stepMs: 3_600_000, summary: { p50: 20, p95: 20 } });
      expect(lobby.charts.latency['24h'].p50).toHaveLength(24);
      expect(lobby.charts.latency['7d'].p50).toHaveLength(28);
      expect(lobby.charts.players['30d'].max.at(-1)).toBe(42);
      expect(lobby.days.at(-1)).toMatchObject({ checks: 1, downMinutes: 0, incidents: [] });
      expect(forum.charts).toEqual({ latency: null, players: null });
    });
  });
