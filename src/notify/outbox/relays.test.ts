// A relay going offline and coming back, as a channel hears it: the watchdog (injected clock) marks it offline with one
// relay.offline, the relay's next real request brings relay.back with how long it was silent; each told once.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Harness, startHarness } from '../../../test/app-harness.js';
import { type Receiver, startReceiver } from '../../../test/fakes/notify-receivers.js';
import { dialects } from '../../../test/store-dialects.js';
import { createLogger } from '../../logger.js';
import { createWatchdog } from '../../runner/watchdog.js';
import type { NotificationEvent } from '../channels/channel.js';

const TOKEN = 'wdr_relayNoticesToken00000000000';
const SECRET = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;
const yaml = (hook: string) => `
organization: { key: acme, name: Acme }
relays: [{ key: lab, name: Home lab, token: ${TOKEN} }, { key: attic, name: Attic }]
monitors:
  - { key: far, name: Far, type: tcp, runOn: relay, relay: lab, intervalSec: 20, config: { host: 10.0.0.1, port: 1 } }
  - { key: dusty, name: Dusty, type: tcp, runOn: relay, relay: attic, intervalSec: 20, config: { host: 10.0.0.2, port: 1 } }
pages:
  - slug: acme
    title: Acme status
    components: [{ key: far, name: Far, monitor: far }]
notifications:
  - { key: hook, name: Hook, type: webhook, config: { url: "${hook}", secret: "${SECRET}" } }
`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`relay offline and back on ${dialect.name}`, () => {
    let h: Harness;
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = await startReceiver({ status: 204 });
      h = await startHarness(dialect, yaml(`${receiver.url}/hook`));
    });
    afterAll(async () => {
      await h?.close();
      await receiver?.close();
    });

    const relayRequest = async () =>
      expect((await h.request('/api/relay/config', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(
        200,
      );
    /** What the receiver got since the last call, once the dispatcher sent every delivery due. */
    let read = 0;
    const received = async () => {
      await vi.waitFor(async () => {
        await h.dispatcher.tick();
        const hook = await h.opened.store.channels.findByKey(h.organizationId, 'hook');
        const deliveries = await h.opened.store.deliveries.listByChannel(hook?.id as string, 50);
        expect(deliveries.filter((d) => d.status === 'pending' || d.status === 'sending')).toEqual([]);
      });
      const events = receiver.requests.slice(read).map((r) => (r.json as { data: NotificationEvent }).data);
      read = receiver.requests.length;
      return events;
    };

    it('tells relay.offline once when the watchdog finds it silent, and never about a relay that was never heard from', async () => {
      await relayRequest();
      const seenAt = h.clock.now();
      h.clock.advance(3 * 20_000);
      await h.watchdog.sweep();
      expect(await received()).toEqual([]);
      h.clock.advance(1);
      await h.watchdog.sweep();
      await h.watchdog.sweep();
      // Another process's watchdog, on the same database: the mark is taken, nothing more is told.
      await createWatchdog({ ...h.context, ingest: h.ingest, logger: createLogger('silent') }).sweep();
      const [offline, ...more] = await received();
      expect(more).toEqual([]);
      expect(offline).toMatchObject({
        kind: 'relay.offline',
        severity: 'warning',
        title: 'Relay Home lab is offline',
        reason: 'Not heard from for 1 min (last seen 2026-11-20 12:00 UTC); its monitors are unknown until it is back.',
        relay: { key: 'lab', name: 'Home lab' },
        pages: [{ slug: 'acme', title: 'Acme status', url: 'http://warden.test/s/acme' }],
        organization: { key: 'acme', name: 'Acme' },
      });
      expect(offline?.monitor).toBeUndefined();
      expect(await h.opened.store.relays.findByKey(h.organizationId, 'lab')).toMatchObject({ lastSeenAt: seenAt });
    });

    it('tells relay.back, with how long it was silent, on its next request; once', async () => {
      h.clock.advance(4 * 60_000);
      await relayRequest();
      await relayRequest();
      const [back, ...more] = await received();
      expect(more).toEqual([]);
      expect(back).toMatchObject({
        kind: 'relay.back',
        severity: 'ok',
        title: 'Relay Home lab is back after 5 min',
        reason: null,
        relay: { key: 'lab' },
      });
      expect(back?.at).toBe(h.clock.now());
      const relay = await h.opened.store.relays.findByKey(h.organizationId, 'lab');
      expect(relay?.lastSeenAt).toBe(h.clock.now());
      // Silent again: a new outage, a new notice.
      h.clock.advance(60_001);
      await h.watchdog.sweep();
      expect((await received()).map((e) => e.kind)).toEqual(['relay.offline']);
    });
  });
}
