// A page's snapshot from the parts read from the store on each dialect (buildSnapshot).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NOW } from '../../../test/fakes/assemble-parts.js';
import { seed } from '../../../test/seed.js';
import { dialects, type OpenedStore } from '../../../test/store-dialects.js';
import { createInProcessBus } from '../../bus/bus.js';
import { DAY_MS, HOUR_MS } from '../../domain/check.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { createLogger } from '../../logger.js';
import { createIngest } from '../../runner/ingest.js';
import { buildSnapshot, CHART_REFRESH_MS } from './build-snapshot.js';

const at = (ms: number) => new Date(ms).toISOString();
/** Lobby and Backups show monitors, Forum none; an open incident, one resolved 3 days ago and one 20 days ago; maintenance now, soon and over. */
const STORED = `
organization: { key: acme, name: Acme }
monitors:
  - { key: lobby, name: Lobby, type: minecraft-java, config: { host: mc.example.com } }
  - { key: backup, name: Backup, type: heartbeat }
  - { key: elsewhere, name: Elsewhere, type: heartbeat }
pages:
  - slug: acme
    title: Acme
    components:
      - { name: Lobby, monitor: lobby }
      - { name: Backups, monitor: backup }
      - { name: Forum }
    incidents:
      - { key: open, title: Lag, impact: major, startedAt: "${at(NOW - HOUR_MS)}", components: [Forum] }
      - { key: recent, title: Outage, status: resolved, startedAt: "${at(NOW - 3 * DAY_MS)}", resolvedAt: "${at(NOW - 3 * DAY_MS + HOUR_MS)}" }
      - { key: old, title: Old news, status: resolved, startedAt: "${at(NOW - 20 * DAY_MS)}", resolvedAt: "${at(NOW - 20 * DAY_MS + HOUR_MS)}" }
    maintenance:
      - { key: now, title: Switches, startsAt: "${at(NOW - HOUR_MS)}", endsAt: "${at(NOW + HOUR_MS)}", components: [Backups] }
      - { key: soon, title: Upgrade, startsAt: "${at(NOW + DAY_MS)}", endsAt: "${at(NOW + DAY_MS + HOUR_MS)}" }
      - { key: over, title: Done, startsAt: "${at(NOW - 2 * DAY_MS)}", endsAt: "${at(NOW - 2 * DAY_MS + HOUR_MS)}" }
`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`building a snapshot from the store on ${dialect.name}`, () => {
    let opened: OpenedStore;
    beforeEach(async () => {
      opened = await dialect.open();
    });
    afterEach(async () => {
      await opened.cleanup();
    });

    it('reads the components, their monitors’ last results and buckets, and the incidents and maintenance in range', async () => {
      const { store } = opened;
      const { monitors } = await seed(store, STORED, NOW - 100 * DAY_MS);
      const ingest = createIngest({
        store,
        bus: createInProcessBus(),
        clock: { now: () => NOW },
        logger: createLogger('silent'),
      });
      const lobby = monitors.lobby!.id;
      await ingest.recordMany([
        { monitorId: lobby, ok: true, latencyMs: 10, source: 'relay', checkedAt: NOW - 95 * DAY_MS },
        { monitorId: lobby, ok: false, error: 'timed out', source: 'relay', checkedAt: NOW - 5 * DAY_MS },
        { monitorId: lobby, ok: true, latencyMs: 20, source: 'relay', checkedAt: NOW - 5 * DAY_MS + 1000 },
        { monitorId: lobby, ok: false, error: 'timed out', source: 'relay', checkedAt: NOW - 25 * HOUR_MS },
        {
          monitorId: lobby,
          ok: true,
          latencyMs: 30,
          data: { players: 5, maxPlayers: 20 },
          source: 'relay',
          checkedAt: NOW - 60_000,
        },
        { monitorId: monitors.elsewhere!.id, ok: false, error: 'missed', source: 'push', checkedAt: NOW - 60_000 },
      ]);
      await ingest.close();

      const page = (await store.pages.findBySlug('acme'))!;
      const snapshot = await buildSnapshot({ store }, { page, now: NOW, pageUrl: 'http://x/s/acme' });
      expect(snapshot.page).toMatchObject({ id: page.id, slug: 'acme', title: 'Acme', url: 'http://x/s/acme' });
      expect(snapshot.generatedAt).toBe(NOW);
      expect(snapshot.components.map((c) => [c.name, c.state, c.monitorState])).toEqual([
        ['Lobby', 'operational', 'up'],
        ['Backups', 'maintenance', 'unknown'],
        ['Forum', 'down', null],
      ]);
      const [first, second, third] = snapshot.components;
      expect(first?.live).toMatchObject({ checkedAt: NOW - 60_000, latencyMs: 30, players: 5, maxPlayers: 20 });
      expect(first?.uptime).toEqual({ '24h': 1, '7d': 2 / 4, '30d': 2 / 4, '90d': 2 / 4 });
      expect(first?.days.filter((d) => d.checks > 0).map((d) => [d.date, d.checks, d.uptime])).toEqual([
        [at(NOW - 5 * DAY_MS).slice(0, 10), 2, 0.5],
        [at(NOW - 25 * HOUR_MS).slice(0, 10), 1, 0],
        [at(NOW).slice(0, 10), 1, 1],
      ]);
      expect(second?.live).toBeNull();
      expect(third).toMatchObject({ live: null, uptime: { '24h': null, '90d': null } });
      // The charts, from the whole buckets: the latest hour, six hours and day hold the last check.
      const latency = first?.charts.latency;
      expect([latency?.['24h'].p50.at(-1), latency?.['7d'].p50.at(-1), latency?.['30d'].p50.at(-1)]).toEqual([
        30, 30, 30,
      ]);
      expect(latency?.['7d'].p50.filter((v) => v !== null)).toEqual([20, 30]);
      // Two checks, 20 and 30 ms: the 95th percentile is interpolated inside the histogram bin of 20–35 ms.
      expect(latency?.['30d'].summary).toEqual({ p50: 20, p95: 29 });
      expect(first?.charts.players?.['24h']).toMatchObject({ stepMs: HOUR_MS, summary: { min: 5, avg: 5, max: 5 } });
      expect(first?.charts.players?.['24h'].max.at(-1)).toBe(5);
      expect([second?.charts, third?.charts]).toEqual([
        { latency: null, players: null },
        { latency: null, players: null },
      ]);
      expect(snapshot.totals).toEqual({ players: 5, maxPlayers: 20 });

      expect(snapshot.activeIncidents.map((i) => [i.title, i.components.map((c) => c.name)])).toEqual([
        ['Lag', ['Forum']],
      ]);
      expect(snapshot.recentIncidents.map((i) => i.title)).toEqual(['Outage']);
      expect(snapshot.maintenance.active.map((w) => [w.title, w.components.map((c) => c.name)])).toEqual([
        ['Switches', ['Backups']],
      ]);
      expect(snapshot.maintenance.upcoming.map((w) => w.title)).toEqual(['Upgrade']);
      expect(snapshot.overall.state).toBe('down');
    });

    it('reuses the last snapshot’s charts for a rebuild within a minute of their read, and reads them again after', async () => {
      const { store } = opened;
      const { monitors } = await seed(store, STORED, NOW - 100 * DAY_MS);
      const lobby = monitors.lobby!.id;
      const record = async (latencyMs: number, checkedAt: number) => {
        const ingest = createIngest({
          store,
          bus: createInProcessBus(),
          clock: { now: () => checkedAt },
          logger: createLogger('silent'),
        });
        await ingest.recordMany([
          {
            monitorId: lobby,
            ok: latencyMs > 0,
            latencyMs: latencyMs > 0 ? latencyMs : undefined,
            source: 'relay',
            checkedAt,
          },
        ]);
        await ingest.close();
      };
      await record(30, NOW - 120_000);
      const page = (await store.pages.findBySlug('acme'))!;
      const build = (now: number, previous?: Snapshot) =>
        buildSnapshot({ store }, { page, now, pageUrl: 'http://x/s/acme', ...(previous ? { previous } : {}) });
      const lastP50 = (snapshot: Snapshot) => snapshot.components[0]?.charts.latency?.['24h'].p50.at(-1);
      const first = await build(NOW);
      expect(lastP50(first)).not.toBeNull();

      // A failed check 2 s later: the uptime and live result move at once; the chart keeps its series for the minute.
      await record(0, NOW + 1000);
      const soon = await build(NOW + 2000, first);
      expect(soon.components[0]?.uptime['24h']).toBeLessThan(1);
      expect(soon.components[0]?.charts).toBe(first.components[0]?.charts);
      // A minute after the read, the series are read again (and count the new checks).
      await record(4000, NOW + 3000);
      const later = await build(NOW + CHART_REFRESH_MS + 1, soon);
      expect(later.components[0]?.charts).not.toBe(first.components[0]?.charts);
      expect(lastP50(later)).toBeGreaterThan(lastP50(first) ?? 0);
      // Without the last snapshot (a cold page), they are always read.
      expect((await build(NOW + 2000)).components[0]?.charts).not.toBe(first.components[0]?.charts);
    });

    it('builds a page without components', async () => {
      await seed(opened.store, 'organization: { name: Acme }\npages: [{ slug: empty, title: Empty }]', NOW);
      const page = (await opened.store.pages.findBySlug('empty'))!;
      const snapshot = await buildSnapshot({ store: opened.store }, { page, now: NOW, pageUrl: 'http://x/s/empty' });
      expect(snapshot).toMatchObject({
        components: [],
        activeIncidents: [],
        totals: { players: null, maxPlayers: null },
      });
      expect(snapshot.overall.state).toBe('operational');
    });
  });
}
