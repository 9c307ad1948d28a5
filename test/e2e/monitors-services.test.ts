// The service monitor types (ssh, udp, websocket, smtp, imap, pop3, grpc, docker) through the API — test runs under
// the probe-target policy, field errors, the type list — and on a relay agent, against their fakes on 127.0.0.1.
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
import { type DockerEngineFake, runningState, startDockerEngineFake } from '../fakes/docker-engine.js';
import { type GrpcFake, startGrpcServer } from '../fakes/grpc-server.js';
import {
  dovecotPop3,
  type ScriptedTcpServer,
  startLineServer,
  startScriptedTcp,
  startUdpResponder,
  type UdpResponder,
} from '../fakes/service-servers.js';
import { startWsFake, type WsFake } from '../fakes/ws-server.js';
import { dialects } from '../store-dialects.js';
import { listStoredChecks } from '../stored-checks.js';

let ssh: ScriptedTcpServer;
let udp: UdpResponder;
let ws: WsFake;
let pop3: ScriptedTcpServer;
let grpc: GrpcFake;
let docker: DockerEngineFake;
beforeAll(async () => {
  ssh = await startScriptedTcp((socket) => socket.write('SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13.5\r\n'));
  udp = await startUdpResponder((datagram) => [Buffer.concat([Buffer.from('PONG '), datagram])]);
  ws = await startWsFake((socket) => socket.on('message', (data) => socket.send(`echo: ${data}`)));
  pop3 = await startLineServer(dovecotPop3());
  grpc = await startGrpcServer({ '': 'SERVING' });
  docker = await startDockerEngineFake([
    { name: 'web', id: 'f'.repeat(64), state: runningState({ Status: 'healthy' }) },
  ]);
});
afterAll(async () => {
  for (const fake of [ssh, udp, ws, pop3, grpc, docker]) await fake?.close();
});

/** One config of each type aimed at its fake, and what its test run says once the target is allowed. */
const configs = (): [MonitorType, Record<string, unknown>, RegExp][] => [
  ['ssh', { host: '127.0.0.1', port: ssh.port, expect: 'OpenSSH' }, /^SSH-2\.0-OpenSSH_9\.6p1/],
  ['udp', { host: '127.0.0.1', port: udp.port, payload: 'ping', expect: 'PONG' }, /: "PONG ping"$/],
  ['websocket', { url: ws.url, message: 'hi', expect: 'echo: hi' }, /^answered in \d+ ms/],
  ['pop3', { host: '127.0.0.1', port: pop3.port, security: 'none' }, /^\+OK Dovecot \(Ubuntu\) ready\.$/],
  ['grpc', { host: '127.0.0.1', port: grpc.port }, /^SERVING in \d+ ms$/],
  ['docker', { dockerHost: docker.dockerHost, container: 'web' }, /^running since .*, healthy$/],
];

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`the service monitor types through the API on ${dialect.name}`, () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await openApiHarness(dialect);
    });
    afterAll(() => h?.close());
    const test = (type: string, config: Record<string, unknown>) =>
      h.call('POST', '/api/v1/monitors/test', { body: { key: 'probe', name: 'Probe', type, config } });

    it('refuses their loopback targets and the Docker socket under deny, reaching none of them', async () => {
      const reached = () => [ssh.connections(), udp.datagrams().length, pop3.connections(), docker.requests.length];
      const before = reached();
      for (const [type, config] of configs()) {
        const res = await test(type, config);
        expect(res.status).toBe(200);
        const refusal =
          type === 'docker'
            ? /^refused: \S+docker\.sock is a unix socket on this machine, not a public address;/
            : /^refused: 127\.0\.0\.1 is a loopback address;/;
        expect(await res.json(), type).toMatchObject({ ok: false, error: expect.stringMatching(refusal) });
      }
      expect(reached()).toEqual(before);
    });

    it('runs them where the organization may reach private targets', async () => {
      await h.store.organizations.upsert({ id: h.a.id, key: 'alpha', name: 'Alpha', probePrivateTargets: 'allow' }, T0);
      // Past the window of the runs above: an organization may make 10 probe runs per 5 s.
      h.clock.advance(6000);
      for (const [type, config, message] of configs()) {
        expect(await (await test(type, config)).json(), type).toMatchObject({
          ok: true,
          message: expect.stringMatching(message),
        });
      }
    });

    it('answers 400 naming the field of an invalid config', async () => {
      const cases: [string, Record<string, unknown>, string, string][] = [
        [
          'udp',
          { host: '127.0.0.1', port: 53, payload: 'abc', encoding: 'hex' },
          'body.config.payload',
          'expected pairs of hex digits',
        ],
        ['websocket', { url: 'https://example.com/live' }, 'body.config.url', 'expected a ws:// or wss:// URL'],
        [
          'docker',
          { dockerHost: 'ssh://root@example.com', container: 'web' },
          'body.config.dockerHost',
          'expected unix:///path/to/docker.sock, tcp://host:port, http://host:port or https://host:port',
        ],
        [
          'smtp',
          { host: 'mx.example.com', certExpiryDays: 400 },
          'body.config.certExpiryDays',
          'expected a whole number of days from 0 to 365',
        ],
        ['ssh', { host: 'example.com', port: 0 }, 'body.config.port', 'expected an integer from 1 to 65535'],
      ];
      for (const [type, config, path, message] of cases) {
        const res = await h.call('POST', '/api/v1/monitors', { body: { key: 'bad', name: 'Bad', type, config } });
        expect(res.status, type).toBe(400);
        expect((await res.json()).errors[0], type).toMatchObject({ path, message });
      }
    });

    it('lists the types with their defaults', async () => {
      const { types } = await (await h.call('GET', '/api/v1/monitor-types', { key: h.a.readKey })).json();
      const byId = new Map(types.map((t: { id: string }) => [t.id, t]));
      for (const id of ['ssh', 'udp', 'websocket', 'smtp', 'imap', 'pop3', 'grpc', 'docker'])
        expect(byId.get(id), id).toMatchObject({ runsOn: ['edge', 'relay'], probed: true });
      expect(
        (byId.get('smtp') as { config: { properties: { security: { default: string } } } }).config.properties.security
          .default,
      ).toBe('starttls');
      expect(
        (byId.get('docker') as { config: { properties: { dockerHost: { default: string } } } }).config.properties
          .dockerHost.default,
      ).toBe('unix:///var/run/docker.sock');
    });
  });

  describe.skipIf(!dialect.available)(`the service monitor types on a relay agent, on ${dialect.name}`, () => {
    const TOKEN = 'wdr_serviceTypesRelayToken0123';
    it('probes them from the relay, the Docker socket included, and the server stores the results', async () => {
      const h = await startHarness(
        dialect,
        `organization: { key: acme, name: Acme }\nrelays: [{ key: lab, name: Lab, token: ${TOKEN} }]\n`,
        Date.now(),
      );
      const dataDir = mkdtempSync(join(tmpdir(), 'warden-relay-services-'));
      const relay = await h.opened.store.relays.findByKey(h.organizationId, 'lab');
      const ids = new Map<MonitorType, string>();
      for (const [type, config] of configs()) {
        const id = newId('mon');
        ids.set(type, id);
        // One-second intervals (below the API's minimum, so inserted directly) to see results within seconds.
        await h.opened.store.monitors.insert(
          {
            id,
            organizationId: h.organizationId,
            key: type,
            name: type,
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
            for (const id of ids.values()) expect(checks.some((c) => c.monitorId === id)).toBe(true);
          },
          { timeout: 10_000, interval: 100 },
        );
        const checks = await listStoredChecks(h.opened.store);
        for (const [type, id] of ids)
          expect(
            checks.find((c) => c.monitorId === id),
            type,
          ).toMatchObject({ ok: true, source: 'relay' });
        expect(checks.find((c) => c.monitorId === ids.get('docker'))).toMatchObject({
          data: { container: 'web', health: 'healthy' },
        });
      } finally {
        await agent.stop();
        await h.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
}
