// Ping and domain-expiry monitors through the API (test runs, checks, validation, the probe-target policy), on a relay
// agent, and the RDAP bootstrap file a server and a relay read at start-up.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import type { MonitorType } from '../../src/domain/monitor-type.js';
import { createLogger } from '../../src/logger.js';
import { lookupHost } from '../../src/net/socket-exchange.js';
import { ANY_TARGET } from '../../src/net/target-guard.js';
import { runPing } from '../../src/probes/ping-command.js';
import { startRelayAgent } from '../../src/relay/agent.js';
import { type ApiHarness, openApiHarness, T0 } from '../api-app.js';
import { startHarness } from '../app-harness.js';
import { runCli, startServer } from '../cli-process.js';
import { type FakeRdap, inDays, startRdapServer } from '../fakes/rdap-server.js';
import { dialects } from '../store-dialects.js';
import { listStoredChecks } from '../stored-checks.js';

/** Why real ICMP cannot run on this machine, or undefined when it can (its cases then check what the host says). */
async function icmpUnavailable(): Promise<string | undefined> {
  const target = await lookupHost('127.0.0.1', {
    signal: AbortSignal.timeout(2000),
    timeoutMs: 2000,
    guard: ANY_TARGET,
  });
  if (!('address' in target)) return target.error;
  const run = await runPing({ target, count: 1, intervalMs: 500, waitSec: 1, signal: AbortSignal.timeout(3000) });
  return run === 'aborted' ? 'ping did not answer within 3 s' : run.ok ? undefined : run.error;
}

let listener: Server;
let port: number;
let rdap: FakeRdap;
let noIcmp: string | undefined;
beforeAll(async () => {
  listener = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  port = (listener.address() as AddressInfo).port;
  rdap = await startRdapServer({ 'near.test': { expiresAt: inDays(10) }, 'far.test': { expiresAt: inDays(300) } });
  noIcmp = await icmpUnavailable();
  if (noIcmp)
    console.warn(
      `monitors-ping-domain.test.ts: real ICMP is not possible here; ICMP cases check the host's refusal instead: ${noIcmp}`,
    );
});
afterAll(async () => {
  await new Promise((resolve) => listener.close(resolve));
  await rdap.close();
});

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`ping and domain-expiry monitors through the API on ${dialect.name}`, () => {
    let h: ApiHarness;
    beforeAll(async () => {
      h = await openApiHarness(dialect);
    });
    afterAll(() => h?.close());
    const test = (body: Record<string, unknown>) =>
      h.call('POST', '/api/v1/monitors/test', { body: { key: 'probe', name: 'Probe', ...body } });

    it('refuses loopback targets under deny, pinging nothing and asking no RDAP server', async () => {
      const asked = rdap.requests.length;
      for (const body of [
        { type: 'ping', config: { host: '127.0.0.1' } },
        { type: 'ping', config: { host: 'localhost', mode: 'tcp', port } },
        { type: 'domain-expiry', config: { domain: 'near.test', rdapUrl: rdap.base } },
      ]) {
        const res = await test(body);
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({
          ok: false,
          error: expect.stringMatching(/^refused: (127\.0\.0\.1|::1) is a loopback address;/),
        });
      }
      expect(rdap.requests.length).toBe(asked);
    });

    it('runs them once where the organization may reach the target', async () => {
      await h.store.organizations.upsert({ id: h.a.id, key: 'alpha', name: 'Alpha', probePrivateTargets: 'allow' }, T0);
      const tcp = await (await test({ type: 'ping', config: { host: '127.0.0.1', mode: 'tcp', port } })).json();
      expect(tcp).toMatchObject({
        ok: true,
        degraded: false,
        message: expect.stringMatching(/^3\/3 answered, [\d.]+ ms average/),
      });
      const domain = await (
        await test({ type: 'domain-expiry', config: { domain: 'near.test', rdapUrl: rdap.base } })
      ).json();
      expect(domain).toMatchObject({
        ok: true,
        degraded: true,
        message: expect.stringMatching(/^near\.test expires in 10 days/),
      });
      const icmp = await (await test({ type: 'ping', config: { host: '127.0.0.1', count: 2 } })).json();
      if (noIcmp) expect(icmp).toMatchObject({ ok: false, error: expect.stringMatching(/ICMP|ping/) });
      else expect(icmp).toMatchObject({ ok: true, message: expect.stringMatching(/^2\/2 answered/) });
    });

    it('answers 400 naming the field of an invalid config', async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [{ type: 'ping', config: { host: '127.0.0.1', mode: 'tcp' } }, 'body.config.port', 'tcp mode needs a port'],
        [
          { type: 'ping', config: { host: '127.0.0.1', count: 0 } },
          'body.config.count',
          'expected a whole number of pings from 1 to 10',
        ],
        [
          { type: 'domain-expiry', config: { domain: '192.0.2.1' } },
          'body.config.domain',
          'expected a registered domain name such as example.com',
        ],
        [
          { type: 'http', config: { url: 'https://example.com', domainExpiryDays: 400 } },
          'body.config.domainExpiryDays',
          'expected a whole number of days from 0 to 365',
        ],
      ];
      for (const [body, path, message] of cases) {
        const res = await h.call('POST', '/api/v1/monitors', { body: { key: 'bad', name: 'Bad', ...body } });
        expect(res.status).toBe(400);
        expect(res.headers.get('content-type')).toContain('application/problem+json');
        expect((await res.json()).errors[0]).toMatchObject({ path, message });
      }
    });

    it('stores a check of a domain-expiry monitor with its expiry, the monitor degraded', async () => {
      const created = await h.call('POST', '/api/v1/monitors', {
        body: {
          key: 'registration',
          name: 'Registration',
          type: 'domain-expiry',
          intervalSec: 3600,
          config: { domain: 'near.test', rdapUrl: rdap.base },
        },
      });
      expect(created.status).toBe(201);
      const monitor = await created.json();
      expect(monitor.config).toEqual({ domain: 'near.test', rdapUrl: rdap.base, warnDays: 30 });
      const checked = await (await h.call('POST', `/api/v1/monitors/${monitor.id}/check`)).json();
      expect(checked).toMatchObject({ ok: true, state: 'degraded' });
      const history = await (await h.call('GET', `/api/v1/monitors/${monitor.id}/history`)).json();
      expect(history.checks[0]).toMatchObject({
        ok: true,
        source: 'edge',
        data: { domain: 'near.test', domainDaysRemaining: 10 },
      });
    });

    it('lists both types with their defaults', async () => {
      const { types } = await (await h.call('GET', '/api/v1/monitor-types', { key: h.a.readKey })).json();
      const ping = types.find((t: { id: string }) => t.id === 'ping');
      expect(ping).toMatchObject({ runsOn: ['edge', 'relay'], probed: true, config: { required: ['host'] } });
      expect(ping.config.properties.count.default).toBe(3);
      const domain = types.find((t: { id: string }) => t.id === 'domain-expiry');
      expect(domain).toMatchObject({ runsOn: ['edge', 'relay'], config: { required: ['domain'] } });
      expect(domain.config.properties.warnDays.default).toBe(30);
    });
  });

  describe.skipIf(!dialect.available)(`ping and domain-expiry monitors on a relay agent, on ${dialect.name}`, () => {
    const TOKEN = 'wdr_pingDomainRelayToken012345';
    it('probes them from the relay and the server stores the results', async () => {
      const h = await startHarness(
        dialect,
        `organization: { key: acme, name: Acme }\nrelays: [{ key: lab, name: Lab, token: ${TOKEN} }]\n`,
        Date.now(),
      );
      const dataDir = mkdtempSync(join(tmpdir(), 'warden-relay-ping-'));
      const relay = await h.opened.store.relays.findByKey(h.organizationId, 'lab');
      const monitors: Record<string, { type: MonitorType; config: Record<string, unknown> }> = {
        tcp: { type: 'ping', config: { host: '127.0.0.1', mode: 'tcp', port, count: 2 } },
        icmp: { type: 'ping', config: { host: '127.0.0.1', count: 1 } },
        registration: { type: 'domain-expiry', config: { domain: 'far.test', rdapUrl: rdap.base } },
      };
      const ids: Record<string, string> = {};
      for (const [key, { type, config }] of Object.entries(monitors)) {
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
        const latest = (key: string) => checks.find((c) => c.monitorId === ids[key]);
        expect(latest('tcp')).toMatchObject({ ok: true, source: 'relay', data: { mode: 'tcp', sent: 2, received: 2 } });
        expect(latest('registration')).toMatchObject({
          ok: true,
          source: 'relay',
          data: { domain: 'far.test', domainDaysRemaining: 300 },
        });
        if (noIcmp) expect(latest('icmp')).toMatchObject({ ok: false, source: 'relay' });
        else expect(latest('icmp')).toMatchObject({ ok: true, source: 'relay', data: { mode: 'icmp', received: 1 } });
      } finally {
        await agent.stop();
        await h.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
}

describe('WARDEN_RDAP_BOOTSTRAP', () => {
  const work = mkdtempSync(join(tmpdir(), 'warden-rdap-bootstrap-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('stops the server and the relay agent at start-up when the file is not a bootstrap file', async () => {
    const bad = join(work, 'bad.json');
    writeFileSync(bad, JSON.stringify({ description: 'not IANA', services: 'com' }));
    const server = await runCli(['serve'], {
      WARDEN_DATA_DIR: join(work, 'data'),
      PORT: '0',
      HOST: '127.0.0.1',
      WARDEN_RDAP_BOOTSTRAP: bad,
    });
    expect(server.code).toBe(1);
    expect(server.stderr).toContain(`error: ${bad} is not an RDAP bootstrap file: services:`);
    const relay = await runCli(['relay', '--url', 'http://127.0.0.1:1', '--data-dir', join(work, 'relay')], {
      WARDEN_RELAY_TOKEN: 'wdr_pingDomainRelayToken012345',
      WARDEN_RDAP_BOOTSTRAP: join(work, 'missing.json'),
    });
    expect(relay.code).toBe(1);
    expect(relay.stderr).toContain(`error: cannot read the RDAP bootstrap file ${join(work, 'missing.json')}`);
  });

  it('is read by the server at start-up', async () => {
    const file = join(work, 'dns.json');
    writeFileSync(
      file,
      JSON.stringify({
        publication: '2027-01-01T00:00:00Z',
        services: [
          [['test'], [rdap.base]],
          [['com', 'net'], ['https://rdap.verisign.com/com/v1/']],
        ],
      }),
    );
    const server = await startServer([], { WARDEN_DATA_DIR: join(work, 'served'), WARDEN_RDAP_BOOTSTRAP: file });
    try {
      expect(server.log()).toContain('RDAP bootstrap registry read');
      expect(server.log()).toContain('"publication":"2027-01-01T00:00:00Z","tlds":3');
    } finally {
      await server.stop();
    }
  });
});
