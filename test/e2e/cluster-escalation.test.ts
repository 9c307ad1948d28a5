// Escalation in a cluster: two real `warden serve` processes on one PostgreSQL schema and Redis (cluster-harness.ts),
// both running the escalation scan. A monitor goes down: step 1 reaches `first`, step 2 reaches `second` once it is
// due, each exactly once though both processes scan; back up, the recovery reaches both channels, once each.
// Skipped (visibly) without PostgreSQL and Redis.
import { describe, expect, it } from 'vitest';
import { ESCALATION_EVERY_MS, ESCALATION_FIRST_AFTER_MS } from '../../src/runner/escalation.js';
import { Cluster, clusterAvailable, sleep, until } from '../cluster-harness.js';
import { startReceiver } from '../fakes/notify-receivers.js';
import { scaled } from '../time-scale.js';
import { closeServer, heard, listenOn, portOf, STEP2_MS, seedEscalation, summary } from './escalation-fixtures.js';

/** Between a process's start as the test sees it and its scan's timer: a margin for a loaded machine. */
const MARGIN_MS = 2_000;

describe.skipIf(!clusterAvailable)('escalation in a two-process cluster', () => {
  it('delivers each step exactly once, and the recovery to every channel a step reached once', {
    timeout: scaled(60_000),
  }, async () => {
    const receiver = await startReceiver({ status: 204 });
    let port = await listenOn(0);
    const number = portOf(port);
    let cluster: Cluster | null = null;
    try {
      let monitorId = '';
      cluster = await Cluster.start({
        instances: ['a', 'b'],
        seed: async (store) => {
          const { monitors } = await seedEscalation(store, { gate: number }, receiver.url);
          monitorId = monitors.gate?.id ?? '';
        },
      });
      const store = cluster.store;
      await until('the monitor up', async () => (await store.monitors.findById(monitorId))?.state === 'up', 30_000);
      await closeServer(port);
      await until('step 1', () => heard(receiver).some((m) => m.channel === 'first'), 20_000);
      const [alert] = await store.alerts.openOf([monitorId]);
      if (!alert) throw new Error('no open alert');
      const dueAt = alert.openedAt + STEP2_MS;
      await until('step 2', () => heard(receiver).some((m) => m.channel === 'second'), STEP2_MS + 20_000);
      // Both processes have scanned since step 2 came due: each a second after its start, then every 15 s.
      const passedBoth = Math.max(
        ...['a', 'b'].map((id) => {
          const first = (cluster?.startedAt.get(id) ?? 0) + ESCALATION_FIRST_AFTER_MS;
          return first + Math.max(0, Math.ceil((dueAt - first) / ESCALATION_EVERY_MS)) * ESCALATION_EVERY_MS;
        }),
      );
      await sleep(Math.max(0, passedBoth + MARGIN_MS - Date.now()));
      expect(summary(heard(receiver))).toEqual(['first: gate monitor.down step 1', 'second: gate monitor.down step 2']);
      expect((await store.alerts.findById(alert.id))?.stepsSent).toBe(2);

      port = await listenOn(number);
      await until('the recoveries', () => heard(receiver).length === 4, 20_000);
      await sleep(1000);
      const messages = heard(receiver);
      expect(summary(messages.slice(2))).toEqual(['first: gate monitor.recovered', 'second: gate monitor.recovered']);
      // Each message once per channel (a webhook-id names the event; one event may go to both channels).
      expect(new Set(messages.map((m) => `${m.channel} ${m.webhookId}`)).size).toBe(4);
    } finally {
      await cluster?.close();
      if (port.listening) await closeServer(port);
      await receiver.close();
    }
  });
});
