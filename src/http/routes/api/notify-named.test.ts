// Monitors and pages naming notification channels through the API (`notify`): checked against the organization's
// channels, shown in their views, and routing the monitor's alerts to the channel it names (and only those, there).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ApiHarness, openApiHarness } from '../../../../test/api-app.js';
import { type Receiver, startReceiver } from '../../../../test/fakes/notify-receivers.js';
import { dialects } from '../../../../test/store-dialects.js';

const SECRET = `whsec_${Buffer.alloc(32, 4).toString('base64')}`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`monitors and pages naming channels on ${dialect.name}`, () => {
    let h: ApiHarness;
    let receiver: Receiver;
    beforeAll(async () => {
      // The receiver listens on loopback, which these organizations may reach.
      h = await openApiHarness(dialect, { security: { probePrivateTargets: 'allow' } });
      receiver = await startReceiver({ status: 204 });
      for (const key of ['pager', 'ops'])
        expect(
          (
            await h.call('POST', '/api/v1/notification-channels', {
              body: { key, name: key, type: 'webhook', config: { url: `${receiver.url}/${key}`, secret: SECRET } },
            })
          ).status,
        ).toBe(201);
    });
    afterAll(async () => {
      await receiver?.close();
      await h?.close();
    });
    const errorPaths = async (res: Response) => (await res.json()).errors.map((e: { path: string }) => e.path);

    it('answers 400 naming the field for a channel that does not exist', async () => {
      const monitor = { key: 'gate', name: 'Gate', type: 'tcp', retries: 0, config: { host: '127.0.0.1', port: 1 } };
      const res = await h.call('POST', '/api/v1/monitors', { body: { ...monitor, notify: ['pager', 'nope'] } });
      expect(res.status).toBe(400);
      expect(await errorPaths(res)).toEqual(['body.notify[1]']);
      const page = await h.call('POST', '/api/v1/pages', { body: { slug: 'gamma', title: 'Gamma', notify: ['nope'] } });
      expect(page.status).toBe(400);
      expect(await errorPaths(page)).toEqual(['body.notify[0]']);
    });

    it("sends a monitor's alerts to the channel it names, which then gets nothing else", async () => {
      const created = await h.call('POST', '/api/v1/monitors', {
        body: {
          key: 'gate',
          name: 'Gate',
          type: 'tcp',
          retries: 0,
          notify: ['pager'],
          config: { host: '127.0.0.1', port: 1 },
        },
      });
      expect(created.status).toBe(201);
      const gate = await created.json();
      expect(gate.notify).toEqual(['pager']);
      await h.ingest.record({ monitorId: gate.id, ok: false, error: 'connection refused', source: 'edge' });
      await h.ingest.record({
        monitorId: h.a.monitors.lobby?.id as string,
        ok: false,
        error: 'connection refused',
        source: 'edge',
      });
      await h.ingest.record({
        monitorId: h.a.monitors.lobby?.id as string,
        ok: false,
        error: 'connection refused',
        source: 'edge',
      });
      const got = (path: string) =>
        receiver.requests.filter((r) => r.path === path).map((r) => (r.json as { data: { title: string } }).data.title);
      await vi.waitFor(() => {
        expect(got('/pager')).toEqual(['Gate is down']);
        expect(got('/ops').sort()).toEqual(['Gate is down', 'Lobby is down']);
      });
      const { deliveries } = await (await h.call('GET', '/api/v1/notification-channels/pager/deliveries')).json();
      expect(
        deliveries.map((d: { kind: string; monitorId: string; status: string }) => [d.kind, d.monitorId, d.status]),
      ).toEqual([['monitor.down', gate.id, 'sent']]);

      const cleared = await h.call('PATCH', `/api/v1/monitors/${gate.id}`, { body: { notify: null } });
      expect(cleared.status).toBe(200);
      expect((await cleared.json()).notify).toBeNull();
    });

    it('stores and shows the channels a page names', async () => {
      const created = await h.call('POST', '/api/v1/pages', {
        body: { slug: 'gamma', title: 'Gamma', notify: ['ops', 'ops'] },
      });
      expect(created.status).toBe(201);
      expect((await created.json()).notify).toEqual(['ops']);
      const patched = await h.call('PATCH', '/api/v1/pages/gamma', { body: { notify: ['pager'] } });
      expect((await patched.json()).notify).toEqual(['pager']);
      expect((await (await h.call('GET', '/api/v1/pages/gamma')).json()).notify).toEqual(['pager']);
    });
  });
}
