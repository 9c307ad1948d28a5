// A monitor's own expected restart as a channel and a page see it: a server down inside its restart slot (cron in its
// time zone) raises no alert (the delivery is recorded skipped) and its component shows maintenance; down again
// outside the slot, it alerts and shows down. The clock is the harness's.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Harness, startHarness } from '../../test/app-harness.js';
import { type Receiver, startReceiver } from '../../test/fakes/notify-receivers.js';
import { dialects } from '../../test/store-dialects.js';
import type { NotificationEvent } from '../notify/channels/channel.js';

const TOKEN = 'wdp_expectedRestartMillToken01';
/** Friday 2026-11-20, 12:00 UTC: 13:00 in Berlin, when the mill restarts every day. */
const START = Date.UTC(2026, 10, 20, 12);
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const MIN = 60_000;
const yaml = (hook: string) => `
organization: { key: acme, name: Acme }
monitors:
  - key: mill
    name: Mill
    type: heartbeat
    pushToken: ${TOKEN}
    retries: 0
    config: { graceSec: 86400 }
    expectedRestart: [{ cron: "0 13 * * *", timezone: Europe/Berlin, durationMin: 10 }]
pages:
  - slug: acme
    title: Acme
    components: [{ key: mill, name: Mill, monitor: mill }]
notifications:
  - { key: hook, name: Hook, type: webhook, config: { url: "${hook}", secret: "${SECRET}" } }
`;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`expected restarts on ${dialect.name}`, () => {
    let h: Harness;
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = await startReceiver({ status: 204 });
      h = await startHarness(dialect, yaml(`${receiver.url}/hook`), START);
    });
    afterAll(async () => {
      await h?.close();
      await receiver?.close();
    });

    async function push(status: 'up' | 'down'): Promise<void> {
      const res = await h.request(`/api/push/${TOKEN}?status=${status}`);
      expect(res.status).toBe(200);
      await h.ingest.flush();
    }
    const deliveries = async () => {
      const hook = await h.opened.store.channels.findByKey(h.organizationId, 'hook');
      return h.opened.store.deliveries.listByChannel(hook?.id as string, 50);
    };
    /** What the receiver got, once the dispatcher sent every delivery due. */
    const received = async () => {
      await vi.waitFor(async () => {
        await h.dispatcher.tick();
        expect((await deliveries()).filter((d) => d.status === 'pending' || d.status === 'sending')).toEqual([]);
      });
      return receiver.requests.map((r) => (r.json as { data: NotificationEvent }).data);
    };
    /** The mill's state on the page, once a rebuild after the latest result shows it. */
    const expectMillState = (state: string) =>
      vi.waitFor(async () => {
        const snapshot = await (await h.request('/s/acme/status.json')).json();
        expect(snapshot.components.find((c: { name: string }) => c.name === 'Mill').state).toBe(state);
      });

    it('keeps quiet about a monitor down inside its restart slot, and shows it under maintenance', async () => {
      await push('up');
      h.clock.advance(2 * MIN);
      await push('down');
      await expectMillState('maintenance');
      h.clock.advance(3 * MIN);
      await push('up');
      expect(await received()).toEqual([]);
      expect((await deliveries()).map((d) => [d.kind, d.status])).toEqual([
        ['monitor.recovered', 'skipped'],
        ['monitor.down', 'skipped'],
      ]);
    });

    it('alerts and shows down outside the slot', async () => {
      h.clock.set(START + 30 * MIN);
      await push('down');
      await expectMillState('down');
      expect((await received()).map((e) => [e.kind, e.monitor?.key])).toEqual([['monitor.down', 'mill']]);
    });
  });
}
