import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness } from '../../../../test/api-app.js';
import {
  type FakePanelServer,
  hostedServers,
  type PterodactylPanelFake,
  startPterodactylPanel,
} from '../../../../test/fakes/pterodactyl-panel.js';
import { dialects } from '../../../../test/store-dialects.js';

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`panel discovery API on ${dialect.name}`, () => {
    let h: ApiHarness;
    let panel: PterodactylPanelFake;
    const body = () => ({ panelUrl: panel.url, apiKey: panel.key });
    beforeAll(async () => {
      h = await openApiHarness(dialect, { security: { probePrivateTargets: 'allow' } });
      // Two servers a page: six servers take three.
      panel = await startPterodactylPanel({ perPageMax: 2 });
    });
    // Each test starts with the organization's whole panel budget.
    beforeEach(() => h.clock.advance(60_000));
    afterAll(async () => {
      await panel?.close();
      await h?.close();
    });

    it('proposes a monitor of the right game and a component for every server, across pages', async () => {
      const res = await h.call('POST', '/api/v1/panels/discover', { body: body() });
      expect(res.status).toBe(200);
      const { proposals, truncated } = await res.json();
      expect(truncated).toBe(false);
      expect(panel.requests.filter((r) => r.startsWith('GET /api/client'))).toHaveLength(3);
      const seen = proposals.map((p: { monitor: { key: string; type: string; config: object } }) => [
        p.monitor.key,
        p.monitor.type,
        p.monitor.config,
      ]);
      expect(seen).toEqual([
        ['ptero-1a7ce997', 'minecraft-java', { host: 'mc.example.com', port: 25565 }],
        ['ptero-2b8df008', 'minecraft-bedrock', { host: '10.0.0.5', port: 19132 }],
        ['ptero-3c9e0119', 'source', { host: '10.0.0.5', port: 27015 }],
        ['ptero-4d0f122a', 'source', { host: '10.0.0.5', port: 28015 }],
        ['ptero-5e1a233b', 'fivem', { host: '127.0.0.1', port: 30120 }],
        ['ptero-6f2b344c', 'tcp', { host: '10.0.0.5', port: 9987 }],
      ]);
      expect(proposals[0]).toMatchObject({
        identifier: '1a7ce997',
        guessedFrom: 'egg',
        component: { key: 'ptero-1a7ce997', name: 'Survival', monitor: 'ptero-1a7ce997' },
        resourceMonitor: { type: 'pterodactyl', config: { panelUrl: panel.url, serverId: '1a7ce997' } },
      });
      expect(JSON.stringify(proposals)).not.toContain(panel.key);
    });

    it('answers a key the panel refuses with a 400 naming apiKey, and an unreachable panel naming panelUrl', async () => {
      const refused = await h.call('POST', '/api/v1/panels/discover', { body: { ...body(), apiKey: 'ptlc_wrong' } });
      expect(refused.status).toBe(400);
      const problem = await refused.json();
      expect(problem.errors).toEqual([{ path: 'body.apiKey', message: 'the panel refused the key' }]);
      expect(JSON.stringify(problem)).not.toContain('ptlc_wrong');
      const gone = await h.call('POST', '/api/v1/panels/discover', {
        body: { ...body(), panelUrl: 'http://127.0.0.1:1' },
      });
      expect(gone.status).toBe(400);
      expect((await gone.json()).errors[0].path).toBe('body.panelUrl');
    });

    it('creates the monitors and components; applying again changes nothing', async () => {
      const first = await h.call('POST', '/api/v1/panels/apply', { body: { ...body(), page: 'alpha' } });
      expect(first.status).toBe(200);
      const report = await first.json();
      expect(report.servers).toHaveLength(6);
      for (const server of report.servers)
        expect(server).toMatchObject({ monitor: 'created', resourceMonitor: null, component: 'created' });
      const monitor = await (await h.call('GET', '/api/v1/monitors/ptero-1a7ce997')).json();
      expect(monitor).toMatchObject({
        name: 'Survival',
        type: 'minecraft-java',
        managedBy: 'api',
        tags: ['pterodactyl', expect.stringMatching(/^panel-[0-9a-f]{10}$/)],
      });
      const { components } = await (await h.call('GET', '/api/v1/pages/alpha/components')).json();
      expect(components.find((c: { key: string }) => c.key === 'ptero-1a7ce997')).toMatchObject({
        name: 'Survival',
        monitorKey: 'ptero-1a7ce997',
      });
      const again = await (await h.call('POST', '/api/v1/panels/apply', { body: { ...body(), page: 'alpha' } })).json();
      for (const server of again.servers)
        expect(server).toMatchObject({ monitor: 'unchanged', component: 'unchanged' });
      const entries = await h.store.audit.list({ organizationId: h.a.id, limit: 100 });
      expect(entries.filter((e) => e.action === 'panel.apply')).toHaveLength(2);
      expect(JSON.stringify(entries)).not.toContain(panel.key);
    });

    it('re-syncs a renamed server and a moved port, and leaves what it did not make alone', async () => {
      const made = await h.call('POST', '/api/v1/monitors', {
        body: { key: 'ptero-3c9e0119', name: 'Mine', type: 'tcp', config: { host: '10.9.9.9', port: 1 } },
      });
      // The key was taken by apply already: a hand-made monitor under another server's key stays as it is.
      expect(made.status).toBe(409);
      panel.servers = hostedServers().map((s) =>
        s.identifier === '2b8df008'
          ? { ...s, name: 'Pocket Edition', allocations: [{ ip: '10.0.0.5', port: 19133, isDefault: true }] }
          : s,
      );
      const report = await (
        await h.call('POST', '/api/v1/panels/apply', { body: { ...body(), page: 'alpha', servers: ['2b8df008'] } })
      ).json();
      expect(report.servers).toEqual([
        {
          identifier: '2b8df008',
          name: 'Pocket Edition',
          monitor: 'updated',
          resourceMonitor: null,
          component: 'updated',
          restarts: null,
          error: null,
        },
      ]);
      const monitor = await (await h.call('GET', '/api/v1/monitors/ptero-2b8df008')).json();
      expect(monitor).toMatchObject({ name: 'Pocket Edition', config: { host: '10.0.0.5', port: 19133 } });
      // The file's monitors and component are untouched.
      expect(await (await h.call('GET', '/api/v1/monitors/lobby')).json()).toMatchObject({ name: 'Lobby' });
      const { components } = await (await h.call('GET', '/api/v1/pages/alpha/components')).json();
      expect(components.find((c: { key: string }) => c.key === 'lobby')).toMatchObject({
        name: 'Lobby',
        monitorKey: 'lobby',
      });
    });

    it('skips a ptero- monitor that apply did not make, and adds resource monitors on request', async () => {
      await h.call('DELETE', '/api/v1/monitors/ptero-6f2b344c');
      const made = await h.call('POST', '/api/v1/monitors', {
        body: { key: 'ptero-6f2b344c', name: 'My voice', type: 'tcp', config: { host: '10.9.9.9', port: 1 } },
      });
      expect(made.status).toBe(201);
      const report = await (
        await h.call('POST', '/api/v1/panels/apply', {
          body: { ...body(), page: 'alpha', servers: ['6f2b344c'], resources: true },
        })
      ).json();
      expect(report.servers[0]).toMatchObject({ monitor: 'skipped', resourceMonitor: 'created' });
      expect(await (await h.call('GET', '/api/v1/monitors/ptero-6f2b344c')).json()).toMatchObject({
        name: 'My voice',
        config: { host: '10.9.9.9', port: 1 },
      });
      const resources = await (await h.call('GET', '/api/v1/monitors/ptero-6f2b344c-resources')).json();
      expect(resources).toMatchObject({ type: 'pterodactyl', config: { serverId: '6f2b344c', apiKey: '[redacted]' } });
    });

    it('reports a server it cannot apply with its reason, and applies the others', async () => {
      panel.servers = [
        {
          ...(hostedServers()[1] as FakePanelServer),
          identifier: '7a3c455d',
          allocations: [{ ip: '10.0.0.5', alias: 'no such host!', port: 19132, isDefault: true }],
        },
        { ...(hostedServers()[1] as FakePanelServer), identifier: '8b4d566e', name: 'Pocket two' },
      ];
      const res = await h.call('POST', '/api/v1/panels/apply', { body: { ...body(), page: 'alpha' } });
      expect(res.status).toBe(200);
      const [bad, good] = (await res.json()).servers;
      expect(bad).toMatchObject({ identifier: '7a3c455d', monitor: null, component: null });
      expect(bad.error).toMatch(/^config\.host: /);
      expect(good).toMatchObject({ identifier: '8b4d566e', monitor: 'created', component: 'created', error: null });
      panel.servers = hostedServers();
    });

    it('answers 429 past the budget of panel reads', async () => {
      const answers: number[] = [];
      for (let i = 0; i < 11; i++)
        answers.push((await h.call('POST', '/api/v1/panels/discover', { body: body() })).status);
      expect(answers).toEqual([...Array(10).fill(200), 429]);
    });

    it('names an identifier the panel does not list', async () => {
      const res = await h.call('POST', '/api/v1/panels/apply', {
        body: { ...body(), page: 'alpha', servers: ['ffffffff'] },
      });
      expect(res.status).toBe(400);
      expect((await res.json()).errors[0].path).toBe('body.servers');
    });
  });
}
