// A network partition between one process and PostgreSQL: two real `warden serve` processes, b reaching PostgreSQL
// through a proxy we close. Cut off, b can renew no lease: it stops checking before its leases lapse, a takes them over
// and resumes b's monitors, and no monitor is checked by both; b answers /readyz with 503 meanwhile. Healed, b takes
// its share back, again without a duplicate. Leases of 3 s (WARDEN_LEASE_TTL_MS) keep it short: the rules scale with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardOf } from '../../src/domain/cluster.js';
import type { Monitor } from '../../src/domain/monitor.js';
import {
  Cluster,
  cadence,
  clusterAvailable,
  describeCadence,
  sleep,
  startTcpTargets,
  until,
} from '../cluster-harness.js';
import { seed } from '../seed.js';
import { scaled } from '../time-scale.js';

const MONITORS = 60;
/** Below warden.yaml's 10 s minimum, set directly: a few intervals fit in the partition. */
const INTERVAL_SEC = 4;
const INTERVAL_MS = INTERVAL_SEC * 1000;
const TTL_MS = 3000;
/** b's monitors run on a within: the lease's lapse, a's next round, the overdue spread (a sixth of the interval), and room for a loaded machine. */
const TAKEOVER_MS = TTL_MS + 7000;
const PARTITION_MS = 8000;

describe.skipIf(!clusterAvailable)('a process cut off from PostgreSQL', () => {
  let cluster: Cluster;
  let targets: Awaited<ReturnType<typeof startTcpTargets>>;
  let ids: string[] = [];

  beforeAll(async () => {
    targets = await startTcpTargets(2);
    const lines = ['organization: { key: acme, name: Acme }', 'monitors:'];
    for (let i = 0; i < MONITORS; i++)
      lines.push(
        `  - { key: tcp-${i}, name: TCP ${i}, type: tcp, timeoutMs: 1000, config: { host: 127.0.0.1, port: ${targets.ports[i % 2]} } }`,
      );
    cluster = await Cluster.start({
      instances: ['a', 'b'],
      postgresProxies: ['b'],
      env: { WARDEN_LEASE_TTL_MS: String(TTL_MS) },
      seed: async (store) => {
        const { monitors } = await seed(store, lines.join('\n'), Date.now());
        for (const monitor of Object.values(monitors) as Monitor[])
          await store.monitors.updateSpec(
            monitor.id,
            { ...monitor, intervalSec: INTERVAL_SEC },
            monitor.managedBy,
            Date.now(),
          );
        ids = Object.values(monitors).map((m) => m.id);
      },
    });
  }, scaled(60_000));

  afterAll(async () => {
    await cluster?.close();
    await targets?.close();
  });

  it('stops checking before its leases lapse, the other takes its monitors over, and none is checked twice', {
    timeout: scaled(60_000),
  }, async () => {
    const readyz = async (id: string) => (await fetch(`${cluster.url(id)}/readyz`)).status;
    await until('the shards shared out', () => cluster.balanced(['a', 'b']), 20_000);
    const settledAt = Date.now();
    // One interval of steady state: every monitor checked once, on one process or the other.
    await sleep(INTERVAL_MS);

    const leases = await cluster.leases();
    const shards = new Set(
      leases.filter((l) => l.holder === 'b' && l.name.startsWith('shard:')).map((l) => Number(l.name.slice(6))),
    );
    const heldByB = ids.filter((id) => shards.has(shardOf(id)));
    expect(heldByB.length).toBeGreaterThan(0);

    await cluster.postgresProxy('b').close();
    const cutAt = Date.now();
    // b cannot reach its database: not ready, so a load balancer sends its requests to a.
    await until('b not ready', async () => (await readyz('b')) === 503, 5000);
    expect(await readyz('a')).toBe(200);
    // a runs b's monitors once their leases lapse (nothing b checked from now on can be stored).
    const resumed = await until(
      "a running b's monitors",
      async () => {
        const times = await cluster.checkTimes(heldByB);
        const first = heldByB.map((id) => (times.get(id) ?? []).find((t) => t > cutAt));
        return first.every((t) => t !== undefined) ? Math.max(...(first as number[])) - cutAt : null;
      },
      TAKEOVER_MS + 5000,
      250,
    );
    expect(resumed).toBeLessThanOrEqual(TAKEOVER_MS);
    expect(cluster.member('b').log()).toContain('leases could not be renewed in time; this instance stops their work');
    await sleep(Math.max(0, cutAt + PARTITION_MS - Date.now()));

    await cluster.postgresProxy('b').open();
    const healedAt = Date.now();
    await until('b ready again', async () => (await readyz('b')) === 200, 10_000);
    await until('b holding its share again', () => cluster.balanced(['a', 'b']), 15_000);
    // One more interval, so the monitors b took back have been checked from b.
    await sleep(INTERVAL_MS + 1000);

    const report = cadence(await cluster.checkTimes(ids), {
      intervalMs: INTERVAL_MS,
      from: settledAt,
      to: Date.now() - 500,
      slackMs: 1000,
      excused: [{ from: cutAt - INTERVAL_MS, to: cutAt + TAKEOVER_MS, monitors: new Set(heldByB) }],
    });
    const times = await cluster.checkTimes(ids);
    const rel = (t: number) => `${((t - cutAt) / 1000).toFixed(2)}`;
    const doubled = report.duplicates.map(
      (d) =>
        `${d.monitorId}${heldByB.includes(d.monitorId) ? ' (b)' : ''}: ${(times.get(d.monitorId) ?? []).map(rel).join(' ')}`,
    );
    const account = `${describeCadence(report)}\ncut at +${((cutAt - settledAt) / 1000).toFixed(1)} s, b's monitors on a within ${resumed} ms, healed at +${((healedAt - settledAt) / 1000).toFixed(1)} s\n${doubled.join('\n')}`;
    expect(report.monitors, account).toBe(MONITORS);
    // Two processes never ran one monitor: not while b was cut off, not when it came back (its unstored results stay unstored).
    expect(report.duplicates, account).toEqual([]);
    expect(report.missed, account).toEqual([]);
  });
});
