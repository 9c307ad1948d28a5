// A real server and a real relay agent (both `node dist/cli/index.js`) against fake game servers; the server goes away and comes back.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import type { Monitor } from '../../src/domain/monitor.js';
import type { Store } from '../../src/store/index.js';
import { type ServerProcess, startServer } from '../cli-process.js';
import { type FakeJavaServer, startFakeJavaServer } from '../fakes/minecraft-java-server.js';
import { freePort, queuedResultKeys, startAgent } from '../relay-agent.js';
import { seed } from '../seed.js';
import { dialects, type OpenedStore } from '../store-dialects.js';
import { listStoredChecks } from '../stored-checks.js';

const TOKEN = 'wdr_e2eRelayTokenForTheLab012345';
const CONFIG = `
organization: { key: acme, name: Acme }
relays: [{ key: lab, name: Home lab, token: ${TOKEN} }]
monitors:
  - { key: site, name: Site, type: http, enabled: false, config: { url: "http://127.0.0.1:1/" } }
`;
const OTHER = `
organization: { key: other, name: Other }
relays: [{ key: lab, name: Their lab, token: wdr_theOtherOrganizationsToken01 }]
monitors:
  - { key: theirs, name: Theirs, type: tcp, runOn: relay, relay: lab, config: { host: 127.0.0.1, port: 1 } }
`;
const STATUS = { version: { name: '1.21.4', protocol: 769 }, players: { online: 12, max: 100 }, description: 'Lobby' };

for (const dialect of dialects) {
  describe.skipIf(!dialect.available)(`a relay agent and the server, as real processes, on ${dialect.name}`, () => {
    const work = mkdtempSync(join(tmpdir(), 'warden-relay-e2e-'));
    const relayDir = join(work, 'relay-data');
    const configFile = join(work, 'warden.yaml');
    let opened: OpenedStore;
    let env: Record<string, string>;
    let store: Store;
    let server: ServerProcess | undefined;
    let port: number;
    let java: FakeJavaServer;
    let openPort: Server;
    const monitors: Record<string, Monitor> = {};
    let theirs: Monitor;

    beforeAll(async () => {
      writeFileSync(configFile, CONFIG);
      java = await startFakeJavaServer({ kind: 'status', status: STATUS });
      openPort = createServer((socket) => socket.destroy());
      await new Promise<void>((resolve) => openPort.listen(0, '127.0.0.1', resolve));
      const closedPort = await freePort();

      opened = await dialect.open();
      store = opened.store;
      env = { ...opened.env, WARDEN_CONFIG: configFile };
      const acme = await seed(store, CONFIG);
      theirs = (await seed(store, OTHER)).monitors.theirs as Monitor;
      const lab = await store.relays.findByKey(acme.report.organization.id, 'lab');
      // One-second intervals (below warden.yaml's minimum, so added directly) to see many results in a few seconds.
      const relayMonitors = {
        port: { type: 'tcp', config: { host: '127.0.0.1', port: (openPort.address() as { port: number }).port } },
        lobby: { type: 'minecraft-java', config: { host: '127.0.0.1', port: java.port } },
        closed: { type: 'tcp', config: { host: '127.0.0.1', port: closedPort } },
      } as const;
      for (const [key, { type, config }] of Object.entries(relayMonitors)) {
        const id = newId('mon');
        await store.monitors.insert(
          {
            id,
            organizationId: acme.report.organization.id,
            key,
            name: key,
            type,
            config,
            intervalSec: 1,
            timeoutMs: 800,
            runOn: 'relay',
            relayId: lab?.id ?? null,
            enabled: true,
            retries: 0,
            degradedLatencyMs: null,
            managedBy: 'api',
            pushToken: null,
          },
          Date.now(),
        );
        monitors[key] = (await store.monitors.findById(id)) as Monitor;
      }
      port = await freePort();
      server = await startServer([], { ...env, PORT: String(port) });
    });

    afterAll(async () => {
      await server?.stop();
      await opened?.cleanup();
      await java?.close();
      await new Promise((resolve) => openPort?.close(resolve));
      rmSync(work, { recursive: true, force: true });
    });

    const relayChecks = async () => (await listStoredChecks(store)).filter((c) => c.source === 'relay');
    /** Ids of the results in the agent's on-disk queue that the server has not stored: what the agent holds for it. */
    const heldByAgent = async () => {
      const keys = queuedResultKeys(relayDir);
      const stored = await store.checks.storedResultKeys(keys);
      return keys.filter((k) => !stored.has(`${k.monitorId}\u0000${k.resultId}`));
    };
    const waiting = { timeout: 15_000, interval: 50 };

    it('answers 401 with WWW-Authenticate to a wrong token, and an agent with one says so', async () => {
      const res = await fetch(`${server?.url}/api/relay/config`, {
        headers: { authorization: 'Bearer wdr_thisIsNotTheRightToken000000' },
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('Bearer');
      const agent = startAgent(['--url', server?.url as string, '--data-dir', join(work, 'wrong')], {
        WARDEN_RELAY_TOKEN: 'wdr_thisIsNotTheRightToken000000',
      });
      await agent.waitFor('the server refused the relay token');
      expect(await agent.stop()).toBe(0);
      expect(agent.log()).not.toContain('wdr_thisIsNotTheRightToken000000');
    });

    it("rejects a result for another organization's monitor and stores nothing for it", async () => {
      const res = await fetch(`${server?.url}/api/relay/results`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ results: [{ id: 'x1', monitorId: theirs.id, ok: true }] }),
      });
      expect(await res.json()).toEqual({
        accepted: 0,
        duplicates: 0,
        rejected: [{ index: 0, reason: `monitor "${theirs.id}" is not assigned to this relay` }],
      });
      expect(await store.checks.list(theirs.id, { from: 0, to: Number.MAX_SAFE_INTEGER, limit: 10 })).toHaveLength(0);
    });

    it('probes the fake servers, keeps results while the server is stopped, and delivers every one exactly once after it restarts', async () => {
      const agent = startAgent(
        [
          '--url',
          server?.url as string,
          '--data-dir',
          relayDir,
          '--submit-every',
          '250',
          '--config-every',
          '2',
          '--max-backoff',
          '1',
        ],
        {
          WARDEN_RELAY_TOKEN: TOKEN,
        },
      );
      let held: { monitorId: string; resultId: string }[] = [];
      try {
        await agent.waitFor('config loaded: 3 monitors');
        await vi.waitFor(
          async () => expect((await relayChecks()).length, agent.log()).toBeGreaterThanOrEqual(6),
          waiting,
        );

        await server?.stop();
        server = undefined;
        await agent.waitFor('server unreachable; keeping results on disk');
        // The outage lasts until the agent holds two seconds of results (three monitors checked every second).
        await vi.waitFor(async () => expect((await heldByAgent()).length).toBeGreaterThanOrEqual(6), waiting);
        held = await heldByAgent();
        server = await startServer([], { ...env, PORT: String(port) });
        await agent.waitFor('server reachable again', 15_000);
        // What it held through the outage is delivered; anything newer goes with the agent's final flush.
        await vi.waitFor(
          async () => expect((await store.checks.storedResultKeys(held)).size).toBe(held.length),
          waiting,
        );
      } finally {
        expect(await agent.stop()).toBe(0);
      }

      const stoppedLine = agent
        .log()
        .split('\n')
        .find((line) => line.includes('relay agent stopped'));
      const stats = JSON.parse(stoppedLine as string) as {
        produced: number;
        delivered: number;
        duplicates: number;
        pending: number;
        dropped: number;
        rejected: number;
      };
      expect(stats).toMatchObject({ pending: 0, dropped: 0, rejected: 0 });
      // Every result was acknowledged at least once. A batch the server stored while its answer was lost (the server
      // stopping mid-request) is acknowledged only on the resend, as duplicates: so new acknowledgements can fall short
      // of what was produced, never exceed it. The rows below are the proof of exactly once.
      expect(stats.delivered).toBeGreaterThanOrEqual(stats.produced);
      expect(stats.delivered - stats.duplicates).toBeLessThanOrEqual(stats.produced);
      expect(agent.log()).not.toContain(TOKEN);

      const rows = await relayChecks();
      expect(rows).toHaveLength(stats.produced);
      // A replayed result keeps the time it was checked at: stored twice, it would show twice.
      expect(new Set(rows.map((r) => `${r.monitorId}@${r.checkedAt}`)).size).toBe(stats.produced);
      // The results held through the outage were stored under the ids the agent gave them (what makes a replay idempotent).
      expect((await store.checks.storedResultKeys(held)).size).toBe(held.length);
      // At least six results before the outage and six held through it.
      expect(stats.produced).toBeGreaterThanOrEqual(12);

      const lobby = await store.monitors.findById((monitors.lobby as Monitor).id);
      expect(lobby?.lastResult).toMatchObject({
        ok: true,
        source: 'relay',
        data: { players: 12, maxPlayers: 100, version: '1.21.4' },
      });
      expect((await store.monitors.findById((monitors.port as Monitor).id))?.lastResult?.ok).toBe(true);
      const closed = await store.monitors.findById((monitors.closed as Monitor).id);
      expect(closed).toMatchObject({ state: 'down', lastResult: { ok: false, error: 'connection refused' } });
    });
  });
}
