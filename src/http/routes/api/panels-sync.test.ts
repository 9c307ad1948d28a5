// Panel apply beyond monitors and components: restart schedules as recurring maintenance (in the panel's time zone),
// re-synced and removed with them; servers gone from the panel listed, or pruned; every server of the panel with a
// root admin's key (`allServers`). Against the fake panel's documented shapes, on both stores.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness } from '../../../../test/api-app.js';
import {
  type FakePanelServer,
  hostedServers,
  type PterodactylPanelFake,
  startPterodactylPanel,
} from '../../../../test/fakes/pterodactyl-panel.js';
import { dialects } from '../../../../test/store-dialects.js';

type Window = {
  id: string;
  key: string;
  title: string;
  recurrence: unknown;
  monitors: string[];
  components: string[];
  announce: boolean;
};

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`panel sync API on ${dialect.name}`, () => {
    let h: ApiHarness;
    let panel: PterodactylPanelFake;
    const apply = async (extra: Record<string, unknown> = {}) => {
      const res = await h.call('POST', '/api/v1/panels/apply', {
        body: { panelUrl: panel.url, apiKey: panel.key, page: 'alpha', ...extra },
      });
      expect(res.status).toBe(200);
      return res.json();
    };
    const windows = async (): Promise<Window[]> =>
      (await (await h.call('GET', '/api/v1/pages/alpha/maintenance')).json()).maintenance;
    const windowOf = async (key: string) => (await windows()).find((w) => w.key === key);
    beforeAll(async () => {
      h = await openApiHarness(dialect, { security: { probePrivateTargets: 'allow' } });
      panel = await startPterodactylPanel();
    });
    beforeEach(() => h.clock.advance(60_000));
    afterAll(async () => {
      await panel?.close();
      await h?.close();
    });

    it("makes each server's restart schedules one recurring window, in the panel's time zone", async () => {
      const report = await apply({ timezone: 'Europe/Berlin' });
      const restarts = Object.fromEntries(
        report.servers.map((s: { identifier: string; restarts: string }) => [s.identifier, s.restarts]),
      );
      expect(restarts).toEqual({
        '1a7ce997': 'created',
        '2b8df008': null,
        '3c9e0119': null,
        '4d0f122a': 'created',
        '5e1a233b': null,
        '6f2b344c': null,
      });
      expect(report.gone).toEqual([]);
      // The nightly restart comes 300 s after its warning: 5 minutes of restart after that.
      expect(await windowOf('ptero-1a7ce997-restarts')).toMatchObject({
        title: 'Planned restart: Survival',
        recurrence: [{ cron: '0 4 * * *', timezone: 'Europe/Berlin', durationMin: 10 }],
        monitors: ['ptero-1a7ce997'],
        components: [],
        announce: false,
      });
      expect((await windowOf('ptero-4d0f122a-restarts'))?.recurrence).toEqual([
        { cron: '0 18 * * 4', timezone: 'Europe/Berlin', durationMin: 5 },
        { cron: '30 6 * * *', timezone: 'Europe/Berlin', durationMin: 5 },
      ]);
      const again = await apply({ timezone: 'Europe/Berlin' });
      expect(again.servers.map((s: { restarts: string | null }) => s.restarts)).toEqual([
        'unchanged',
        null,
        null,
        'unchanged',
        null,
        null,
      ]);
      // A restart window announced since (by hand, or made before quiet windows) is made quiet again.
      const loud = await windowOf('ptero-1a7ce997-restarts');
      const patched = await h.call('PATCH', `/api/v1/pages/alpha/maintenance/${loud?.id}`, {
        body: { announce: true },
      });
      expect((await patched.json()).announce).toBe(true);
      const third = await apply({ timezone: 'Europe/Berlin' });
      expect(third.servers[0]).toMatchObject({ identifier: '1a7ce997', restarts: 'updated' });
      expect((await windowOf('ptero-1a7ce997-restarts'))?.announce).toBe(false);
    });

    it('updates a window whose schedules moved, and removes one whose restart schedules are gone', async () => {
      panel.servers = hostedServers().map((s): FakePanelServer => {
        if (s.identifier === '1a7ce997')
          return {
            ...s,
            schedules: [
              { id: 1, name: 'Nightly restart', cron: '15 5 * * *', tasks: [{ action: 'power', payload: 'restart' }] },
            ],
          };
        if (s.identifier === '4d0f122a')
          return {
            ...s,
            schedules: [
              { id: 7, name: 'Wipe', cron: '0 18 * * 4', active: false, tasks: [{ action: 'power', payload: 'kill' }] },
            ],
          };
        return s;
      });
      const report = await apply({ restartMinutes: 3 });
      expect(report.servers[0]).toMatchObject({ identifier: '1a7ce997', restarts: 'updated' });
      expect(report.servers[3]).toMatchObject({ identifier: '4d0f122a', restarts: 'removed' });
      expect((await windowOf('ptero-1a7ce997-restarts'))?.recurrence).toEqual([
        { cron: '15 5 * * *', timezone: 'UTC', durationMin: 3 },
      ]);
      expect(await windowOf('ptero-4d0f122a-restarts')).toBeUndefined();
      panel.servers = hostedServers();
    });

    it("reports schedules the key may not read, and keeps the server's monitors and window", async () => {
      panel.servers = hostedServers().map((s) =>
        s.identifier === '1a7ce997' ? { ...s, schedulesForbidden: true } : s,
      );
      const report = await apply();
      expect(report.servers[0]).toMatchObject({ monitor: 'unchanged', component: 'unchanged', restarts: null });
      expect(report.servers[0].error).toMatch(/HTTP 403/);
      expect(await windowOf('ptero-1a7ce997-restarts')).toBeDefined();
      panel.servers = hostedServers();
    });

    it('lists servers gone from the panel, and prunes only what apply made for this panel', async () => {
      await apply();
      // Another panel's server on the same page is not this panel's to prune.
      const other = await startPterodactylPanel({
        servers: [{ ...(hostedServers()[2] as FakePanelServer), identifier: '9e9e9e9e' }],
      });
      await h.call('POST', '/api/v1/panels/apply', { body: { panelUrl: other.url, apiKey: other.key, page: 'alpha' } });
      await other.close();
      panel.servers = hostedServers().filter((s) => s.identifier !== '1a7ce997' && s.identifier !== '6f2b344c');
      const listed = await apply();
      const survival = {
        key: 'ptero-1a7ce997',
        monitors: ['ptero-1a7ce997'],
        component: 'ptero-1a7ce997',
        restarts: 'ptero-1a7ce997-restarts',
      };
      expect(listed.gone.map((g: { key: string }) => g.key)).toEqual(['ptero-1a7ce997', 'ptero-6f2b344c']);
      expect(listed.gone[0]).toEqual(survival);
      expect(listed.removed).toEqual([]);
      expect((await h.call('GET', '/api/v1/monitors/ptero-1a7ce997')).status).toBe(200);

      const pruned = await apply({ prune: true });
      expect(pruned.gone).toEqual([]);
      expect(pruned.removed[0]).toEqual(survival);
      expect((await h.call('GET', '/api/v1/monitors/ptero-1a7ce997')).status).toBe(404);
      expect((await h.call('GET', '/api/v1/monitors/ptero-9e9e9e9e')).status).toBe(200);
      const { components } = await (await h.call('GET', '/api/v1/pages/alpha/components')).json();
      const keys = components.map((c: { key: string }) => c.key);
      expect(keys).not.toContain('ptero-1a7ce997');
      expect(keys).toContain('ptero-9e9e9e9e');
      expect(keys).toContain('lobby');
      expect(await windowOf('ptero-1a7ce997-restarts')).toBeUndefined();
      panel.servers = hostedServers();
    });

    it("lists every server with allServers and a root admin's key, and prunes nothing from an empty listing", async () => {
      const servers = [
        ...hostedServers(),
        { ...(hostedServers()[0] as FakePanelServer), identifier: 'a0a0a0a0', name: 'Theirs', owned: false },
      ];
      const root = await startPterodactylPanel({ servers, rootAdmin: true });
      const discover = (url: string, key: string, allServers: boolean) =>
        h.call('POST', '/api/v1/panels/discover', { body: { panelUrl: url, apiKey: key, allServers } });
      const own = await (await discover(root.url, root.key, false)).json();
      const all = await (await discover(root.url, root.key, true)).json();
      expect(own.proposals.map((p: { identifier: string }) => p.identifier)).not.toContain('a0a0a0a0');
      expect(all.proposals.map((p: { identifier: string }) => p.identifier)).toContain('a0a0a0a0');
      expect(root.requests.filter((r) => r.includes('type=admin-all'))).toHaveLength(1);
      await root.close();
      // A key without root admin rights sees no server with admin-all: nothing is proven gone, nothing pruned.
      panel.servers = servers;
      const report = await apply({ allServers: true, prune: true });
      expect(report.servers).toEqual([]);
      expect(report.removed).toEqual([]);
      expect(report.gone.map((g: { key: string }) => g.key)).toContain('ptero-2b8df008');
      expect((await h.call('GET', '/api/v1/monitors/ptero-2b8df008')).status).toBe(200);
      panel.servers = hostedServers();
    });
  });
}
