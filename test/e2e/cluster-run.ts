// The cluster end-to-end test's run (cluster.test.ts): three `warden serve` processes on one PostgreSQL schema and Redis
// (through a proxy the test can close), seeded with cluster-fixtures.ts's world, local TCP targets, a fake Discord that
// records when each request arrived, and the alerting monitor up then its port closed, so that its "down" is on its way
// when the tests start. What the tests read of it, and what they add to its timeline, is on the returned object.
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll } from 'vitest';
import type { Monitor } from '../../src/domain/monitor.js';
import { createApiKey } from '../../src/services/api-keys/create.js';
import { Cluster, startTcpTargets, until } from '../cluster-harness.js';
import { type Receiver, startReceiver } from '../fakes/notify-receivers.js';
import { seed, testContext } from '../seed.js';
import { scaled } from '../time-scale.js';
import { ALERT_INTERVAL_SEC, config, PUSH_TOKEN } from './cluster-fixtures.js';

export interface ClusterRun {
  cluster: Cluster;
  monitors: Record<string, Monitor>;
  /** The 300 TCP monitors. */
  tcpIds: string[];
  apiKey: string;
  /** When all three were serving: the exactly-once window opens here. */
  allUpAt: number;
  /**
   * When the shards first settled (each process holding its share): a monitor new to the cluster is first checked
   * within an interval of it (until then shards move, and one not checked yet starts its first interval again where it
   * lands).
   */
  settledAt: number;
  /** What happened when, for the account of the final test. */
  timeline: [string, number][];
  /** A heartbeat with this message, pushed to a process: its status code. */
  push(id: string, message: string): Promise<number>;
  /** The "Alerting is down" messages the fake Discord received, with when each arrived. */
  alertsDown(): { json: unknown; raw: string; at: number }[];
}

/** Called inside the describe: the cluster started before its tests, closed after them. */
export function clusterRun(): ClusterRun {
  let targets: Awaited<ReturnType<typeof startTcpTargets>>;
  let alertTarget: Server;
  let discord: Receiver;
  /** When each request reached the fake Discord, in the order of its `requests`. */
  const arrivals: number[] = [];
  const run: ClusterRun = {
    cluster: undefined as unknown as Cluster,
    monitors: {},
    tcpIds: [],
    apiKey: '',
    allUpAt: 0,
    settledAt: 0,
    timeline: [],
    push: (id, message) =>
      fetch(`${run.cluster.url(id)}/api/push/${PUSH_TOKEN}?status=up&msg=${encodeURIComponent(message)}`).then(
        (r) => r.status,
      ),
    alertsDown: () =>
      discord.requests
        .map((r, i) => ({ ...r, at: arrivals[i] ?? 0 }))
        .filter((r) => (r.json as { embeds?: { title: string }[] })?.embeds?.[0]?.title === 'Alerting is down'),
  };

  beforeAll(async () => {
    targets = await startTcpTargets(4);
    alertTarget = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => alertTarget.listen(0, '127.0.0.1', resolve));
    discord = await startReceiver((res) => {
      arrivals.push(Date.now());
      res.writeHead(204);
      res.end();
    });
    run.cluster = await Cluster.start({
      instances: ['a', 'b', 'c'],
      redisProxy: true,
      seed: async (store) => {
        const seeded = await seed(
          store,
          config(targets.ports, (alertTarget.address() as { port: number }).port, discord.url),
          Date.now(),
        );
        run.monitors = seeded.monitors;
        // Two-second checks for the monitor that goes down (below warden.yaml's 10 s minimum, so set directly).
        const alerting = run.monitors.alerting as Monitor;
        await store.monitors.updateSpec(
          alerting.id,
          { ...alerting, intervalSec: ALERT_INTERVAL_SEC },
          alerting.managedBy,
          Date.now(),
        );
        const ctx = { ...testContext(store, { now: Date.now }), organizationId: seeded.report.organization.id };
        run.apiKey = (await createApiKey(ctx, { name: 'cluster test', scope: 'write' })).secret;
      },
    });
    run.allUpAt = Date.now();
    void until(
      'the shards shared out',
      async () => {
        if (!run.settledAt && (await run.cluster.balanced(['a', 'b', 'c']))) run.settledAt = Date.now();
        return run.settledAt;
      },
      60_000,
      250,
    ).catch(() => {});
    run.tcpIds = Object.values(run.monitors)
      .filter((m) => m.key.startsWith('tcp-'))
      .map((m) => m.id);
    // The alerting monitor comes up, then its port closes: a "down" for the channel, which must be sent once.
    await until(
      'the alerting monitor up',
      async () => (await run.cluster.store.monitors.findById((run.monitors.alerting as Monitor).id))?.state === 'up',
      15_000,
    );
    await new Promise((resolve) => alertTarget.close(resolve));
  }, scaled(60_000));

  afterAll(async () => {
    await run.cluster?.close();
    await targets?.close();
    await discord?.close();
    if (alertTarget?.listening) await new Promise((resolve) => alertTarget.close(resolve));
  });

  return run;
}
