// An incident's notices as a webhook receiver hears them: opened, updated and resolved through the org API; warden.yaml
// telling only what is news (a fresh incident or entry, never an old one, never the same file twice).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ApiHarness, ORG_A_YAML, openApiHarness } from '../../../test/api-app.js';
import { type Receiver, startReceiver } from '../../../test/fakes/notify-receivers.js';
import { dialects } from '../../../test/store-dialects.js';
import { applyConfig } from '../../config/apply.js';
import { parseConfigText } from '../../config/load.js';
import { createLogger } from '../../logger.js';
import type { NotificationEvent } from '../channels/channel.js';
import { CHANNELS } from '../channels/registry.js';
import { createDispatcher, type Dispatcher } from '../dispatch/dispatcher.js';

const SECRET = `whsec_${Buffer.alloc(32, 5).toString('base64')}`;
const PAGE = { slug: 'alpha', title: 'Alpha status', url: 'http://warden.test/s/alpha' };

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`incident notices on ${dialect.name}`, () => {
    let h: ApiHarness;
    let receiver: Receiver;
    let dispatcher: Dispatcher;
    let channelId: string;
    beforeAll(async () => {
      receiver = await startReceiver({ status: 204 });
      // The receiver listens on loopback, which these organizations may reach (the app's own dispatcher sends too).
      h = await openApiHarness(dialect, { security: { probePrivateTargets: 'allow' } });
      dispatcher = createDispatcher({
        store: h.store,
        clock: h.clock,
        logger: createLogger('silent'),
        channels: CHANNELS,
        privateTargets: 'allow',
      });
      const res = await h.call('POST', '/api/v1/notification-channels', {
        body: { key: 'hook', name: 'Hook', type: 'webhook', config: { url: `${receiver.url}/hook`, secret: SECRET } },
      });
      channelId = (await res.json()).id;
    });
    afterAll(async () => {
      await dispatcher?.stop();
      await h?.close();
      await receiver?.close();
    });

    let read = 0;
    /** What the receiver got since the last call, once every delivery due was sent. */
    const received = async () => {
      await vi.waitFor(async () => {
        await dispatcher.tick();
        const unsettled = (await h.store.deliveries.listByChannel(channelId, 100)).filter(
          (d) => d.status === 'pending' || d.status === 'sending',
        );
        expect(unsettled).toEqual([]);
      });
      const events = receiver.requests.slice(read).map((r) => (r.json as { data: NotificationEvent }).data);
      read = receiver.requests.length;
      return events;
    };
    const iso = (at: number) => new Date(at).toISOString();
    const applyFile = (incidents: string) =>
      applyConfig(
        h.context,
        parseConfigText(ORG_A_YAML.replace('    incidents:\n', `    incidents:\n${incidents}`), 'warden.yaml', {}),
      );

    it('tells an incident opened through the API, its updates and its resolution, with the page, status, impact and message', async () => {
      const opened = await h.call('POST', '/api/v1/pages/alpha/incidents', {
        body: {
          title: 'Login queue',
          impact: 'major',
          message: 'Logins are slow; we are looking into it.',
          components: ['lobby'],
        },
      });
      expect(opened.status).toBe(201);
      const { id } = await opened.json();
      const [created, ...none] = await received();
      expect(none).toEqual([]);
      expect(created).toMatchObject({
        kind: 'incident.created',
        at: h.clock.now(),
        severity: 'critical',
        title: 'Incident: Login queue',
        reason: 'Logins are slow; we are looking into it.',
        incident: {
          id,
          title: 'Login queue',
          status: 'investigating',
          impact: 'major',
          message: 'Logins are slow; we are looking into it.',
        },
        pages: [PAGE],
      });
      expect(created?.monitor).toBeUndefined();

      h.clock.advance(60_000);
      await h.call('POST', `/api/v1/incidents/${id}/updates`, {
        body: { status: 'identified', message: 'A full disk.', impact: 'minor' },
      });
      // Its title, impact or components alone are not news.
      await h.call('PATCH', `/api/v1/pages/alpha/incidents/${id}`, { body: { title: 'Login queue (EU)' } });
      h.clock.advance(60_000);
      await h.call('POST', `/api/v1/incidents/${id}/updates`, {
        body: { status: 'resolved', message: 'Disk grown; logins are fast.' },
      });
      const events = await received();
      expect(events.map((e) => [e.kind, e.severity, e.title, e.reason])).toEqual([
        ['incident.updated', 'warning', 'Incident update: Login queue', 'A full disk.'],
        ['incident.resolved', 'ok', 'Resolved: Login queue (EU)', 'Disk grown; logins are fast.'],
      ]);
      expect(events[1]?.incident).toEqual({
        id,
        title: 'Login queue (EU)',
        status: 'resolved',
        impact: 'minor',
        message: 'Disk grown; logins are fast.',
      });
      expect(new Set(events.map((e) => e.id)).size).toBe(2);
    });

    it('tells what warden.yaml declares only when it is news: not an old incident, not the same file again', async () => {
      const now = h.clock.now();
      const old = `      - { key: old, title: Old outage, status: resolved, startedAt: 2026-01-01T00:00:00Z, updates: [{ at: 2026-01-01T00:00:00Z, status: investigating, message: Down }, { at: 2026-01-01T02:00:00Z, status: resolved, message: Fixed }] }\n`;
      const fresh = (updates: string, status = 'investigating') =>
        `      - { key: fresh, title: Map server lag, status: ${status}, impact: minor, startedAt: ${iso(now - 600_000)}, updates: [{ at: ${iso(now - 600_000)}, status: investigating, message: Laggy }${updates}] }\n`;
      await applyFile(old + fresh(''));
      expect((await received()).map((e) => [e.kind, e.title, e.at])).toEqual([
        ['incident.created', 'Incident: Map server lag', now - 600_000],
      ]);
      await applyFile(old + fresh(''));
      expect(await received()).toEqual([]);
      h.clock.advance(60_000);
      await applyFile(
        old + fresh(`, { at: ${iso(h.clock.now())}, status: monitoring, message: Patched }`, 'monitoring'),
      );
      expect((await received()).map((e) => [e.kind, e.reason, e.incident?.status])).toEqual([
        ['incident.updated', 'Patched', 'monitoring'],
      ]);
    });
  });
}
