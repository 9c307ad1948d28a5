// Monitor dependencies across a cluster (issue 37): three real `warden serve` processes on one PostgreSQL schema and
// Redis, a parent TCP monitor and 30 children that depend on it, every two seconds, their shards spread over the three.
// Each monitor probes a local TCP target through a proxy the test switches off and on. The parent's target goes, then
// the children's: the webhook gets one alert, the parent's, counting the 30 behind it, and nothing for the children
// (their alerts held back, recorded as skipped) whichever process judged them. The parent back with the children still
// down: each child gets its own alert then, once.
import { describe, expect, it } from 'vitest';
import { shardLease, shardOf } from '../../src/domain/cluster.js';
import type { Monitor } from '../../src/domain/monitor.js';
import type { NotificationEvent } from '../../src/notify/channels/channel.js';
import { Cluster, clusterAvailable, startTcpTargets, TcpProxy, until } from '../cluster-harness.js';
import { type Receiver, startReceiver } from '../fakes/notify-receivers.js';
import { seed } from '../seed.js';
import { settledAt } from '../until.js';

const CHILDREN = 30;
const INTERVAL_SEC = 2;
const SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;

function config(parentPort: number, childPort: number, hook: string): string {
  const tcp = (port: number) => `type: tcp, retries: 0, timeoutMs: 1000, config: { host: 127.0.0.1, port: ${port} }`;
  return [
    'organization: { key: acme, name: Acme, probePrivateTargets: allow }',
    'notifications:',
    `  - { key: hook, name: Hook, type: webhook, config: { url: "${hook}/hook", secret: "${SECRET}" } }`,
    'monitors:',
    `  - { key: parent, name: Parent, ${tcp(parentPort)} }`,
    ...Array.from(
      { length: CHILDREN },
      (_, i) => `  - { key: child-${i}, name: Child ${i}, dependsOn: parent, ${tcp(childPort)} }`,
    ),
  ].join('\n');
}

describe.skipIf(!clusterAvailable)('dependencies across three Warden processes', { timeout: 90_000 }, () => {
  it('sends one alert naming the parent and its 30 children, then each child its own once the parent is back', async () => {
    const targets = await startTcpTargets(1);
    const target = targets.ports[0] as number;
    const [parentLink, childLink] = [new TcpProxy('127.0.0.1', target), new TcpProxy('127.0.0.1', target)];
    await Promise.all([parentLink.open(), childLink.open()]);
    const hook: Receiver = await startReceiver({ status: 204 });
    let cluster: Cluster | undefined;
    let monitors: Record<string, Monitor> = {};
    let organizationId = '';
    try {
      cluster = await Cluster.start({
        instances: ['a', 'b', 'c'],
        seed: async (store) => {
          const seeded = await seed(store, config(parentLink.port, childLink.port, hook.url), Date.now());
          organizationId = seeded.report.organization.id;
          // Two-second checks (below warden.yaml's 10 s minimum, so set directly).
          for (const m of Object.values(seeded.monitors))
            await store.monitors.updateSpec(m.id, { ...m, intervalSec: INTERVAL_SEC }, m.managedBy, Date.now());
          monitors = seeded.monitors;
        },
      });
      const store = cluster.store;
      const ids = Object.values(monitors).map((m) => m.id);
      const childIds = ids.filter((id) => id !== monitors.parent?.id);
      const states = async (of: string[]) => (await store.monitors.findByIds(of)).map((m) => m.state);
      await until('every monitor up', async () => (await states(ids)).every((s) => s === 'up'), 30_000, 200);
      await until('the shards shared out', () => cluster?.balanced(['a', 'b', 'c']), 30_000, 250);
      // The 31 monitors are checked by all three processes.
      const holders = new Map((await cluster.leases()).map((l) => [l.name, l.holder]));
      const checkers = new Set(ids.map((id) => holders.get(shardLease(shardOf(id)))));
      expect(checkers).toEqual(new Set(['a', 'b', 'c']));

      const events = () => hook.requests.map((r) => (r.json as { data: NotificationEvent }).data);
      const channel = await store.channels.findByKey(organizationId, 'hook');
      const deliveries = () => store.deliveries.listByChannel(channel?.id as string, 1000);
      /** Waits until nothing is left to send, then a few intervals more in which nothing else may arrive. */
      const settled = (count: number) =>
        settledAt(() => hook.requests.length, deliveries, count, 2 * INTERVAL_SEC * 1000);

      // The parent goes down first, then its children: one alert, the parent's, with the count.
      await parentLink.close();
      await until('the parent down', async () => (await states([monitors.parent?.id as string]))[0] === 'down', 15_000);
      await childLink.close();
      await until('every child down', async () => (await states(childIds)).every((s) => s === 'down'), 20_000, 200);
      await settled(1);
      expect(events()[0]).toMatchObject({
        kind: 'monitor.down',
        title: `Parent is down, and ${CHILDREN} monitors behind it`,
        dependents: CHILDREN,
        monitor: { key: 'parent' },
      });
      const held = (await deliveries()).filter((d) => d.status === 'skipped');
      expect(held).toHaveLength(CHILDREN);
      expect(new Set(held.map((d) => d.lastError))).toEqual(new Set(['unreachable: Parent is down']));

      // The parent back, the children still down: the parent's recovery, and each child's own alert, once.
      await parentLink.open();
      await settled(2 + CHILDREN);
      const after = events().slice(1);
      expect(after.filter((e) => e.kind === 'monitor.recovered').map((e) => e.monitor?.key)).toEqual(['parent']);
      const released = after.filter((e) => e.kind === 'monitor.down');
      expect(released.map((e) => e.monitor?.key).sort()).toEqual(
        Array.from({ length: CHILDREN }, (_, i) => `child-${i}`).sort(),
      );
      for (const event of released)
        expect(event.title).toMatch(/^Child \d+ is down \(for .+; held back while Parent was down\)$/);
    } finally {
      await cluster?.close();
      await Promise.all([parentLink.close(), childLink.close(), hook.close(), targets.close()]);
    }
  });
});
