// Several vantage points over HTTP (issue 37): a monitor on the edge and two relays (fra, nyc). One location of three
// down: still up, no alert; two: down, with an alert naming them; a relay that fell silent does not vote. The relays
// post their results to /api/relay/results; the edge's take the ingest the edge runner calls. Bad locations: 400.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Harness, startHarness } from '../../../../test/app-harness.js';
import { type Receiver, startReceiver } from '../../../../test/fakes/notify-receivers.js';
import { dialects } from '../../../../test/store-dialects.js';
import type { NotificationEvent } from '../../../notify/channels/channel.js';
import { createApiKey } from '../../../services/api-keys/create.js';

const START = Date.UTC(2026, 10, 21, 9);
const MIN = 60_000;
const FRA = 'wdr_fraRelayToken0123456789abcd';
const NYC = 'wdr_nycRelayToken0123456789abcd';
const SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const yaml = (hook: string) => `
organization: { key: acme, name: Acme, probePrivateTargets: allow }
relays:
  - { key: fra, name: Frankfurt, token: ${FRA} }
  - { key: nyc, name: New York, token: ${NYC} }
monitors:
  - { key: web, name: Web, type: tcp, retries: 0, locations: [fra, nyc], config: { host: 10.0.0.5, port: 80 } }
  - { key: solo, name: Solo, type: tcp, config: { host: 10.0.0.6, port: 80 } }
notifications:
  - { key: hook, name: Hook, type: webhook, config: { url: "${hook}", secret: "${SECRET}" } }
pages:
  - { slug: shop, title: Shop, components: [{ name: Storefront, monitor: web }, { name: Solo, monitor: solo }] }
`;

interface LocationState {
  location: string;
  verdict: string;
  voting: boolean;
  latencyMs: number | null;
}

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`a monitor at several locations on ${dialect.name}`, { timeout: 60_000 }, () => {
    let h: Harness;
    let receiver: Receiver;
    let key: string;
    let web: string;
    beforeAll(async () => {
      receiver = await startReceiver({ status: 204 });
      h = await startHarness(dialect, yaml(`${receiver.url}/hook`), START);
      key = (await createApiKey({ ...h.context, organizationId: h.organizationId }, { name: 't', scope: 'write' }))
        .secret;
      web = h.monitors.web?.id as string;
    });
    afterAll(async () => {
      await h?.close();
      await receiver?.close();
    });

    const api = (path: string, init: { method?: string; body?: unknown } = {}) =>
      h.request(path, {
        method: init.method ?? 'GET',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
    const relay = async (token: string, ok: boolean, latencyMs = 40) => {
      const res = await h.request('/api/relay/results', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          results: [
            { monitorId: web, ok, latencyMs, error: ok ? null : 'connection refused', checkedAt: h.clock.now() },
          ],
        }),
      });
      expect(await res.json()).toMatchObject({ accepted: 1, rejected: [] });
    };
    const edge = async (ok: boolean) => {
      await h.ingest.record({ monitorId: web, ok, latencyMs: 12, error: ok ? null : 'timed out', source: 'edge' });
    };
    /** One round: each location's result, in this order. */
    const round = async (results: { edge?: boolean; fra?: boolean; nyc?: boolean }) => {
      if (results.fra !== undefined) await relay(FRA, results.fra, 80);
      if (results.nyc !== undefined) await relay(NYC, results.nyc, 120);
      if (results.edge !== undefined) await edge(results.edge);
      await h.ingest.flush();
    };
    const monitor = async () =>
      (await (await api('/api/v1/monitors/web')).json()) as {
        state: string;
        locations: string[];
        quorum: number | null;
        locationStates: LocationState[];
      };
    let read = 0;
    const received = async () => {
      const hook = await h.opened.store.channels.findByKey(h.organizationId, 'hook');
      await vi.waitFor(async () => {
        await h.dispatcher.tick();
        const deliveries = await h.opened.store.deliveries.listByChannel(hook?.id as string, 100);
        expect(deliveries.filter((d) => d.status === 'pending' || d.status === 'sending')).toEqual([]);
      }, 20_000);
      const events = receiver.requests.slice(read).map((r) => (r.json as { data: NotificationEvent }).data);
      read = receiver.requests.length;
      return events;
    };

    it('gives each relay the monitors that list it, and is up when every location is', async () => {
      for (const token of [FRA, NYC]) {
        const config = await (
          await h.request('/api/relay/config', { headers: { authorization: `Bearer ${token}` } })
        ).json();
        expect(config.monitors.map((m: { key: string }) => m.key)).toEqual(['web']);
      }
      await round({ edge: true, fra: true, nyc: true });
      const view = await monitor();
      expect(view).toMatchObject({ state: 'up', locations: ['fra', 'nyc'], quorum: null });
      expect(view.locationStates).toEqual([
        expect.objectContaining({ location: 'edge', verdict: 'up', voting: true, latencyMs: 12 }),
        expect.objectContaining({ location: 'fra', verdict: 'up', voting: true, latencyMs: 80 }),
        expect.objectContaining({ location: 'nyc', verdict: 'up', voting: true, latencyMs: 120 }),
      ]);
      expect(await received()).toEqual([]);
    });

    it('stays up with one location of three down, and tells nobody', async () => {
      h.clock.advance(MIN);
      await round({ fra: true, nyc: true, edge: false });
      const view = await monitor();
      expect(view.state).toBe('up');
      expect(view.locationStates[0]).toMatchObject({ location: 'edge', verdict: 'down' });
      expect(await received()).toEqual([]);
    });

    it('goes down with two of three, and the alert names them', async () => {
      h.clock.advance(MIN);
      await round({ nyc: true, edge: false, fra: false });
      expect((await monitor()).state).toBe('down');
      const events = await received();
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        kind: 'monitor.down',
        monitor: { key: 'web' },
        reason: 'down from edge, fra (2 of 3): connection refused',
      });
      const changes = await (await api('/api/v1/monitors/web/states')).json();
      expect(changes.changes[0]).toMatchObject({
        to: 'down',
        message: 'down from edge, fra (2 of 3): connection refused',
      });
    });

    it('recovers once fewer than two see it down', async () => {
      h.clock.advance(MIN);
      await round({ edge: true, fra: false, nyc: true });
      expect((await monitor()).state).toBe('up');
      expect((await received()).map((e) => e.kind)).toEqual(['monitor.recovered']);
    });

    it('does not count a silent relay: its old failure does not vote', async () => {
      h.clock.advance(MIN);
      await round({ edge: true, fra: true, nyc: false });
      expect((await monitor()).state).toBe('up');
      // nyc falls silent; three minutes on (beyond two intervals), the edge fails and fra passes: 1 of 2, not 2 of 3.
      h.clock.advance(3 * MIN);
      await round({ fra: true, edge: false });
      const view = await monitor();
      expect(view.state).toBe('up');
      expect(view.locationStates.map((s) => [s.location, s.verdict, s.voting])).toEqual([
        ['edge', 'down', true],
        ['fra', 'up', true],
        ['nyc', 'down', false],
      ]);
      // fra fails too: 2 of the 2 voting.
      h.clock.advance(MIN);
      await round({ fra: false });
      expect((await monitor()).state).toBe('down');
      expect((await received()).map((e) => [e.kind, e.reason])).toEqual([
        ['monitor.down', 'down from edge, fra (2 of 2): connection refused'],
      ]);
    });

    it('keeps each check with its location, and serves hourly latency per location', async () => {
      const history = await (await api('/api/v1/monitors/web/history?limit=100')).json();
      expect(new Set(history.checks.map((c: { location: string }) => c.location))).toEqual(
        new Set(['edge', 'fra', 'nyc']),
      );
      const latency = await (await api('/api/v1/monitors/web/latency?hours=2')).json();
      expect(latency.series.map((s: { location: string }) => s.location)).toEqual(['edge', 'fra', 'nyc']);
      const byLocation = Object.fromEntries(
        latency.series.map((s: { location: string; points: { latencyAvgMs: number; count: number }[] }) => [
          s.location,
          s.points.reduce((sum, p) => sum + p.count, 0),
        ]),
      );
      expect(byLocation).toEqual({ edge: 6, fra: 7, nyc: 5 });
      expect(latency.series[1].points[0].latencyAvgMs).toBe(80);
      const solo = await (await api('/api/v1/monitors/solo/latency')).json();
      expect(solo.series).toEqual([{ location: 'edge', points: [] }]);
    });

    it("draws the page's response time per location, naming relays by name and Warden itself by the page's word", async () => {
      const status = await (await h.request('/s/shop/status.json')).json();
      const [storefront, solo] = status.components as {
        charts: { locations?: { name: string | null; latency: Record<string, { summary: { avg: number } }> }[] };
      }[];
      expect(storefront?.charts.locations?.map((l) => l.name)).toEqual([null, 'Frankfurt', 'New York']);
      expect(storefront?.charts.locations?.map((l) => l.latency['24h']?.summary.avg)).toEqual([12, 80, 120]);
      // A single-location monitor has no per-location chart.
      expect(solo?.charts.locations).toBeUndefined();
      const html = await (await h.request('/s/shop')).text();
      expect(html).toContain('Response time by location');
      expect(html).toContain(
        'Average response time by location over 24 hours: Main 12 ms, Frankfurt 80 ms, New York 120 ms',
      );
      expect(html.match(/class="lloc loc\d"/g)).toHaveLength(3);
      // Relay keys and ids stay off the page.
      expect(html).not.toMatch(/\bfra\b|\bnyc\b/);
      const german = await (await h.request('/s/shop?lang=de')).text();
      expect(german).toContain('Antwortzeit nach Standort');
    });

    it('refuses bad locations with 400 naming the field', async () => {
      const create = (body: Record<string, unknown>) =>
        api('/api/v1/monitors', {
          method: 'POST',
          body: { key: 'x', name: 'X', type: 'tcp', config: { host: 'a.example', port: 1 }, ...body },
        });
      const cases: [Record<string, unknown>, string, RegExp][] = [
        [{ locations: ['nope'] }, 'body.locations', /no relay with key "nope"/],
        [{ locations: ['fra'], quorum: 3 }, 'body.quorum', /at most the number of locations \(2/],
        [{ locations: ['edge'] }, 'body.locations', /own place/],
        [{ type: 'heartbeat', config: {}, locations: ['fra'] }, 'body.locations', /push monitor/],
      ];
      for (const [body, path, message] of cases) {
        const res = await create(body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect((await res.json()).errors).toEqual([{ path, message: expect.stringMatching(message) }]);
      }
      const created = await create({ key: 'multi', locations: ['fra', 'nyc'] });
      expect(created.status).toBe(201);
      expect(await created.json()).toMatchObject({ locations: ['fra', 'nyc'], quorum: null, locationStates: [] });
      const patch = (body: Record<string, unknown>) => api('/api/v1/monitors/multi', { method: 'PATCH', body });
      expect(await (await patch({ quorum: 3 })).json()).toMatchObject({ quorum: 3, locations: ['fra', 'nyc'] });
      const off = await patch({ locations: null, quorum: null });
      expect(await off.json()).toMatchObject({ locations: null, quorum: null, locationStates: [] });
      const tooMany = await patch({ quorum: 2 });
      expect(tooMany.status).toBe(400);
      expect((await tooMany.json()).errors).toEqual([{ path: 'body.quorum', message: expect.any(String) }]);
    });
  });
}
