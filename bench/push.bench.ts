// Push heartbeats stored durably on SQLite (GET and POST, 50 connections) against bare node:http answering the same bytes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { countChecks } from './count-checks.js';
import { formatLoad, type LoadResult, load } from './load.js';
import { startBaselineProcess, startWardenProcess } from './processes.js';
import type { Benchmark } from './run.js';

const DURATION_SEC = 6;
const CONNECTIONS = 50;
/**
 * Heartbeat monitors pinged in turn, as a community's servers and cron jobs would. Each push token may store
 * WARDEN_PUSH_RATE (10) pings a second, so the load is spread over enough tokens that each stays under it up to
 * 30,000 pings a second: a refused ping (429) would count against the figure.
 */
const MONITORS = 3000;
/** The heartbeat monitors (tokens) the requests go round. */
export const PUSH_BENCH_TOKENS = MONITORS;
const TARGET_PER_SEC = 5000;

const tokens = Array.from({ length: MONITORS }, (_, i) => `wdp_benchHeartbeat${String(i).padStart(6, '0')}`);
const POST_BODY = JSON.stringify({ status: 'up', msg: 'tick', latency: 3, players: 42, maxPlayers: 100, tps: 19.9 });

type LoadRequest = { method?: string; path?: string; body?: string | Buffer; headers?: Record<string, string> };

/** The warden.yaml of this benchmark: one heartbeat monitor per token (the cluster benchmark loads it too). */
export function pushBenchConfig(): string {
  return [
    'organization: { key: bench, name: Bench }',
    'monitors:',
    ...tokens.map(
      (token, i) =>
        `  - { key: hb${i}, name: Heartbeat ${i}, type: heartbeat, pushToken: ${token}, config: { graceSec: 600 } }`,
    ),
  ].join('\n');
}

/** Builds each request of a load run: the next token in turn, as a GET with query parameters or a POST with metrics. */
export function pushRequests(method: 'GET' | 'POST'): (request: LoadRequest) => LoadRequest {
  let next = 0;
  return (request) => {
    const token = tokens[next++ % MONITORS];
    return method === 'GET'
      ? { ...request, method, path: `/api/push/${token}?status=up&latency=3` }
      : {
          ...request,
          method,
          path: `/api/push/${token}`,
          body: POST_BODY,
          headers: { 'content-type': 'application/json' },
        };
  };
}

export const benchmark: Benchmark = {
  name: 'push',
  description: `accepted heartbeats per second, durable on SQLite, ${CONNECTIONS} connections over ${MONITORS} tokens, vs bare node:http`,
  async run() {
    const config = pushBenchConfig();
    const dir = mkdtempSync(join(tmpdir(), 'warden-bench-push-'));
    writeFileSync(join(dir, 'warden.yaml'), config);
    const server = await startWardenProcess({ WARDEN_CONFIG: join(dir, 'warden.yaml') });
    try {
      const answer = await fetch(`${server.url}/api/push/${tokens[0]}`);
      const body = Buffer.from(await answer.arrayBuffer());
      const baseline = await startBaselineProcess(body, {
        'content-type': 'application/json',
        'cache-control': 'no-store',
      });
      try {
        const rotate = pushRequests;
        await load({ url: baseline.url, connections: CONNECTIONS, durationSec: 2 });
        const warmup = await load({
          url: server.url,
          connections: CONNECTIONS,
          durationSec: 2,
          setupRequest: rotate('GET'),
        });
        // Each measured twice, interleaved, keeping the better run of each: the machine is shared.
        const runs: Record<'base' | 'get' | 'post', LoadResult[]> = { base: [], get: [], post: [] };
        for (let i = 0; i < 2; i++) {
          runs.base.push(await load({ url: baseline.url, connections: CONNECTIONS, durationSec: DURATION_SEC }));
          runs.get.push(
            await load({
              url: server.url,
              connections: CONNECTIONS,
              durationSec: DURATION_SEC,
              setupRequest: rotate('GET'),
            }),
          );
          runs.post.push(
            await load({
              url: server.url,
              connections: CONNECTIONS,
              durationSec: DURATION_SEC,
              setupRequest: rotate('POST'),
            }),
          );
        }
        const best = (list: LoadResult[]) => list.reduce((a, b) => (b.requestsPerSec > a.requestsPerSec ? b : a));
        const base = best(runs.base);
        const get = best(runs.get);
        const post = best(runs.post);
        const stored = await countChecks(server.dataDir);
        const accepted = (r: LoadResult) => r.total - r.non2xx - r.errors;
        const answered200 = 1 + accepted(warmup) + [...runs.get, ...runs.post].reduce((sum, r) => sum + accepted(r), 0);
        console.log(`answer ${body.length} bytes: ${body}`);
        console.log(formatLoad('bare node:http (baseline)', base));
        console.log(formatLoad('GET /api/push/{token}', get));
        console.log(formatLoad('POST /api/push/{token} (metrics)', post));
        for (const [label, r] of [
          ['GET', get],
          ['POST', post],
        ] as const)
          console.log(
            `${label}: ${Math.round(r.requestsPerSec)} accepted/s (target ≥ ${TARGET_PER_SEC}), ratio ${(r.requestsPerSec / base.requestsPerSec).toFixed(2)} of bare node:http, p99 ${r.p99Ms} ms`,
          );
        console.log(
          `durability: ${stored} checks stored for ${answered200} answers of 200 (every 200 came after its commit)`,
        );
        console.log(
          `spread: ${MONITORS} tokens, at most ${Math.round(Math.max(get.requestsPerSec, post.requestsPerSec) / MONITORS)} pings a second each (the limit is 10)`,
        );
        const clean = [...runs.get, ...runs.post].every((r) => r.errors === 0 && r.non2xx === 0);
        return (
          get.requestsPerSec >= TARGET_PER_SEC &&
          post.requestsPerSec >= TARGET_PER_SEC &&
          clean &&
          stored >= answered200
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
