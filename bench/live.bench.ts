// 5,000 WebSocket clients on one page of a Warden process: delivery time of a pushed change to all of them, and memory per connection.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { processUsage, startWardenProcess } from './processes.js';
import type { Benchmark } from './run.js';

const CLIENTS = 5_000;
const ROUNDS = 6;
const CONNECT_BATCH = 250;
const TARGET_P99_MS = 250;
const TOKEN = 'wdp_bench-live-token-0123456789abcdef';

const CONFIG = `
organization: { name: Bench }
monitors:
  - { key: job, name: Game server, type: heartbeat, pushToken: ${TOKEN}, config: { graceSec: 3600 } }
pages:
  - slug: bench
    title: Bench network
    components: [{ name: Game server, monitor: job }]
`;

export const benchmark: Benchmark = {
  name: 'live',
  description: `${CLIENTS} WebSocket clients on one page (server in a child process): p99 delivery of a pushed change to all, memory per connection`,
  async run() {
    const configDir = mkdtempSync(join(tmpdir(), 'warden-bench-live-'));
    const configFile = join(configDir, 'warden.yaml');
    writeFileSync(configFile, CONFIG);
    const warden = await startWardenProcess({ WARDEN_CONFIG: configFile, LOG_LEVEL: 'info' });
    const clients: Client[] = [];
    try {
      const pid = warden.process.pid as number;
      await push(warden.url, 'up');
      await settle(500);
      const rssBefore = processUsage(pid).rss;
      const connectStarted = performance.now();
      for (let i = 0; i < CLIENTS; i += CONNECT_BATCH)
        clients.push(
          ...(await Promise.all(
            Array.from({ length: Math.min(CONNECT_BATCH, CLIENTS - i) }, () => connect(warden.url)),
          )),
        );
      const connectMs = performance.now() - connectStarted;
      await waitFor(() => clients.every((c) => c.snapshots > 0), 20_000, 'every client got its snapshot');
      await settle(1000);
      const rssAfter = processUsage(pid).rss;
      const perConnection = (rssAfter - rssBefore) / CLIENTS;
      console.log(
        `${CLIENTS} clients connected in ${(connectMs / 1000).toFixed(1)} s; server RSS ${mb(rssBefore)} → ${mb(rssAfter)} MB: ${(perConnection / 1024).toFixed(1)} KiB per connection`,
      );

      const p99s: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        for (const client of clients) client.receivedAt = 0;
        const status = round % 2 === 0 ? 'down' : 'up';
        const sent = performance.now();
        await push(warden.url, status);
        await waitFor(
          () => clients.every((c) => c.receivedAt > 0),
          10_000,
          `round ${round + 1}: every client got the update`,
        );
        const latencies = clients.map((c) => c.receivedAt - sent).sort((a, b) => a - b);
        const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] as number;
        p99s.push(at(0.99));
        console.log(
          `round ${round + 1} (${status.padEnd(4)}): first ${at(0).toFixed(0)} ms, p50 ${at(0.5).toFixed(0)} ms, p99 ${at(0.99).toFixed(0)} ms, last ${at(1).toFixed(0)} ms`,
        );
        // Past the page cache's 250 ms window, so each push is a fresh change.
        await settle(600);
      }
      const open = clients.filter((c) => c.ws.readyState === WebSocket.OPEN).length;
      const worst = Math.max(...p99s);
      const median = [...p99s].sort((a, b) => a - b)[Math.floor(p99s.length / 2)] as number;
      console.log(
        `p99 over rounds: median ${median.toFixed(0)} ms, worst ${worst.toFixed(0)} ms (target < ${TARGET_P99_MS} ms); ${open}/${CLIENTS} still connected`,
      );
      return median < TARGET_P99_MS && open === CLIENTS;
    } finally {
      for (const client of clients) client.ws.terminate();
      await warden.stop();
      rmSync(configDir, { recursive: true, force: true });
    }
  },
};

interface Client {
  ws: WebSocket;
  snapshots: number;
  /** performance.now() when the first monitor.update since the last reset arrived; 0 until then. */
  receivedAt: number;
}

function connect(base: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/s/bench/live`, { perMessageDeflate: false });
    const client: Client = { ws, snapshots: 0, receivedAt: 0 };
    // Reading the type from the raw bytes keeps the bench process's own work per message small.
    ws.on('message', (data: Buffer) => {
      const head = data.subarray(0, 40).toString();
      if (head.startsWith('{"type":"snapshot"')) client.snapshots++;
      else if (head.startsWith('{"type":"monitor.update"') && client.receivedAt === 0)
        client.receivedAt = performance.now();
    });
    ws.once('open', () => resolve(client));
    ws.once('error', reject);
  });
}

async function push(base: string, status: 'up' | 'down'): Promise<void> {
  const response = await fetch(`${base}/api/push/${TOKEN}?status=${status}&msg=bench`);
  if (response.status !== 200) throw new Error(`push answered ${response.status}`);
  await response.body?.cancel();
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await settle(2);
  }
}
