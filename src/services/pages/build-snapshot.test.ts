// A page's snapshot: the rules on plain parts (assembleSnapshot); the parts read from the store on each dialect
// (buildSnapshot) in build-snapshot-store.test.ts.
import { describe, expect, it } from 'vitest';
import {
  bucket,
  component,
  maintenanceWindow,
  monitor,
  NOW,
  parts,
  TODAY,
} from '../../../test/fakes/assemble-parts.js';
import { DAY_MS, HOUR_MS } from '../../domain/check.js';
import type { Incident } from '../../domain/incident.js';
import { assembleSnapshot } from './build-snapshot.js';

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
    const windows = [
      maintenanceWindow('w1', { title: 'Now', componentIds: ['c1'] }),
      maintenanceWindow('w2', {
        title: 'Later',
        startsAt: NOW + DAY_MS,
        endsAt: NOW + 2 * DAY_MS,
        componentIds: ['c2'],
      }),
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

  it('shows maintenance on the components showing a monitor the window covers directly, not page-wide', () => {
    const snapshot = assembleSnapshot(
      parts({
        components: [component('c1', 'm1'), component('c2', 'm2', 1), component('c3', 'm1', 2)],
        monitors: new Map([
          ['m1', monitor('m1', { state: 'down' })],
          ['m2', monitor('m2', { state: 'down' })],
        ]),
        windows: [maintenanceWindow('w1', { title: 'Database', monitorIds: ['m1'] })],
      }),
    );
    expect(snapshot.components.map((c) => c.state)).toEqual(['maintenance', 'down', 'maintenance']);
    // The window names the components it shows as under maintenance, so the page can say why.
    expect(snapshot.maintenance.active.map((w) => w.components.map((c) => c.name))).toEqual([
      ['Component c1', 'Component c3'],
    ]);
    expect(snapshot.overall.state).toBe('down');
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
