// The dashboard's monitor operations through the API: sparklines, stats, state history (test, check now and monitor
// types: monitor-checks.test.ts).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness, T0 } from '../../../../test/api-app.js';
import { dialects } from '../../../../test/store-dialects.js';
import { DAY_MS, HOUR_MS } from '../../../domain/check.js';

const MINUTE_MS = 60_000;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`the dashboard's monitor API on ${dialect.name}`, () => {
    let h: ApiHarness;
    const lobby = () => h.a.monitors.lobby!.id;
    const record = (
      ok: boolean,
      latencyMs: number | null,
      extra: { message?: string; error?: string; players?: number } = {},
    ) =>
      h.ingest.record({
        monitorId: lobby(),
        ok,
        latencyMs,
        message: extra.message ?? null,
        error: extra.error ?? null,
        data: extra.players === undefined ? null : { players: extra.players },
        source: 'edge',
      });

    beforeAll(async () => {
      h = await openApiHarness(dialect);
    });
    afterAll(async () => {
      await h?.close();
    });

    describe('GET /api/v1/monitors/sparklines', () => {
      it("gives 24 hourly points of uptime and latency of each of the organization's monitors asked, in order", async () => {
        h.clock.advance(-2 * HOUR_MS);
        await record(true, 40);
        await record(false, null);
        h.clock.advance(2 * HOUR_MS);
        await record(true, 20);
        const panel = h.a.monitors.panel!.id;
        const res = await h.call(
          'GET',
          `/api/v1/monitors/sparklines?ids=${panel},${lobby()},${h.b.monitors.hub!.id},mon_nope`,
          { key: h.a.readKey },
        );
        expect(res.status).toBe(200);
        const body = await res.json();
        expect(body.monitors.map((m: { id: string }) => m.id)).toEqual([panel, lobby()]);
        const points = body.monitors[1].points;
        expect(points).toHaveLength(24);
        expect(points[23]).toEqual({ at: T0, uptime: 1, latencyMs: 20 });
        expect(points[21]).toEqual({ at: T0 - 2 * HOUR_MS, uptime: 0.5, latencyMs: 40 });
        expect(points[0]).toEqual({ at: T0 - 23 * HOUR_MS, uptime: null, latencyMs: null });
        expect(body.monitors[0].points.every((p: { uptime: null }) => p.uptime === null)).toBe(true);
      });

      it('answers 400 without ids or with more than 500', async () => {
        expect((await h.call('GET', '/api/v1/monitors/sparklines?ids=', { key: h.a.readKey })).status).toBe(400);
        const many = Array.from({ length: 501 }, (_, i) => `mon_${i}`).join(',');
        const res = await h.call('GET', `/api/v1/monitors/sparklines?ids=${many}`, { key: h.a.readKey });
        expect(res.status).toBe(400);
        expect((await res.json()).errors[0]).toMatchObject({
          path: 'query.ids',
          message: 'expected at most 500 monitor ids',
        });
      });
    });

    describe('GET /api/v1/monitors/{id}/stats', () => {
      it('gives hourly points with p50/p95 read off the latency histogram, players and totals', async () => {
        h.clock.advance(HOUR_MS);
        for (const latency of [10, 10, 10, 10, 10, 10, 10, 10, 10, 900]) await record(true, latency, { players: 4 });
        const res = await h.call('GET', `/api/v1/monitors/${lobby()}/stats?range=24h`, { key: h.a.readKey });
        expect(res.status).toBe(200);
        const body = await res.json();
        expect(body).toMatchObject({ range: '24h', period: 'hour', points: expect.any(Array) });
        expect(body.points).toHaveLength(24);
        const now = body.points[23];
        expect(now).toMatchObject({ at: T0 + HOUR_MS, count: 10, uptime: 1, playersAvg: 4, playersMax: 4 });
        // Nine checks of 10 ms lie in the (5, 10] bin: the median is inside it, the 95th percentile in the slow one.
        expect(now.p50Ms).toBeGreaterThan(5);
        expect(now.p50Ms).toBeLessThanOrEqual(10);
        expect(now.p95Ms).toBeGreaterThan(750);
        expect(now.p95Ms).toBeLessThanOrEqual(900);
        expect(body.totals).toMatchObject({ count: 13, uptime: 12 / 13, playersMax: 4 });
      });

      it('gives daily points over 90 days', async () => {
        const body = await (
          await h.call('GET', `/api/v1/monitors/${lobby()}/stats?range=90d`, { key: h.a.readKey })
        ).json();
        expect(body).toMatchObject({ period: 'day', range: '90d' });
        expect(body.points).toHaveLength(90);
        expect(body.points[89]).toMatchObject({ at: Math.floor((T0 + HOUR_MS) / DAY_MS) * DAY_MS, count: 13 });
      });

      it('answers 400 for an unknown range and 404 for another organization’s monitor', async () => {
        const bad = await h.call('GET', `/api/v1/monitors/${lobby()}/stats?range=1y`, { key: h.a.readKey });
        expect(bad.status).toBe(400);
        expect((await bad.json()).errors[0].path).toBe('query.range');
        expect(
          (await h.call('GET', `/api/v1/monitors/${h.b.monitors.hub!.id}/stats`, { key: h.a.readKey })).status,
        ).toBe(404);
      });
    });

    describe('GET /api/v1/monitors/{id}/states', () => {
      it('gives the state changes ingest recorded, newest first, paginated', async () => {
        // The hub of B: up, one failure (retries 1 tolerates it), two in a row (down), up again.
        const hub = h.b.monitors.hub!.id;
        const at = (minutes: number) => T0 + 10 * HOUR_MS + minutes * MINUTE_MS;
        const results: [number, boolean, string][] = [
          [0, true, '3 players'],
          [1, false, 'refused'],
          [2, true, 'back'],
          [3, false, 'timed out'],
          [4, false, 'refused again'],
          [5, true, '5 players'],
        ];
        h.clock.advance(at(10) - h.clock.now());
        for (const [minute, ok, text] of results)
          await h.ingest.record({
            monitorId: hub,
            ok,
            checkedAt: at(minute),
            latencyMs: ok ? 12 : null,
            message: ok ? text : null,
            error: ok ? null : text,
            source: 'edge',
          });
        const first = await h.call('GET', `/api/v1/monitors/${hub}/states?limit=2`, { key: h.b.readKey });
        expect(first.status).toBe(200);
        const page1 = await first.json();
        expect(page1.changes).toEqual([
          { at: at(5), from: 'down', to: 'up', message: '5 players' },
          { at: at(4), from: 'up', to: 'down', message: 'refused again' },
        ]);
        const page2 = await (
          await h.call('GET', `/api/v1/monitors/${hub}/states?limit=2&cursor=${page1.nextCursor}`, { key: h.b.readKey })
        ).json();
        expect(page2).toMatchObject({
          changes: [{ at: at(0), from: 'unknown', to: 'up', message: '3 players' }],
          nextCursor: null,
        });
      });

      it('shows pausing and resuming as changes to and from paused', async () => {
        const body = { key: 'pausable', name: 'Pausable', type: 'tcp', config: { host: '10.0.0.9', port: 22 } };
        const { id } = await (await h.call('POST', '/api/v1/monitors', { key: h.b.writeKey, body })).json();
        await h.ingest.record({ monitorId: id, ok: true, latencyMs: 5, message: 'open', source: 'edge' });
        const checked = h.clock.now();
        h.clock.advance(MINUTE_MS);
        const paused = h.clock.now();
        expect(
          (await h.call('PATCH', `/api/v1/monitors/${id}`, { key: h.b.writeKey, body: { enabled: false } })).status,
        ).toBe(200);
        // A patch that leaves `enabled` as it is records nothing, and the pause keeps its time.
        h.clock.advance(MINUTE_MS / 2);
        const renamed = await h.call('PATCH', `/api/v1/monitors/${id}`, {
          key: h.b.writeKey,
          body: { name: 'Renamed' },
        });
        expect(await renamed.json()).toMatchObject({
          enabled: false,
          pausedAt: paused,
          state: 'up',
          stateSince: checked,
        });
        h.clock.advance(MINUTE_MS / 2);
        const resumed = await h.call('PATCH', `/api/v1/monitors/${id}`, { key: h.b.writeKey, body: { enabled: true } });
        expect(await resumed.json()).toMatchObject({ enabled: true, pausedAt: null });
        const { changes } = await (await h.call('GET', `/api/v1/monitors/${id}/states`, { key: h.b.readKey })).json();
        expect(changes).toEqual([
          { at: paused + MINUTE_MS, from: 'paused', to: 'up', message: 'resumed' },
          { at: paused, from: 'up', to: 'paused', message: 'paused' },
          { at: checked, from: 'unknown', to: 'up', message: 'open' },
        ]);
      });

      it('answers 400 for a bad cursor', async () => {
        const res = await h.call('GET', `/api/v1/monitors/${lobby()}/states?cursor=abc`, { key: h.a.readKey });
        expect(res.status).toBe(400);
      });
    });
  });
}
