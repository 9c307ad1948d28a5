// The uptime report over HTTP on each database: its figures from the rollups agree with the page's 90-day bars day for
// day; CSV with escaping; components and pages; maintenance beside the uptime; recoveries; errors naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness, T0 } from '../../../../test/api-app.js';
import { dialects } from '../../../../test/store-dialects.js';
import type { CheckRow } from '../../../domain/check.js';

const DAY = 86_400_000;
/** Midnight UTC of T0's day (2026-03-10). */
const TODAY = Math.floor(T0 / DAY) * DAY;

/** A day of checks every 60 s from `start` for `minutes` minutes: `failing` of them failed, `degraded` passed slowly. */
function checks(monitorId: string, start: number, n: number, failing: number, degraded = 0): CheckRow[] {
  return Array.from({ length: n }, (_, i) => ({
    monitorId,
    checkedAt: start + i * 60_000,
    ok: i >= failing,
    degraded: i >= failing && i < failing + degraded,
    latencyMs: 20,
    message: null,
    error: i < failing ? 'refused' : null,
    data: null,
    source: 'edge' as const,
    resultId: null,
  }));
}

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`the uptime report on ${dialect.name}`, () => {
    let h: ApiHarness;
    let lobby: string;

    beforeAll(async () => {
      h = await openApiHarness(dialect);
      lobby = h.a.monitors.lobby?.id as string;
      // Six days before today: a whole day of minutes; three with failures (one under 95 %), one degraded; and today so far.
      await h.store.checks.write(
        [
          ...checks(lobby, TODAY - 6 * DAY, 1440, 0),
          ...checks(lobby, TODAY - 5 * DAY, 1440, 30),
          ...checks(lobby, TODAY - 4 * DAY, 1440, 144, 60),
          ...checks(lobby, TODAY - 3 * DAY, 600, 7),
          ...checks(lobby, TODAY - 1 * DAY + 3_600_000, 1380, 0, 1380),
          ...checks(lobby, TODAY, 720, 12),
        ],
        [],
      );
      await h.store.monitorStates.appendChanges([
        { id: 'stc_a1', monitorId: lobby, at: TODAY - 5 * DAY, from: 'up', to: 'down', message: null },
        { id: 'stc_a2', monitorId: lobby, at: TODAY - 5 * DAY + 30 * 60_000, from: 'down', to: 'up', message: null },
        { id: 'stc_a3', monitorId: lobby, at: TODAY - 4 * DAY, from: 'up', to: 'down', message: null },
        {
          id: 'stc_a4',
          monitorId: lobby,
          at: TODAY - 4 * DAY + 90 * 60_000,
          from: 'down',
          to: 'degraded',
          message: null,
        },
      ]);
      await h.pages.start();
    });
    afterAll(async () => {
      await h?.close();
    });

    const report = async (query: string, key = h.a.readKey) => {
      const res = await h.call('GET', `/api/v1/reports/uptime?${query}`, { key });
      expect(res.status).toBe(200);
      return res.json();
    };

    it("agrees day for day with the page's 90-day bars: uptime, checks, minutes down and state-free days", async () => {
      const page = await (await h.call('GET', '/api/v1/status/alpha', { key: null })).json();
      const bars = page.components[0].days as {
        date: string;
        uptime: number | null;
        checks: number;
        downMinutes: number | null;
      }[];
      const from = bars[0]?.date as string;
      const body = await report(`monitors=lobby&from=${from}&to=2026-03-10`);
      const series = body.subjects[0].series as {
        period: string;
        uptime: number | null;
        checks: number;
        downMinutes: number | null;
      }[];
      expect(series).toHaveLength(90);
      expect(series.map((p) => [p.period, p.uptime, p.checks, p.downMinutes])).toEqual(
        bars.map((b) => [b.date, b.uptime, b.checks, b.downMinutes]),
      );
      // The bars are not all alike: the comparison covers failures, a partial day and today so far.
      expect(series.slice(-7).map((p) => p.downMinutes)).toEqual([0, 30, 144, 7, null, 0, 12]);
      const components = await report(`components=alpha/lobby&from=${from}`);
      expect(components.subjects[0].series.map((p: { uptime: number | null }) => p.uptime)).toEqual(
        bars.map((b) => b.uptime),
      );
    });

    it('sums the range: availability as the page rounds it, minutes down and degraded, recoveries and MTTR', async () => {
      const body = await report('monitors=lobby&from=2026-03-04&to=2026-03-10');
      const s = body.subjects[0];
      expect(s).toMatchObject({ type: 'monitor', key: 'lobby', name: 'Lobby' });
      const checks = 1440 * 3 + 600 + 1380 + 720;
      const failed = 30 + 144 + 7 + 12;
      expect(s.summary).toMatchObject({
        checks,
        uptime: (checks - failed) / checks,
        availability: Number((((checks - failed) / checks) * 100).toFixed(2)),
        downMinutes: failed,
        degradedMinutes: 60 + 1380,
        maintenanceMinutes: 0,
        recoveries: 2,
        mttrMinutes: 60,
      });
      expect(s.series[1]).toMatchObject({ period: '2026-03-05', recoveries: 1, mttrMinutes: 30 });
      const months = await report('monitors=lobby&from=2026-02-01&to=2026-03-10&granularity=month');
      expect(months.subjects[0].series.map((p: { period: string; checks: number }) => [p.period, p.checks])).toEqual([
        ['2026-02', 0],
        ['2026-03', checks],
      ]);
    });

    it('reports maintenance minutes beside the uptime, and incidents by what they name', async () => {
      const window = await h.call('POST', '/api/v1/pages/alpha/maintenance', {
        body: {
          title: 'Patch',
          startsAt: new Date(TODAY - 2 * DAY + 3_600_000).toISOString(),
          endsAt: new Date(TODAY - 2 * DAY + 3 * 3_600_000).toISOString(),
          components: ['lobby'],
        },
      });
      expect(window.status).toBe(201);
      const incident = await h.call('POST', '/api/v1/pages/alpha/incidents', {
        body: {
          title: 'Lobby slow',
          message: 'Looking',
          components: ['lobby'],
          startedAt: new Date(TODAY - 4 * DAY + 60_000).toISOString(),
        },
      });
      expect(incident.status).toBe(201);
      const body = await report('monitors=lobby&pages=alpha&from=2026-03-06&to=2026-03-10');
      const [monitor, page] = body.subjects;
      expect(monitor.summary).toMatchObject({ maintenanceMinutes: 120, incidents: 1 });
      expect(monitor.series.map((p: { maintenanceMinutes: number }) => p.maintenanceMinutes)).toEqual([
        0, 0, 120, 0, 0,
      ]);
      expect(monitor.series.map((p: { incidents: number }) => p.incidents)).toEqual([1, 1, 1, 1, 1]);
      // The page counts its page-wide incident too (open since March 1st), and pools its monitors' checks.
      expect(page).toMatchObject({
        type: 'page',
        key: 'alpha',
        summary: { incidents: 2, checks: monitor.summary.checks },
      });
    });

    it('sums local days from the hourly rollups in another time zone', async () => {
      const utc = await report('monitors=lobby&from=2026-03-04&to=2026-03-09');
      const tokyo = await report('monitors=lobby&from=2026-03-04&to=2026-03-10&timezone=Asia/Tokyo');
      expect(tokyo.timezone).toBe('Asia/Tokyo');
      // Tokyo's March 4th begins at 15:00 UTC on the 3rd (no checks then), its 10th ends at 15:00 UTC.
      expect(tokyo.subjects[0].series[0].from).toBe(Date.UTC(2026, 2, 3, 15));
      expect(tokyo.subjects[0].summary.checks).toBe(utc.subjects[0].summary.checks + 720);
    });

    it('answers CSV for Accept: text/csv or ?format=csv, one row per subject per period, fields escaped', async () => {
      const created = await h.call('POST', '/api/v1/monitors', {
        body: { key: 'quoted', name: '=Lobby, "east"', type: 'tcp', config: { host: '127.0.0.1', port: 25570 } },
      });
      expect(created.status).toBe(201);
      const res = await h.call('GET', '/api/v1/reports/uptime?monitors=lobby,quoted&from=2026-03-09&to=2026-03-10', {
        headers: { accept: 'text/csv' },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="uptime-2026-03-09-2026-03-10.csv"');
      const lines = (await res.text()).split('\r\n');
      expect(lines[0]).toBe(
        'subject_type,subject_id,subject_key,subject_name,period,checks,uptime,availability_percent,down_minutes,degraded_minutes,maintenance_minutes,incidents,recoveries,mttr_minutes',
      );
      expect(lines).toHaveLength(6);
      expect(lines[1]).toBe(`monitor,${lobby},lobby,Lobby,2026-03-09,1380,1,100,0,1380,0,1,0,`);
      expect(lines[3]).toMatch(/^monitor,mon_[0-9a-z]+,quoted,"'=Lobby, ""east""",2026-03-09,0,,,,,0,0,0,$/);
      const asked = await h.call('GET', '/api/v1/reports/uptime?monitors=lobby&format=csv', {});
      expect(asked.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const json = await h.call('GET', '/api/v1/reports/uptime?monitors=lobby&format=json', {
        headers: { accept: 'text/csv' },
      });
      expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    });

    it('answers 400 naming the field: dates, range, subjects of another organization, time zone, format', async () => {
      const cases: [string, string][] = [
        ['from=2026-03-10&to=2026-03-01', 'query.from'],
        ['to=2026-03-11', 'query.to'],
        ['from=2025-01-01&to=2026-03-10', 'query.from'],
        ['from=2026-02-30', 'query.from'],
        ['monitors=hub', 'query.monitors'],
        ['components=beta/hub', 'query.components'],
        ['pages=beta', 'query.pages'],
        ['timezone=Mars/Olympus', 'query.timezone'],
        ['granularity=week', 'query.granularity'],
      ];
      for (const [query, path] of cases) {
        const res = await h.call('GET', `/api/v1/reports/uptime?${query}`, { headers: { accept: 'text/csv' } });
        expect(res.status, query).toBe(400);
        expect(res.headers.get('content-type')).toBe('application/problem+json');
        expect((await res.json()).errors[0].path, query).toBe(path);
      }
      expect((await h.call('GET', '/api/v1/reports/uptime', { key: null })).status).toBe(401);
      // 400 days is the longest range, today included.
      expect((await h.call('GET', '/api/v1/reports/uptime?from=2025-02-04&to=2026-03-10')).status).toBe(200);
    });
  });
}
