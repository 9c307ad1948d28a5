// The database and broker monitor types through the API (test runs under the probe-target policy, validation, secrets
// kept from answers) and on a relay agent, against the real servers here (skipped one by one when absent) and the fake
// MongoDB server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import type { MonitorType } from '../../src/domain/monitor-type.js';
import { createLogger } from '../../src/logger.js';
import { startRelayAgent } from '../../src/relay/agent.js';
import { type ApiHarness, openApiHarness, T0 } from '../api-app.js';
import { startHarness } from '../app-harness.js';
import { type MongoFake, startMongoFake } from '../fakes/mongodb-server.js';
import { REAL_SERVICES, serviceAvailable } from '../real-services.js';
import { dialects } from '../store-dialects.js';
import { listStoredChecks } from '../stored-checks.js';

const up = {
  postgres: await serviceAvailable(REAL_SERVICES.postgres),
  mysql: await serviceAvailable(REAL_SERVICES.mariadb),
  redis: await serviceAvailable(REAL_SERVICES.redis),
  mqtt: await serviceAvailable(REAL_SERVICES.mosquitto),
  amqp: await serviceAvailable(REAL_SERVICES.rabbitmq),
  nats: await serviceAvailable(REAL_SERVICES.nats),
};
const MONGO_PASSWORD = 'mongo-Pa55word';
let mongo: MongoFake;
beforeAll(async () => {
  mongo = await startMongoFake({ user: { name: 'monitor', password: MONGO_PASSWORD } });
});
afterAll(() => mongo.close());

/** One passing config per type, against the server on this machine (MongoDB's fake). */
function configs(): Record<string, { type: MonitorType; config: Record<string, unknown>; message: RegExp }> {
  const at = (service: { port: number }) => ({ host: '127.0.0.1', port: service.port });
  const all = {
    postgres: {
      type: 'postgres',
      config: { ...at(REAL_SERVICES.postgres), database: 'test', query: 'SELECT 6 * 7', expected: '42' },
      message: /^SELECT 6 \* 7 → 42$/,
    },
    mysql: {
      type: 'mysql',
      config: { ...at(REAL_SERVICES.mariadb), query: 'SELECT 6 * 7', expected: '42' },
      message: /^SELECT 6 \* 7 → 42$/,
    },
    redis: { type: 'redis', config: { ...at(REAL_SERVICES.redis), expected: 'PONG' }, message: /^PING → PONG$/ },
    mqtt: { type: 'mqtt', config: at(REAL_SERVICES.mosquitto), message: /^connected$/ },
    amqp: {
      type: 'amqp',
      config: { ...at(REAL_SERVICES.rabbitmq), password: 'guest' },
      message: /^logged in as \*\*\* to \/, RabbitMQ/,
    },
    nats: { type: 'nats', config: at(REAL_SERVICES.nats), message: /^connected, NATS / },
    mongodb: {
      type: 'mongodb',
      config: { host: '127.0.0.1', port: mongo.port, username: 'monitor', password: MONGO_PASSWORD },
      message: /^ping → \{"ok":1\}$/,
    },
  } as const;
  return Object.fromEntries(
    Object.entries(all).filter(([type]) => up[type as keyof typeof up] !== false),
  ) as ReturnType<typeof configs>;
}

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`database and broker monitors through the API on ${dialect.name}`, () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await openApiHarness(dialect);
    });
    afterAll(() => h?.close());
    // Probe runs are limited per organization (10 per 5 s): the clock moves on between runs.
    const test = (body: Record<string, unknown>) => {
      h.clock.advance(1000);
      return h.call('POST', '/api/v1/monitors/test', { body: { key: 'probe', name: 'Probe', ...body } });
    };

    it('refuses the servers on loopback under deny, and runs them once the organization may reach them', async () => {
      const asked = mongo.commands.length;
      for (const { type, config } of Object.values(configs())) {
        const refused = await (await test({ type, config })).json();
        expect(refused, type).toMatchObject({
          ok: false,
          error: expect.stringMatching(/^refused: 127\.0\.0\.1 is a loopback address;/),
        });
      }
      expect(mongo.commands.length, 'commands the MongoDB fake received').toBe(asked);
      await h.store.organizations.upsert({ id: h.a.id, key: 'alpha', name: 'Alpha', probePrivateTargets: 'allow' }, T0);
      for (const { type, config, message } of Object.values(configs())) {
        const result = await (await test({ type, config })).json();
        expect(result, type).toMatchObject({ ok: true, message: expect.stringMatching(message) });
      }
    });

    it('keeps a password from the API and from a failing answer', async () => {
      const created = await h.call('POST', '/api/v1/monitors', {
        body: {
          key: 'mongo',
          name: 'Mongo',
          type: 'mongodb',
          config: {
            host: '127.0.0.1',
            port: mongo.port,
            username: 'monitor',
            password: MONGO_PASSWORD,
            command: `{"echo": "${MONGO_PASSWORD}"}`,
            jsonPath: 'echo',
            expected: 'x',
          },
        },
      });
      expect(created.status).toBe(201);
      const monitor = await created.json();
      expect(monitor.config.password).toBe('[redacted]');
      h.clock.advance(5000);
      const checked = await (await h.call('POST', `/api/v1/monitors/${monitor.id}/check`)).json();
      expect(checked).toMatchObject({ ok: false, error: 'expected "x", got "***"' });
      expect(
        JSON.stringify(await (await h.call('GET', `/api/v1/monitors/${monitor.id}/history`)).json()),
      ).not.toContain(MONGO_PASSWORD);
    });

    it('answers 400 naming the field of an invalid config', async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [
          { type: 'postgres', config: { host: 'db.example.com', expected: '1' } },
          'body.config.expected',
          'expected needs a query',
        ],
        [
          { type: 'mysql', config: { host: 'db.example.com', port: 70000 } },
          'body.config.port',
          'expected an integer from 1 to 65535',
        ],
        [
          { type: 'redis', config: { host: 'cache.example.com', command: 'GET "open' } },
          'body.config.command',
          'expected a command and its arguments, "double-quoted" where they hold spaces',
        ],
        [
          { type: 'mongodb', config: { host: 'mongo.example.com', command: 'ping' } },
          'body.config.command',
          'expected a command as a JSON object, e.g. {"ping": 1}',
        ],
        [
          { type: 'mqtt', config: { host: 'broker.example.com', expected: 'on' } },
          'body.config.expected',
          'expected needs a topic',
        ],
        [
          { type: 'amqp', config: { host: 'mq.example.com', maxMessages: 5 } },
          'body.config.queue',
          'maxMessages and minConsumers need a queue',
        ],
        [
          { type: 'nats', config: { host: 'nats.example.com', subject: 'a.*' } },
          'body.config.subject',
          'expected a subject without blanks or wildcards, e.g. health.check',
        ],
      ];
      for (const [body, path, message] of cases) {
        const res = await h.call('POST', '/api/v1/monitors', { body: { key: 'bad', name: 'Bad', ...body } });
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect((await res.json()).errors[0]).toMatchObject({ path, message });
      }
    });
  });

  describe.skipIf(!dialect.available)(`database and broker monitors on a relay agent, on ${dialect.name}`, () => {
    const TOKEN = 'wdr_databaseRelayToken01234567';
    it('probes them from the relay and the server stores the results', async () => {
      const h = await startHarness(
        dialect,
        `organization: { key: acme, name: Acme }\nrelays: [{ key: lab, name: Lab, token: ${TOKEN} }]\n`,
        Date.now(),
      );
      const dataDir = mkdtempSync(join(tmpdir(), 'warden-relay-databases-'));
      const relay = await h.opened.store.relays.findByKey(h.organizationId, 'lab');
      const ids: Record<string, string> = {};
      for (const [key, { type, config }] of Object.entries(configs())) {
        ids[key] = newId('mon');
        // One-second intervals (below the API's minimum, so inserted directly) to see results within seconds.
        await h.opened.store.monitors.insert(
          {
            id: ids[key] as string,
            organizationId: h.organizationId,
            key,
            name: key,
            type,
            config,
            intervalSec: 1,
            timeoutMs: 3000,
            runOn: 'relay',
            relayId: relay?.id ?? null,
            enabled: true,
            retries: 0,
            degradedLatencyMs: null,
            managedBy: 'api',
            pushToken: null,
          },
          Date.now(),
        );
      }
      const agent = await startRelayAgent({
        url: 'http://warden.test',
        token: TOKEN,
        dataDir,
        logger: createLogger('warn', new Writable({ write: (_chunk, _e, done) => done() })),
        fetch: async (input, init) => {
          h.clock.set(Date.now());
          return h.app.request(String(input), init as RequestInit);
        },
        submitEveryMs: 100,
        configEveryMs: 200,
      });
      try {
        await vi.waitFor(
          async () => {
            const checks = await listStoredChecks(h.opened.store);
            for (const id of Object.values(ids)) expect(checks.some((c) => c.monitorId === id)).toBe(true);
          },
          { timeout: 10_000, interval: 100 },
        );
        const checks = await listStoredChecks(h.opened.store);
        for (const [key, { message }] of Object.entries(configs())) {
          const latest = checks.find((c) => c.monitorId === ids[key]);
          expect(latest, key).toMatchObject({ ok: true, source: 'relay', message: expect.stringMatching(message) });
        }
      } finally {
        await agent.stop();
        await h.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
}
