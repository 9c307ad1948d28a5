// Draft incidents and maintenance (issue 37): a component down on purpose — a maintenance window in progress covering
// it, or its monitor's own expected restart — gets no draft however long it is down; once the maintenance is over, a
// component still down is drafted like any other.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness } from '../../../../test/api-app.js';
import { dialects } from '../../../../test/store-dialects.js';
import { createDraftScan } from '../../../services/incidents/draft-scan.js';

const MIN = 60_000;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`draft incidents under maintenance on ${dialect.name}`, () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await openApiHarness(dialect);
      const page = await h.call('POST', '/api/v1/pages', {
        body: { slug: 'ops', title: 'Ops', draftIncidents: { afterMin: 10 } },
      });
      expect(page.status).toBe(201);
      await h.call('POST', '/api/v1/pages/ops/components', { body: { key: 'lobby', name: 'Lobby', monitor: 'lobby' } });
    });
    afterAll(async () => {
      await h?.close();
    });

    const scan = () => createDraftScan(h.context)();
    const result = (ok: boolean) =>
      h.ingest.record({ monitorId: h.a.monitors.lobby?.id as string, ok, source: 'push', checkedAt: h.clock.now() });
    const drafts = async () =>
      (await (await h.call('GET', '/api/v1/pages/ops/incident-drafts?status=draft')).json()).drafts as {
        component: string;
        downSince: number;
      }[];
    const iso = (at: number) => new Date(at).toISOString();

    it('prepares no draft while a maintenance window covers the component, and one once it is over', async () => {
      const window = await h.call('POST', '/api/v1/pages/ops/maintenance', {
        body: {
          key: 'swap',
          title: 'Disk swap',
          startsAt: iso(h.clock.now()),
          endsAt: iso(h.clock.now() + 30 * MIN),
          components: ['lobby'],
        },
      });
      expect(window.status).toBe(201);
      await result(false);
      const downSince = h.clock.now();
      h.clock.advance(20 * MIN);
      expect(await scan()).toEqual({ drafted: 0, published: 0, discarded: 0 });
      expect(await drafts()).toEqual([]);
      // Still down when the window ends: an outage now, drafted at the next scan.
      h.clock.advance(10 * MIN);
      expect((await scan()).drafted).toBe(1);
      expect(await drafts()).toEqual([expect.objectContaining({ component: 'lobby', downSince })]);
      await result(true);
      expect((await scan()).discarded).toBe(1);
    });

    it('prepares no draft for a window that names the monitor rather than the component', async () => {
      const window = await h.call('POST', '/api/v1/pages/ops/maintenance', {
        body: {
          key: 'rack',
          title: 'Rack move',
          startsAt: iso(h.clock.now()),
          endsAt: iso(h.clock.now() + 60 * MIN),
          monitors: ['lobby'],
        },
      });
      expect(window.status).toBe(201);
      h.clock.advance(MIN);
      await result(false);
      h.clock.advance(30 * MIN);
      expect((await scan()).drafted).toBe(0);
      expect(await drafts()).toEqual([]);
      await result(true);
      h.clock.advance(30 * MIN);
    });

    it('prepares no draft during the monitor’s expected restart, and one after it', async () => {
      // A monitor of the API's (the file's lobby is the file's to change) restarting daily for 45 minutes from the
      // next full hour.
      const next = Math.ceil((h.clock.now() + 1) / (60 * MIN)) * 60 * MIN;
      const restart = [{ cron: `0 ${new Date(next).getUTCHours()} * * *`, timezone: 'UTC', durationMin: 45 }];
      const created = await h.call('POST', '/api/v1/monitors', {
        body: { key: 'mill', name: 'Mill', type: 'tcp', config: { host: 'mc.example.com', port: 25565 } },
      });
      expect(created.status).toBe(201);
      const mill = (await created.json()).id as string;
      expect((await h.call('PATCH', `/api/v1/monitors/${mill}`, { body: { expectedRestart: restart } })).status).toBe(
        200,
      );
      await h.call('POST', '/api/v1/pages/ops/components', { body: { key: 'mill', name: 'Mill', monitor: 'mill' } });
      const millResult = (ok: boolean) =>
        h.ingest.record({ monitorId: mill, ok, source: 'push', checkedAt: h.clock.now() });
      h.clock.advance(next + MIN - h.clock.now());
      await millResult(false);
      h.clock.advance(15 * MIN);
      expect((await scan()).drafted).toBe(0);
      h.clock.advance(15 * MIN);
      expect((await scan()).drafted).toBe(0);
      expect(await drafts()).toEqual([]);
      // The slot over (45 minutes past the hour), still down: drafted.
      h.clock.advance(15 * MIN);
      expect((await scan()).drafted).toBe(1);
      expect(await drafts()).toEqual([expect.objectContaining({ component: 'mill' })]);
      await millResult(true);
    });
  });
}
