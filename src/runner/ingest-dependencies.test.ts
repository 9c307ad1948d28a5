// Dependencies as a channel hears them (issue 37): 245 heartbeat monitors behind one parent. The parent goes down,
// then every child: one alert, naming the parent and the 245 behind it, not 246; the children read "unreachable:
// Router is down" in the API and their held alerts are recorded as skipped. The parent back: a child that recovered
// meanwhile gets nothing, one still down gets its own alert then, and its recovery later. The clock is the harness's.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Harness, startHarness } from '../../test/app-harness.js';
import { type Receiver, startReceiver } from '../../test/fakes/notify-receivers.js';
import { dialects } from '../../test/store-dialects.js';
import { scaled } from '../../test/time-scale.js';
import type { NotificationEvent } from '../notify/channels/channel.js';
import { createApiKey } from '../services/api-keys/create.js';

const CHILDREN = 245;
const START = Date.UTC(2026, 10, 21, 9);
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const MIN = 60_000;
const token = (i: number | 'router') => `wdp_dependencies_${String(i).padStart(6, '0')}`;
const child = (i: number) => `
  - key: shop-${i}
    name: Shop ${i}
    type: heartbeat
    retries: 0
    pushToken: ${token(i)}
    config: { graceSec: 86400 }
    dependsOn: router`;
const yaml = (hook: string) => `
organization: { key: acme, name: Acme, probePrivateTargets: allow }
monitors:
  - key: router
    name: Router
    type: heartbeat
    retries: 0
    pushToken: ${token('router')}
    config: { graceSec: 86400 }
${Array.from({ length: CHILDREN }, (_, i) => child(i)).join('\n')}
notifications:
  - { key: hook, name: Hook, type: webhook, config: { url: "${hook}", secret: "${SECRET}" } }
`;

for (const dialect of dialects) {
  // 246 heartbeats over HTTP per step: slow on a shared PostgreSQL.
  describe.skipIf(!dialect.available)(`dependencies from heartbeats on ${dialect.name}`, { timeout: 120_000 }, () => {
    let h: Harness;
    let receiver: Receiver;
    let key: string;
    beforeAll(async () => {
      receiver = await startReceiver({ status: 204 });
      h = await startHarness(dialect, yaml(`${receiver.url}/hook`), START);
      key = (await createApiKey({ ...h.context, organizationId: h.organizationId }, { name: 't', scope: 'read' }))
        .secret;
    }, scaled(60_000));
    afterAll(async () => {
      await h?.close();
      await receiver?.close();
    });

    async function push(tokens: string[], status: 'up' | 'down'): Promise<void> {
      // Fifty at once, as many servers' heartbeats arrive: the group commit stores each batch together.
      for (let i = 0; i < tokens.length; i += 50) {
        const batch = tokens.slice(i, i + 50);
        const answers = await Promise.all(
          batch.map((t) =>
            h.request(`/api/push/${t}?status=${status}&msg=${status === 'down' ? 'unreachable' : 'ok'}`),
          ),
        );
        expect(answers.map((res) => res.status)).toEqual(batch.map(() => 200));
      }
      await h.ingest.flush();
    }
    const children = (from = 0, to = CHILDREN) => Array.from({ length: to - from }, (_, i) => token(from + i));
    let read = 0;
    const received = async () => {
      const hook = await h.opened.store.channels.findByKey(h.organizationId, 'hook');
      await vi.waitFor(async () => {
        await h.dispatcher.tick();
        const deliveries = await h.opened.store.deliveries.listByChannel(hook?.id as string, 1000);
        expect(deliveries.filter((d) => d.status === 'pending' || d.status === 'sending')).toEqual([]);
      }, 20_000);
      const events = receiver.requests.slice(read).map((r) => (r.json as { data: NotificationEvent }).data);
      read = receiver.requests.length;
      return events;
    };
    const api = async (path: string) =>
      (await h.request(path, { headers: { authorization: `Bearer ${key}` } })).json() as Promise<{
        state: string;
        dependsOn: string | null;
        unreachable: string | null;
      }>;

    it('starts with everything up and tells nothing', async () => {
      await push([token('router'), ...children()], 'up');
      expect(await received()).toEqual([]);
    });

    it('sends one alert, not 246, when the parent goes down and its children after it', async () => {
      h.clock.advance(MIN);
      await push([token('router')], 'down');
      h.clock.advance(5_000);
      await push(children(), 'down');
      const events = await received();
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        kind: 'monitor.down',
        title: `Router is down, and ${CHILDREN} monitors behind it`,
        dependents: CHILDREN,
        monitor: { key: 'router' },
      });
      const hook = await h.opened.store.channels.findByKey(h.organizationId, 'hook');
      const held = (await h.opened.store.deliveries.listByChannel(hook?.id as string, 1000)).filter(
        (d) => d.status === 'skipped',
      );
      expect(held).toHaveLength(CHILDREN);
      expect(new Set(held.map((d) => d.lastError))).toEqual(new Set(['unreachable: Router is down']));
    });

    it('shows the children as unreachable in the API while the parent is down', async () => {
      expect(await api('/api/v1/monitors/shop-7')).toMatchObject({
        state: 'down',
        dependsOn: 'router',
        unreachable: 'unreachable: Router is down',
      });
      expect(await api('/api/v1/monitors/router')).toMatchObject({ state: 'down', unreachable: null });
    });

    it('judges the children alone once the parent is back: the recovered get nothing, the still down an alert', async () => {
      h.clock.advance(MIN);
      // Most children recover first; shop-240 to shop-244 stay down.
      await push(children(0, CHILDREN - 5), 'up');
      h.clock.advance(MIN);
      await push([token('router')], 'up');
      // Sent in any order (each monitor has its own lane).
      const events = (await received()).sort((a, b) => (a.monitor?.key ?? '').localeCompare(b.monitor?.key ?? ''));
      expect(events.map((e) => [e.kind, e.monitor?.key])).toEqual([
        ['monitor.recovered', 'router'],
        ...Array.from({ length: 5 }, (_, i) => ['monitor.down', `shop-${CHILDREN - 5 + i}`]),
      ]);
      expect(events.find((e) => e.monitor?.key === 'shop-240')).toMatchObject({
        title: 'Shop 240 is down (for 2 min; held back while Router was down)',
        downSince: START + MIN + 5_000,
      });
      expect((await api('/api/v1/monitors/shop-240')).unreachable).toBeNull();
      h.clock.advance(MIN);
      await push(children(CHILDREN - 5), 'up');
      const back = (await received()).sort((a, b) => (a.monitor?.key ?? '').localeCompare(b.monitor?.key ?? ''));
      expect(back.map((e) => [e.kind, e.monitor?.key])).toEqual(
        Array.from({ length: 5 }, (_, i) => ['monitor.recovered', `shop-${CHILDREN - 5 + i}`]),
      );
    });

    it('tells a child that goes down on its own, with its parent up', async () => {
      h.clock.advance(MIN);
      await push([token(3)], 'down');
      expect((await received()).map((e) => [e.kind, e.title])).toEqual([['monitor.down', 'Shop 3 is down']]);
    });
  });
}
