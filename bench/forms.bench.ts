// The other forms of a page: og.png's first render per snapshot version, and cached og.png, badge and feed reads vs bare node:http.
import { renderOgImage } from '../src/render/og-image.js';
import { largeSnapshot, operationalSnapshot } from '../test/fakes/snapshots.js';
import { formatLoad, type LoadResult, load } from './load.js';
import { startBaselineProcess, startWardenProcess } from './processes.js';
import type { Benchmark } from './run.js';

const CONNECTIONS = 50;
const DURATION_SEC = 6;
const TARGET_RENDER_MS = 150;
const TARGET_RATIO = 0.8;

export const benchmark: Benchmark = {
  name: 'forms',
  description: `og.png first render per snapshot version (target < ${TARGET_RENDER_MS} ms), and cached og.png (target ≥ ${TARGET_RATIO}), badge.svg, feed.xml reads vs bare node:http (${CONNECTIONS} connections)`,
  async run() {
    const render = await ogRender();
    const reads = await cachedReads();
    return render && reads;
  },
};

/** The first render of a new snapshot version (what one request waits for), after the process's one-off start-up. */
async function ogRender(): Promise<boolean> {
  const started = performance.now();
  await renderOgImage(operationalSnapshot());
  const coldMs = performance.now() - started;
  const times: Record<string, number[]> = { operational: [], large: [] };
  for (let i = 0; i < 12; i++)
    for (const [name, make] of [
      ['operational', operationalSnapshot],
      ['large', largeSnapshot],
    ] as const) {
      // A new version each time: another build time, another player count.
      const snapshot = make();
      snapshot.generatedAt += i * 30_000;
      snapshot.totals.players = (snapshot.totals.players ?? 0) + i;
      const t = performance.now();
      await renderOgImage(snapshot);
      times[name]!.push(performance.now() - t);
    }
  let met = true;
  console.log(
    `og.png: first render in a fresh process ${coldMs.toFixed(0)} ms (one-off: WebAssembly layout engine and font parsing)`,
  );
  for (const [name, list] of Object.entries(times)) {
    list.sort((a, b) => a - b);
    const median = list[Math.floor(list.length / 2)] as number;
    const p90 = list[Math.floor(list.length * 0.9)] as number;
    console.log(
      `og.png first render per snapshot version, ${name}: median ${median.toFixed(0)} ms, p90 ${p90.toFixed(0)} ms (target < ${TARGET_RENDER_MS} ms)`,
    );
    met &&= median < TARGET_RENDER_MS;
  }
  return met;
}

async function cachedReads(): Promise<boolean> {
  const warden = await startWardenProcess();
  let met = true;
  try {
    for (const path of ['/s/demo/og.png', '/s/demo/badge.svg?players', '/s/demo/feed.xml']) {
      // The first request renders (og.png asynchronously); the next ones are served from memory.
      await (await fetch(warden.url + path)).arrayBuffer();
      const first = await fetch(warden.url + path);
      const body = Buffer.from(await first.arrayBuffer());
      const headers: Record<string, string> = {};
      for (const name of [
        'content-type',
        'etag',
        'cache-control',
        'access-control-allow-origin',
        'access-control-expose-headers',
        'x-content-type-options',
        'content-security-policy',
        'x-request-id',
      ]) {
        const value = first.headers.get(name);
        if (value !== null) headers[name] = value;
      }
      const baseline = await startBaselineProcess(body, headers);
      try {
        await load({ url: baseline.url + path, connections: CONNECTIONS, durationSec: 1 });
        await load({ url: warden.url + path, connections: CONNECTIONS, durationSec: 1 });
        const runs = { base: [] as LoadResult[], warden: [] as LoadResult[] };
        for (let i = 0; i < 2; i++) {
          runs.base.push(await load({ url: baseline.url + path, connections: CONNECTIONS, durationSec: DURATION_SEC }));
          runs.warden.push(await load({ url: warden.url + path, connections: CONNECTIONS, durationSec: DURATION_SEC }));
        }
        const best = (list: LoadResult[]) => list.reduce((a, b) => (b.requestsPerSec > a.requestsPerSec ? b : a));
        const base = best(runs.base);
        const ours = best(runs.warden);
        const ratio = ours.requestsPerSec / base.requestsPerSec;
        console.log(`${path} (${body.length} bytes)`);
        console.log(formatLoad('  bare node:http (baseline)', base));
        console.log(formatLoad('  warden cached', ours));
        // The target is og.png's (the issue's); the small forms are printed for reference (a 2-core machine running the
        // load generator too makes tiny responses the noisiest ratio).
        const gated = path.includes('og.png');
        console.log(
          `  ratio ${ratio.toFixed(2)} of bare node:http${gated ? ` (target ≥ ${TARGET_RATIO})` : ' (for reference)'}`,
        );
        met &&= ours.errors === 0 && ours.non2xx === 0 && (!gated || ratio >= TARGET_RATIO);
      } finally {
        await baseline.stop();
      }
    }
  } finally {
    await warden.stop();
  }
  return met;
}
