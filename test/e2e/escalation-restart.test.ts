// Escalation across a kill -9, with a real `warden serve` process (dist/bundle) on SQLite and on PostgreSQL: two
// monitors go down, step 1 reaches `first` for both, one alert is acknowledged through the API, and the process is
// SIGKILLed before step 2 is due. It stays dead while step 2 comes due; restarted on the same database, it delivers
// step 2 to `second` exactly once, for the unacknowledged alert only — and a second kill -9 and restart repeat
// nothing. Back up, each recovery reaches every channel its alert's steps reached.
import { describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/services/api-keys/create.js';
import { type ServerProcess, startServer } from '../cli-process.js';
import { startReceiver } from '../fakes/notify-receivers.js';
import { testContext } from '../seed.js';
import { dialects } from '../store-dialects.js';
import { sleep, until } from '../until.js';
import { closeServer, heard, listenOn, portOf, STEP2_MS, seedEscalation, summary } from './escalation-fixtures.js';

describe.concurrent('escalation across a kill -9 (real server process)', () => {
  for (const dialect of dialects)
    it.skipIf(!dialect.available)(
      `delivers step 2 once after the restart, none for the acknowledged alert (${dialect.name})`,
      async () => {
        const receiver = await startReceiver({ status: 204 });
        const ports = { lobby: await listenOn(0), arena: await listenOn(0) };
        const numbers = { lobby: portOf(ports.lobby), arena: portOf(ports.arena) };
        const opened = await dialect.open();
        let server: ServerProcess | null = null;
        try {
          const { organizationId, monitors } = await seedEscalation(opened.store, numbers, receiver.url);
          const ctx = { ...testContext(opened.store, { now: Date.now }), organizationId };
          const key = (await createApiKey(ctx, { name: 'on call', scope: 'write' })).secret;
          const start = () =>
            startServer([], { ...opened.env, WARDEN_PROBE_PRIVATE_TARGETS: 'allow', LOG_LEVEL: 'info' });
          const api = async (method: string, path: string, body?: object) => {
            const res = await fetch(`${server?.url}${path}`, {
              method,
              headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
              ...(body ? { body: JSON.stringify(body) } : {}),
            });
            expect(res.status, `${method} ${path}`).toBe(200);
            return res.json();
          };
          const states = async () =>
            Promise.all(Object.values(monitors).map(async (m) => (await opened.store.monitors.findById(m.id))?.state));

          server = await start();
          await until('both monitors up', async () => (await states()).every((s) => s === 'up'), 20_000);
          await Promise.all([closeServer(ports.lobby), closeServer(ports.arena)]);
          await until(
            'step 1 for both',
            () => heard(receiver).filter((m) => m.channel === 'first').length === 2,
            20_000,
          );
          const { alerts } = (await api('GET', '/api/v1/alerts')) as {
            alerts: { id: string; openedAt: number; monitor: { key: string } }[];
          };
          const alertOf = (key: string) => alerts.find((a) => a.monitor.key === key) as (typeof alerts)[number];
          await api('POST', `/api/v1/alerts/${alertOf('arena').id}/acknowledge`, { note: 'on it' });
          const dueAt = alertOf('lobby').openedAt + STEP2_MS;

          // kill -9 before step 2 is due; dead while it comes due.
          expect(Date.now(), 'the kill lands before step 2 is due').toBeLessThan(dueAt - 1000);
          await server.stop('SIGKILL');
          server = null;
          expect(heard(receiver).filter((m) => m.channel === 'second')).toEqual([]);
          await sleep(Math.max(0, dueAt + 500 - Date.now()));

          server = await start();
          await until('step 2', () => heard(receiver).some((m) => m.channel === 'second'), 15_000);
          // Killed and restarted again: its first pass finds step 2 recorded and sends nothing more.
          await sleep(1500);
          await server.stop('SIGKILL');
          server = await start();
          await sleep(3000);
          expect(summary(heard(receiver))).toEqual([
            'first: arena monitor.down step 1',
            'first: lobby monitor.down step 1',
            'second: lobby monitor.down step 2',
          ]);
          const after = (await api('GET', '/api/v1/alerts')) as {
            alerts: { monitor: { key: string }; escalation: { stepsSent: number }; acknowledged: unknown }[];
          };
          expect(
            after.alerts.map((a) => [a.monitor.key, a.escalation.stepsSent, a.acknowledged !== null]).sort(),
          ).toEqual([
            ['arena', 1, true],
            ['lobby', 2, false],
          ]);

          // Back up: the recovery closes each alert at every channel its steps reached, once.
          ports.lobby = await listenOn(numbers.lobby);
          ports.arena = await listenOn(numbers.arena);
          await until('the recoveries', () => heard(receiver).length === 6, 20_000);
          await sleep(1000);
          const messages = heard(receiver);
          expect(summary(messages.slice(3))).toEqual([
            'first: arena monitor.recovered',
            'first: lobby monitor.recovered',
            'second: lobby monitor.recovered',
          ]);
          // Each message once per channel (a webhook-id names the event; one event may go to both channels).
          expect(new Set(messages.map((m) => `${m.channel} ${m.webhookId}`)).size).toBe(messages.length);
        } finally {
          await server?.stop('SIGKILL');
          for (const port of Object.values(ports)) if (port.listening) await closeServer(port);
          await receiver.close();
          await opened.cleanup();
        }
      },
      60_000,
    );
});
