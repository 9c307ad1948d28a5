// A real server and a real relay agent (both `node dist/cli/index.js`) against fake game servers; the server goes away and comes back.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { connectStore, type Store } from '../../src/store/connect.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { findMonitorById, insertMonitor, type Monitor } from '../../src/store/monitors.js';
import { findRelayByKey } from '../../src/store/relays.js';
import { CLI, type ServerProcess, startServer } from '../cli-process.js';
import { type FakeJavaServer, startFakeJavaServer } from '../fakes/minecraft-java-server.js';
import { seed } from '../seed.js';

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

interface AgentProcess {
  child: ChildProcess;
  log(): string;
  waitFor(text: string, timeoutMs?: number): Promise<void>;
  stop(): Promise<number | null>;
}

function startAgent(args: string[], env: Record<string, string>): AgentProcess {
  const child = spawn(process.execPath, [CLI, 'relay', ...args], { env: { ...process.env, LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout?.on('data', (d) => (log += d));
  child.stderr?.on('data', (d) => (log += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return {
    child,
    log: () => log,
    async waitFor(text, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!log.includes(text)) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the agent never logged "${text}":\n${log}`);
        await sleep(50);
      }
    },
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('a relay agent and the server, as real processes', () => {
  const work = mkdtempSync(join(tmpdir(), 'warden-relay-e2e-'));
  const dataDir = join(work, 'server-data');
  const relayDir = join(work, 'relay-data');
  const configFile = join(work, 'warden.yaml');
  const env = { WARDEN_DATA_DIR: dataDir, DATABASE_URL: '', WARDEN_CONFIG: configFile };
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

    store = await connectStore({ dataDir });
    await migrateToLatest(store.db);
    const acme = await seed(store.db, CONFIG);
    theirs = (await seed(store.db, OTHER)).monitors.theirs as Monitor;
    const lab = await findRelayByKey(store.db, acme.report.organization.id, 'lab');
    // One-second intervals (below warden.yaml's minimum, so added directly) to see many results in a few seconds.
    const relayMonitors = {
      port: { type: 'tcp', config: { host: '127.0.0.1', port: (openPort.address() as { port: number }).port } },
      lobby: { type: 'minecraft-java', config: { host: '127.0.0.1', port: java.port } },
      closed: { type: 'tcp', config: { host: '127.0.0.1', port: closedPort } },
    } as const;
    for (const [key, { type, config }] of Object.entries(relayMonitors)) {
      const id = newId('mon');
      await insertMonitor(
        store.db,
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
      monitors[key] = (await findMonitorById(store.db, id)) as Monitor;
    }
    port = await freePort();
    server = await startServer([], { ...env, PORT: String(port) });
  });

  afterAll(async () => {
    await server?.stop();
    await store?.close();
    await java?.close();
    await new Promise((resolve) => openPort?.close(resolve));
    rmSync(work, { recursive: true, force: true });
  });

  const relayChecks = async () =>
    store.db.selectFrom('checks').select(['monitor_id', 'result_id', 'ok']).where('source', '=', 'relay').execute();

  it('answers 401 with WWW-Authenticate to a wrong token, and an agent with one says so', async () => {
    const res = await fetch(`${server?.url}/api/relay/config`, { headers: { authorization: 'Bearer wdr_thisIsNotTheRightToken000000' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('Bearer');
    const agent = startAgent(['--url', server?.url as string, '--data-dir', join(work, 'wrong')], { WARDEN_RELAY_TOKEN: 'wdr_thisIsNotTheRightToken000000' });
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
    expect(await res.json()).toEqual({ accepted: 0, duplicates: 0, rejected: [{ index: 0, reason: `monitor "${theirs.id}" is not assigned to this relay` }] });
    const stored = await store.db.selectFrom('checks').selectAll().where('monitor_id', '=', theirs.id).execute();
    expect(stored).toHaveLength(0);
  });

  it('probes the fake servers, keeps results while the server is stopped, and delivers every one exactly once after it restarts', async () => {
    const agent = startAgent(['--url', server?.url as string, '--data-dir', relayDir, '--submit-every', '250', '--config-every', '2', '--max-backoff', '1'], {
      WARDEN_RELAY_TOKEN: TOKEN,
    });
    try {
      await agent.waitFor('config loaded: 3 monitors');
      for (let i = 0; (await relayChecks()).length < 6; i++) {
        if (i > 200) throw new Error(`no results arrived:\n${agent.log()}`);
        await sleep(50);
      }

      await server?.stop();
      server = undefined;
      await agent.waitFor('server unreachable; keeping results on disk');
      await sleep(2500);
      server = await startServer([], { ...env, PORT: String(port) });
      await agent.waitFor('server reachable again', 15_000);
      await sleep(1000);
    } finally {
      expect(await agent.stop()).toBe(0);
    }

    const stoppedLine = agent
      .log()
      .split('\n')
      .find((line) => line.includes('relay agent stopped'));
    const stats = JSON.parse(stoppedLine as string) as { produced: number; delivered: number; duplicates: number; pending: number; dropped: number; rejected: number };
    expect(stats).toMatchObject({ pending: 0, dropped: 0, rejected: 0 });
    // Every result was acknowledged at least once. A batch the server stored while its answer was lost (the server
    // stopping mid-request) is acknowledged only on the resend, as duplicates: so new acknowledgements can fall short
    // of what was produced, never exceed it. The rows below are the proof of exactly once.
    expect(stats.delivered).toBeGreaterThanOrEqual(stats.produced);
    expect(stats.delivered - stats.duplicates).toBeLessThanOrEqual(stats.produced);
    expect(agent.log()).not.toContain(TOKEN);

    const rows = await relayChecks();
    expect(rows).toHaveLength(stats.produced);
    expect(new Set(rows.map((r) => r.result_id)).size).toBe(stats.produced);
    expect(rows.every((r) => r.result_id !== null)).toBe(true);
    // The outage lasted 2.5 s at 3 results a second: at least several were held and replayed.
    expect(stats.produced).toBeGreaterThanOrEqual(12);

    const lobby = await findMonitorById(store.db, (monitors.lobby as Monitor).id);
    expect(lobby?.lastResult).toMatchObject({ ok: true, source: 'relay', data: { players: 12, maxPlayers: 100, version: '1.21.4' } });
    expect((await findMonitorById(store.db, (monitors.port as Monitor).id))?.lastResult?.ok).toBe(true);
    const closed = await findMonitorById(store.db, (monitors.closed as Monitor).id);
    expect(closed).toMatchObject({ state: 'down', lastResult: { ok: false, error: 'connection refused' } });
  });
});
