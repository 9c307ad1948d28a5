// Several vantage points across a cluster (issue 37): three real `warden serve` processes on one PostgreSQL schema and
// Redis, ten TCP monitors every two seconds on the edge (their shards spread over the processes) and at two relays, fra
// and nyc, whose results reach whichever process a load balancer picks (here: each in turn). One location of three
// failing (the edge's target gone): still up, nobody told. Two (fra too): down, one alert per monitor naming both,
// whichever process judged it. Both back: one recovery each.
import { describe, expect, it } from 'vitest';
import { shardLease, shardOf } from '../../src/domain/cluster.js';
import type { Monitor } from '../../src/domain/monitor.js';
import { EDGE_LOCATION } from '../../src/domain/vantage.js';
import type { NotificationEvent } from '../../src/notify/channels/channel.js';
import { Cluster, clusterAvailable, sleep, startTcpTargets, TcpProxy, until } from '../cluster-harness.js';
import { type Receiver, startReceiver } from '../fakes/notify-receivers.js';
import { seed } from '../seed.js';
import { settledAt } from '../until.js';

const MONITORS = 10;
const INTERVAL_SEC = 2;
const INSTANCES = ['a', 'b', 'c'];
const SECRET = `whsec_${Buffer.alloc(32, 5).toString('base64')}`;
const FRA = 'wdr_quorumFraRelayToken0123456789';
const NYC = 'wdr_quorumNycRelayToken0123456789';

function config(port: number, hook: string): string {
  return [
    'organization: { key: acme, name: Acme, probePrivateTargets: allow }',
    'relays:',
    `  - { key: fra, name: Frankfurt, token: ${FRA} }`,
    `  - { key: nyc, name: New York, token: ${NYC} }`,
    'notifications:',
    `  - { key: hook, name: Hook, type: webhook, config: { url: "${hook}/hook", secret: "${SECRET}" } }`,
    'monitors:',
    ...Array.from(
      { length: MONITORS },
      (_, i) =>
        `  - { key: web-${i}, name: Web ${i}, type: tcp, retries: 0, timeoutMs: 1000, locations: [fra, nyc], config: { host: 127.0.0.1, port: ${port} } }`,
    ),
  ].join('\n');
}

describe.skipIf(!clusterAvailable)('a quorum of locations across three Warden processes', { timeout: 120_000 }, () => {
  it('stays up with one location of three failing, and alerts once per monitor, naming two', async () => {
    const targets = await startTcpTargets(1);
    const edgeLink = new TcpProxy('127.0.0.1', targets.ports[0] as number);
    await edgeLink.open();
    const hook: Receiver = await startReceiver({ status: 204 });
    let cluster: Cluster | undefined;
    let monitors: Record<string, Monitor> = {};
    let organizationId = '';
    const relayOk = { fra: true, nyc: true };
    let relaying = true;
    let relayLoop: Promise<void> = Promise.resolve();
    try {
      cluster = await Cluster.start({
        instances: INSTANCES,
        seed: async (store) => {
          const seeded = await seed(store, config(edgeLink.port, hook.url), Date.now());
          organizationId = seeded.report.organization.id;
          // Two-second checks (below warden.yaml's 10 s minimum, so set directly).
          for (const m of Object.values(seeded.monitors))
            await store.monitors.updateSpec(m.id, { ...m, intervalSec: INTERVAL_SEC }, m.managedBy, Date.now());
          monitors = seeded.monitors;
        },
      });
      const running = cluster;
      const ids = Object.values(monitors).map((m) => m.id);
      // The relays: every second each posts a result per monitor, to the next process in turn.
      let turn = 0;
      const post = async (relay: 'fra' | 'nyc') => {
        const ok = relayOk[relay];
        const url = running.url(INSTANCES[turn++ % INSTANCES.length] as string);
        const results = ids.map((monitorId) => ({
          monitorId,
          ok,
          latencyMs: relay === 'fra' ? 30 : 90,
          error: ok ? null : 'connection refused',
          checkedAt: Date.now(),
        }));
        const res = await fetch(`${url}/api/relay/results`, {
          method: 'POST',
          headers: { authorization: `Bearer ${relay === 'fra' ? FRA : NYC}`, 'content-type': 'application/json' },
          body: JSON.stringify({ results }),
        });
        expect(await res.json()).toMatchObject({ accepted: MONITORS, rejected: [] });
      };
      relayLoop = (async () => {
        while (relaying) {
          await Promise.all([post('fra'), post('nyc')]);
          await sleep(1000);
        }
      })();

      const store = cluster.store;
      const states = async () => (await store.monitors.findByIds(ids)).map((m) => m.state);
      await until('every monitor up', async () => (await states()).every((s) => s === 'up'), 30_000, 200);
      await until('the shards shared out', () => running.balanced(INSTANCES), 30_000, 250);
      const holders = new Map((await cluster.leases()).map((l) => [l.name, l.holder]));
      // Their edge checks run on more than one process (ten random ids over three shares: all three hold one of them
      // only about 95 % of the time, two or more all but once in 20,000).
      expect(new Set(ids.map((id) => holders.get(shardLease(shardOf(id))))).size).toBeGreaterThanOrEqual(2);

      const events = () => hook.requests.map((r) => (r.json as { data: NotificationEvent }).data);
      const channel = await store.channels.findByKey(organizationId, 'hook');
      const deliveries = () => store.deliveries.listByChannel(channel?.id as string, 1000);
      const settled = (count: number) =>
        settledAt(() => hook.requests.length, deliveries, count, 2 * INTERVAL_SEC * 1000);

      // The edge's target goes: one location of three fails. Every monitor stays up for several intervals.
      await edgeLink.close();
      await until(
        'the edge seeing every monitor down',
        async () => (await store.monitors.findByIds(ids)).every((m) => m.locationResults[EDGE_LOCATION]?.ok === false),
        20_000,
        250,
      );
      await sleep(3 * INTERVAL_SEC * 1000);
      expect(await states()).toEqual(ids.map(() => 'up'));
      expect(hook.requests).toHaveLength(0);

      // fra fails too: two of three. Each monitor goes down once, its alert naming both, whichever process judged it.
      relayOk.fra = false;
      await until('every monitor down', async () => (await states()).every((s) => s === 'down'), 20_000, 200);
      await settled(MONITORS);
      const down = events();
      expect(down.map((e) => e.kind)).toEqual(ids.map(() => 'monitor.down'));
      expect(down.map((e) => e.monitor?.key).sort()).toEqual(Object.keys(monitors).sort());
      for (const event of down) expect(event.reason).toMatch(/^down from edge, fra \(2 of 3\)/);

      // Both back: one recovery per monitor.
      relayOk.fra = true;
      await edgeLink.open();
      await until('every monitor up again', async () => (await states()).every((s) => s === 'up'), 20_000, 200);
      await settled(2 * MONITORS);
      expect(
        events()
          .slice(MONITORS)
          .map((e) => e.kind),
      ).toEqual(ids.map(() => 'monitor.recovered'));
    } finally {
      relaying = false;
      await relayLoop.catch(() => {});
      await cluster?.close();
      await Promise.all([edgeLink.close(), hook.close(), targets.close()]);
    }
  });
});
