// Escalation policies: step 1 goes to its channels at once, step 2 only if the alert is still open and
// unacknowledged after its minutes (an injected clock), each once whoever sweeps, and the recovery closes the alert
// at every channel a step reached.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiHarness, openApiHarness } from '../../../../test/api-app.js';
import { type Receiver, startReceiver } from '../../../../test/fakes/notify-receivers.js';
import { dialects } from '../../../../test/store-dialects.js';
import { createEscalationPass } from '../../../notify/outbox/escalation.js';

const SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const MIN = 60_000;

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`escalation policies on ${dialect.name}`, () => {
    let h: ApiHarness;
    let receiver: Receiver;
    const titles = (path: string) =>
      receiver.requests.filter((r) => r.path === path).map((r) => (r.json as { data: { title: string } }).data.title);
    // Each tick sends what is due per channel lane: tick until the receiver has heard nothing new twice running.
    const send = async () => {
      let heard = -1;
      for (let quiet = 0, i = 0; quiet < 2 && i < 20; i++) {
        await h.dispatcher.tick();
        await new Promise((resolve) => setTimeout(resolve, 20));
        quiet = receiver.requests.length === heard ? quiet + 1 : 0;
        heard = receiver.requests.length;
      }
    };
    const monitor = async (key: string) => {
      const res = await h.call('POST', '/api/v1/monitors', {
        body: { key, name: key, type: 'tcp', retries: 0, config: { host: '127.0.0.1', port: 1 } },
      });
      return ((await res.json()) as { id: string }).id;
    };
    const record = (monitorId: string, ok: boolean) =>
      h.ingest.record({ monitorId, ok, ...(ok ? {} : { error: 'connection refused' }), source: 'edge' });

    beforeAll(async () => {
      h = await openApiHarness(dialect, { security: { probePrivateTargets: 'allow' } });
      receiver = await startReceiver({ status: 204 });
      // The policy's channels hear only what the policy sends them.
      for (const key of ['first', 'second']) {
        const body = {
          key,
          name: key,
          type: 'webhook',
          rules: { events: [] },
          config: { url: `${receiver.url}/${key}`, secret: SECRET },
        };
        expect((await h.call('POST', '/api/v1/notification-channels', { body })).status).toBe(201);
      }
      await h.store.escalationPolicies.insert(
        {
          id: 'esc_oncall',
          organizationId: h.a.id,
          key: 'oncall',
          name: 'On call',
          steps: [
            { afterMin: 0, channels: ['first'] },
            { afterMin: 10, channels: ['second'] },
          ],
          monitors: null,
          managedBy: 'api',
        },
        h.clock.now(),
      );
    });
    afterAll(async () => {
      await receiver?.close();
      await h?.close();
    });

    it('sends step 1 at once, step 2 after its minutes once, and the recovery to both', async () => {
      const gate = await monitor('gate');
      await record(gate, false);
      await send();
      expect(titles('/first')).toEqual(['gate is down']);
      expect(titles('/second')).toEqual([]);

      h.clock.advance(9 * MIN);
      expect(await h.escalation.sweep()).toBe(0);
      h.clock.advance(2 * MIN);
      // Two passes at once (a second process on the same database): the step is delivered once.
      const other = createEscalationPass({ store: h.store, notify: h.context.notify, clock: h.clock });
      const [a, b] = await Promise.all([h.escalation.sweep(), other()]);
      expect(a + b).toBe(1);
      expect(await h.escalation.sweep()).toBe(0);
      await send();
      expect(titles('/second')).toEqual(['gate is down, not acknowledged for 10 min (escalation step 2)']);

      h.clock.advance(MIN);
      await record(gate, true);
      await send();
      expect(titles('/first')).toEqual(['gate is down', 'gate is back up after 12 min']);
      expect(titles('/second')).toEqual([
        'gate is down, not acknowledged for 10 min (escalation step 2)',
        'gate is back up after 12 min',
      ]);
      const { alerts } = await (await h.call('GET', '/api/v1/alerts?state=resolved&monitor=gate')).json();
      expect(alerts[0]).toMatchObject({
        escalation: { policy: 'oncall', stepsSent: 2, channels: ['first', 'second'] },
      });
    });

    it('escalates nothing for a monitor behind a down parent until the parent is back', async () => {
      const uplink = await monitor('uplink');
      const shop = await monitor('shop');
      const patch = { body: { dependsOn: 'uplink' } };
      expect((await h.call('PATCH', '/api/v1/monitors/shop', patch)).status).toBe(200);
      await record(uplink, false);
      await record(shop, false);
      await send();
      expect(titles('/first').filter((t) => /uplink|shop/.test(t))).toEqual([
        'uplink is down, and 1 monitor behind it',
      ]);

      h.clock.advance(11 * MIN);
      await h.escalation.sweep();
      await send();
      expect(titles('/second').filter((t) => /uplink|shop/.test(t))).toEqual([
        'uplink is down, not acknowledged for 10 min (escalation step 2)',
      ]);

      // Back: the shop, still down, is judged alone, and its steps come due together.
      await record(uplink, true);
      await h.escalation.sweep();
      await send();
      expect(titles('/first').filter((t) => t.startsWith('shop'))).toHaveLength(1);
      expect(titles('/second').filter((t) => t.startsWith('shop'))).toHaveLength(1);
      expect(shop).toBeTruthy();
    });

    it('stops escalating once the alert is acknowledged', async () => {
      const door = await monitor('door');
      await record(door, false);
      await send();
      expect(titles('/first')).toContain('door is down');
      const { alerts } = await (await h.call('GET', '/api/v1/alerts?monitor=door')).json();
      expect((await h.call('POST', `/api/v1/alerts/${alerts[0].id}/acknowledge`, { body: {} })).status).toBe(200);
      h.clock.advance(30 * MIN);
      expect(await h.escalation.sweep()).toBe(0);
      await send();
      expect(titles('/second').some((t) => t.startsWith('door'))).toBe(false);
    });
  });
}
