// A page's snapshot: the rules on plain parts (assembleSnapshot), and the parts read from the store on each dialect (buildSnapshot).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seed } from '../../../test/seed.js';
import { dialects, type OpenedStore } from '../../../test/store-dialects.js';
import { createInProcessBus } from '../../bus/bus.js';
import { EMPTY_BRANDING } from '../../domain/branding.js';
import { type BucketCount as Bucket, DAY_MS, HOUR_MS } from '../../domain/check.js';
import type { Incident, Maintenance } from '../../domain/incident.js';
import type { Monitor } from '../../domain/monitor.js';
import type { Component, Page } from '../../domain/page.js';
import type { Snapshot } from '../../domain/snapshot.js';
import { createLogger } from '../../logger.js';
import { createIngest } from '../../runner/ingest.js';
import { assembleSnapshot, buildSnapshot, CHART_REFRESH_MS, type SnapshotParts } from './build-snapshot.js';

const NOW = Date.UTC(2026, 10, 20, 12, 30);
const TODAY = Date.UTC(2026, 10, 20);

const page: Page = {
  id: 'pg_1',
  organizationId: 'org_1',
  slug: 'acme',
  title: 'Acme',
  description: null,
  customDomain: null,
  customDomainToken: null,
  customDomainVerifiedAt: null,
  customDomainCheckedAt: null,
  passwordHash: null,
  aiPolicy: 'allow',
  notify: null,
  subscriptions: false,
  language: null,
  timeZone: 'UTC',
  branding: EMPTY_BRANDING,
  customCss: null,
  managedBy: 'config',
  createdAt: 0,
  updatedAt: 0,
};

function monitor(id: string, over: Partial<Monitor> = {}): Monitor {
  return {
    id,
    organizationId: 'org_1',
    key: id,
    name: id,
    type: 'minecraft-java',
    config: {},
    intervalSec: 60,
    timeoutMs: 1000,
    runOn: 'edge',
    relayId: null,
    pushTokenPrefix: null,
    enabled: true,
    retries: 1,
    degradedLatencyMs: null,
    state: 'up',
    stateSince: NOW - 1000,
    failureStreak: 0,
    lastCheckAt: NOW,
    secretsSetAt: null,
    notify: null,
    tags: [],
    managedBy: 'config',
    createdAt: 0,
    updatedAt: 0,
    lastResult: {
      checkedAt: NOW,
      ok: true,
      latencyMs: 30,
      message: 'ok',
      error: null,
      data: { players: 5, maxPlayers: 20 },
      source: 'edge',
    },
    ...over,
  };
}

function component(id: string, monitorId: string | null, order = 0): Component {
  return {
    id,
    pageId: 'pg_1',
    key: id,
    name: `Component ${id}`,
    description: null,
    group: null,
    order,
    monitorId,
    managedBy: 'config',
    createdAt: 0,
    updatedAt: 0,
  };
}

function bucket(monitorId: string, start: number, count: number, upCount: number): Bucket {
  return { monitorId, start, count, upCount, degradedCount: 0 };
}

function parts(over: Partial<SnapshotParts>): SnapshotParts {
  return {
    page,
    pageUrl: 'http://x/s/acme',
    now: NOW,
    components: [],
    monitors: new Map(),
    incidents: [],
    windows: [],
    daily: [],
    hourly: [],
    ...over,
  };
}

describe('assembling a snapshot', () => {
  it('computes uptime windows from hourly (24 h) and daily buckets (7/30/90 d), and 90 bars ending today', () => {
    const daily = [
      bucket('m1', TODAY, 100, 100),
      bucket('m1', TODAY - 5 * DAY_MS, 100, 50),
      bucket('m1', TODAY - 20 * DAY_MS, 100, 0),
      bucket('m1', TODAY - 80 * DAY_MS, 100, 100),
    ];
    const hourly = [bucket('m1', TODAY + 12 * HOUR_MS, 10, 9), bucket('m1', TODAY + 11 * HOUR_MS, 10, 10)];
    const snapshot = assembleSnapshot(
      parts({ components: [component('c1', 'm1')], monitors: new Map([['m1', monitor('m1')]]), daily, hourly }),
    );
    const [c] = snapshot.components;
    expect(c?.uptime).toEqual({ '24h': 19 / 20, '7d': 150 / 200, '30d': 150 / 300, '90d': 250 / 400 });
    expect(c?.days).toHaveLength(90);
    expect(c?.days.at(-1)).toEqual({
      date: '2026-11-20',
      uptime: 1,
      state: 'operational',
      checks: 100,
      downMinutes: 0,
      incidents: [],
    });
    expect(c?.days.at(-6)).toMatchObject({ date: '2026-11-15', uptime: 0.5, state: 'down' });
    expect(c?.days[0]).toEqual({
      date: '2026-08-23',
      uptime: null,
      state: 'unknown',
      checks: 0,
      downMinutes: null,
      incidents: [],
    });
  });

  it('sums players over monitors once, and gives null totals when nothing reports players', () => {
    const monitors = new Map([
      ['m1', monitor('m1')],
      [
        'm2',
        monitor('m2', {
          lastResult: {
            checkedAt: NOW,
            ok: true,
            latencyMs: 1,
            message: null,
            error: null,
            data: { players: 7 },
            source: 'edge',
          },
        }),
      ],
    ]);
    const snapshot = assembleSnapshot(
      parts({ components: [component('a', 'm1'), component('b', 'm1', 1), component('c', 'm2', 2)], monitors }),
    );
    expect(snapshot.totals).toEqual({ players: 12, maxPlayers: 20 });
    const none = assembleSnapshot(parts({ components: [component('x', null)] }));
    expect(none.totals).toEqual({ players: null, maxPlayers: null });
  });

  it('shows maintenance in progress on covered components and lists upcoming windows', () => {
    const windows: Maintenance[] = [
      {
        id: 'w1',
        pageId: 'pg_1',
        key: null,
        title: 'Now',
        description: null,
        startsAt: NOW - 1000,
        endsAt: NOW + 1000,
        componentIds: ['c1'],
        managedBy: 'api',
        createdAt: 0,
        updatedAt: 0,
      },
      {
        id: 'w2',
        pageId: 'pg_1',
        key: null,
        title: 'Later',
        description: null,
        startsAt: NOW + DAY_MS,
        endsAt: NOW + 2 * DAY_MS,
        componentIds: ['c2'],
        managedBy: 'api',
        createdAt: 0,
        updatedAt: 0,
      },
    ];
    const snapshot = assembleSnapshot(
      parts({
        components: [component('c1', 'm1'), component('c2', null, 1)],
        monitors: new Map([['m1', monitor('m1', { state: 'down' })]]),
        windows,
      }),
    );
    expect(snapshot.components.map((c) => c.state)).toEqual(['maintenance', 'operational']);
    expect(snapshot.maintenance.active.map((w) => [w.title, w.status, w.components.map((c) => c.name)])).toEqual([
      ['Now', 'in_progress', ['Component c1']],
    ]);
    expect(snapshot.maintenance.upcoming.map((w) => w.title)).toEqual(['Later']);
    expect(snapshot.overall.state).toBe('maintenance');
  });

  it('raises components by active incidents and separates resolved ones', () => {
    const incident = (id: string, over: Partial<Incident>): Incident => ({
      id,
      pageId: 'pg_1',
      key: null,
      title: id,
      status: 'investigating',
      impact: 'major',
      startedAt: NOW - 5000,
      resolvedAt: null,
      componentIds: ['c1'],
      updates: [{ id: 'u1', status: 'investigating', message: 'Looking', at: NOW - 4000 }],
      managedBy: 'api',
      createdAt: 0,
      updatedAt: 0,
      ...over,
    });
    const snapshot = assembleSnapshot(
      parts({
        components: [component('c1', 'm1'), component('c2', null, 1)],
        monitors: new Map([['m1', monitor('m1')]]),
        incidents: [
          incident('open', {}),
          incident('old', { status: 'resolved', resolvedAt: NOW - 1000, impact: 'critical' }),
        ],
      }),
    );
    expect(snapshot.components.map((c) => c.state)).toEqual(['down', 'operational']);
    expect(snapshot.activeIncidents.map((i) => i.id)).toEqual(['open']);
    expect(snapshot.activeIncidents[0]?.components).toEqual([{ id: 'c1', name: 'Component c1' }]);
    expect(snapshot.recentIncidents.map((i) => i.id)).toEqual(['old']);
    expect(snapshot.overall).toEqual({ state: 'down', label: 'Major outage' });
  });

  it('shows a disabled monitor as unknown and a failing one with its error', () => {
    const failing = monitor('m2', {
      state: 'down',
      lastResult: {
        checkedAt: NOW,
        ok: false,
        latencyMs: null,
        message: null,
        error: 'connection refused',
        data: null,
        source: 'edge',
      },
    });
    const snapshot = assembleSnapshot(
      parts({
        components: [component('c1', 'm1'), component('c2', 'm2', 1)],
        monitors: new Map([
          ['m1', monitor('m1', { enabled: false })],
          ['m2', failing],
        ]),
      }),
    );
    expect(snapshot.components.map((c) => c.state)).toEqual(['unknown', 'down']);
    expect(snapshot.components[1]?.live?.message).toBe('connection refused');
  });

  it('estimates each day’s minutes down from its failed checks and the minutes its checks cover', () => {
    const daily = [
      bucket('m1', TODAY - 2 * DAY_MS, 1440, 1380), // a whole day watched every minute, 60 checks failed
      bucket('m1', TODAY - DAY_MS, 360, 300), // added at 18:00: 360 checks of 1 min cover 6 hours, 1 in 6 failed
      bucket('m1', TODAY, 100, 50), // today, 12:30 so far: half of 100 checks failed, but they cover only 100 min
      bucket('m2', TODAY, 10, 5), // every 5 min: 10 checks cover 50 min
    ];
    const monitors = new Map([
      ['m1', monitor('m1')],
      ['m2', monitor('m2', { intervalSec: 300 })],
    ]);
    const snapshot = assembleSnapshot(
      parts({
        components: [component('c1', 'm1'), component('c2', 'm2', 1), component('c3', null, 2)],
        monitors,
        daily,
      }),
    );
    const [first, second, third] = snapshot.components;
    expect(first?.days.slice(-3).map((d) => d.downMinutes)).toEqual([60, 60, 50]);
    expect(first?.days[0]?.downMinutes).toBeNull();
    expect(second?.days.at(-1)?.downMinutes).toBe(25);
    expect(third?.days.every((d) => d.downMinutes === null)).toBe(true);
  });

  it('names on each day the incidents of the component open at some time of it, over 90 days, and lists only 14 days of resolved ones', () => {
    const incident = (id: string, startedAt: number, resolvedAt: number | null, componentIds = ['c1']): Incident => ({
      id,
      pageId: 'pg_1',
      key: null,
      title: `Title ${id}`,
      status: resolvedAt === null ? 'investigating' : 'resolved',
      impact: 'minor',
      startedAt,
      resolvedAt,
      componentIds,
      updates: [],
      managedBy: 'api',
      createdAt: 0,
      updatedAt: 0,
    });
    const snapshot = assembleSnapshot(
      parts({
        components: [component('c1', 'm1'), component('c2', null, 1)],
        monitors: new Map([['m1', monitor('m1')]]),
        incidents: [
          incident('open', TODAY - DAY_MS + 23 * HOUR_MS, null), // since yesterday 23:00, still open
          incident('overnight', TODAY - 3 * DAY_MS + 22 * HOUR_MS, TODAY - 2 * DAY_MS + 2 * HOUR_MS), // over a midnight
          incident('to-midnight', TODAY - 5 * DAY_MS + 20 * HOUR_MS, TODAY - 4 * DAY_MS), // ends exactly at midnight
          incident('old', TODAY - 80 * DAY_MS, TODAY - 80 * DAY_MS + HOUR_MS),
          incident('elsewhere', TODAY - 3 * DAY_MS, TODAY - 3 * DAY_MS + HOUR_MS, ['c2']),
          incident('page-wide', TODAY - 3 * DAY_MS, TODAY - 3 * DAY_MS + HOUR_MS, []),
        ],
      }),
    );
    const days = snapshot.components[0]?.days ?? [];
    const named = (ago: number) => days.at(-1 - ago)?.incidents.map((i) => i.id);
    expect(named(0)).toEqual(['open']);
    expect(named(1)).toEqual(['open']);
    expect(named(2)).toEqual(['overnight']);
    expect(named(3)).toEqual(['overnight']);
    expect(named(4)).toEqual([]);
    expect(named(5)).toEqual(['to-midnight']);
    expect(named(80)).toEqual(['old']);
    expect(days.at(-1)?.incidents).toEqual([{ id: 'open', title: 'Title open' }]);
    expect(days.filter((d) => d.incidents.length > 0)).toHaveLength(6);
    expect(snapshot.components[1]?.days.at(-4)?.incidents.map((i) => i.id)).toEqual(['elsewhere']);
    // The history keeps to 14 days; the 80-day-old incident only marks its day.
    expect(snapshot.recentIncidents.map((i) => i.id)).toEqual(['overnight', 'elsewhere', 'page-wide', 'to-midnight']);
    expect(snapshot.activeIncidents.map((i) => i.id)).toEqual(['open']);
  });
});

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
