// Cached status reads (plain and compressed) against bare node:http serving the same bytes, and the time to build a 50-component snapshot.
import { mkdtempSync, rmSync } from 'node:fs';
import { get, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyConfig } from '../src/config/apply.js';
import { parseConfigText } from '../src/config/load.js';
import { type CheckRow, HOUR_MS } from '../src/domain/check.js';
import type { Snapshot } from '../src/domain/snapshot.js';
import { pageForms, type Rendered } from '../src/render/forms.js';
import { buildSnapshot } from '../src/services/pages/build-snapshot.js';
import { compressedVariants } from '../src/services/pages/compressed-variants.js';
import { openStore } from '../src/store/open-store.js';
import { testContext } from '../test/seed.js';
import { formatLoad, load } from './load.js';
import { startBaselineProcess, startWardenProcess } from './processes.js';
import type { Benchmark } from './run.js';

const DURATION_SEC = 8;
const CONNECTIONS = 50;

export const benchmark: Benchmark = {
  name: 'status',
  description: `cached GET /api/v1/status/{slug} and status.md, plain and with accept-encoding: br, gzip, vs bare node:http (${CONNECTIONS} connections), and snapshot build time`,
  async run() {
    const throughput = await cachedReads();
    const build = await snapshotBuild();
    return throughput && build;
  },
};

/** Scenarios: the status JSON and the 1 KB Markdown form, read plain and compressed (a browser's Accept-Encoding). */
const READS: { path: string; encoding?: string; gated?: true; durationSec: number }[] = [
  { path: '/api/v1/status/demo', gated: true, durationSec: DURATION_SEC },
  { path: '/api/v1/status/demo', encoding: 'br, gzip', durationSec: 5 },
  { path: '/s/demo/status.md', durationSec: 5 },
  { path: '/s/demo/status.md', encoding: 'br, gzip', durationSec: 5 },
];

async function cachedReads(): Promise<boolean> {
  const warden = await startWardenProcess();
  let met = true;
  try {
    for (const read of READS) {
      const requestHeaders: Record<string, string> = read.encoding ? { 'accept-encoding': read.encoding } : {};
      // The first read renders (and compresses) the form; the answer's raw bytes and headers are the baseline's.
      await rawGet(warden.url + read.path, requestHeaders);
      const first = await rawGet(warden.url + read.path, requestHeaders);
      const headers: Record<string, string> = {};
      for (const name of [
        'content-type',
        'content-encoding',
        'vary',
        'etag',
        'cache-control',
        'access-control-allow-origin',
        'access-control-expose-headers',
        'x-content-type-options',
        'x-request-id',
      ]) {
        const value = first.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const baseline = await startBaselineProcess(first.body, headers);
      try {
        const options = (url: string, durationSec: number) => ({
          url: url + read.path,
          connections: CONNECTIONS,
          durationSec,
          headers: requestHeaders,
        });
        // Warm both, then measure each twice, interleaved, and keep the better run of each (the machine is shared).
        await load(options(baseline.url, 2));
        await load(options(warden.url, 2));
        const runs = {
          base: [] as Awaited<ReturnType<typeof load>>[],
          warden: [] as Awaited<ReturnType<typeof load>>[],
        };
        for (let i = 0; i < 2; i++) {
          runs.base.push(await load(options(baseline.url, read.durationSec)));
          runs.warden.push(await load(options(warden.url, read.durationSec)));
        }
        const best = (list: typeof runs.base) => list.reduce((a, b) => (b.requestsPerSec > a.requestsPerSec ? b : a));
        const base = best(runs.base);
        const ours = best(runs.warden);
        const ratio = ours.requestsPerSec / base.requestsPerSec;
        console.log(
          `${read.path} ${read.encoding ? `accept-encoding: ${read.encoding} → ${headers['content-encoding'] ?? 'identity'}` : 'plain'}, ${first.body.length} bytes per response`,
        );
        console.log(formatLoad('  bare node:http (baseline)', base));
        console.log(formatLoad('  warden cached snapshot', ours));
        if (read.gated) {
          console.log(
            `  ratio ${ratio.toFixed(2)} of bare node:http (target ≥ 0.80); warden p99 ${ours.p99Ms} ms (target < 10 ms)`,
          );
          met &&= ratio >= 0.8 && ours.p99Ms < 10;
        } else console.log(`  ratio ${ratio.toFixed(2)} of bare node:http (for reference)`);
        met &&= ours.errors === 0 && ours.non2xx === 0;
      } finally {
        await baseline.stop();
      }
    }
  } finally {
    await warden.stop();
  }
  return met;
}

/**
 * What a new snapshot version costs per form: rendering (its first read), and compressing in Brotli and in gzip (the
 * first read asking for each), measured apart so the compression's share shows.
 */
async function formsCost(snapshot: Snapshot): Promise<void> {
  for (const name of ['json', 'html', 'markdown', 'embed'] as const) {
    const render = [] as number[];
    const br = [] as number[];
    const gzip = [] as number[];
    let sizes = '';
    for (let i = 0; i < 15; i++) {
      const t0 = performance.now();
      const out = pageForms[name].render(snapshot, { basePath: '/s/big', options: {} }) as Rendered;
      const body = Buffer.from(out.body);
      const t1 = performance.now();
      const variants = compressedVariants(body, out.contentType, '"x"');
      const brotli = variants.get('br');
      const t2 = performance.now();
      const gzipped = variants.get('gzip');
      gzip.push(performance.now() - t2);
      br.push(t2 - t1);
      render.push(t1 - t0);
      sizes = `${body.length} B → br ${brotli?.body.length ?? '–'} B, gzip ${gzipped?.body.length ?? '–'} B`;
    }
    const median = (list: number[]) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)] as number;
    console.log(
      `form ${name} of 50 components: render median ${median(render).toFixed(1)} ms, then Brotli ${median(br).toFixed(1)} ms, gzip ${median(gzip).toFixed(1)} ms, once per version each (${sizes})`,
    );
  }
}

/** One GET's raw answer (fetch would decompress it). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

async function snapshotBuild(): Promise<boolean> {
  const dataDir = mkdtempSync(join(tmpdir(), 'warden-bench-snap-'));
  const store = await openStore({ dataDir });
  try {
    await store.migrate();
    const monitors = Array.from(
      { length: 50 },
      (_, i) => `  - { key: m${i}, name: Server ${i}, type: tcp, config: { host: 127.0.0.1, port: ${20000 + i} } }`,
    );
    const components = Array.from(
      { length: 50 },
      (_, i) => `      - { name: Server ${i}, monitor: m${i}, group: Group ${i % 5} }`,
    );
    const yaml = `organization: { name: Bench }\nmonitors:\n${monitors.join('\n')}\npages:\n  - slug: big\n    title: Big\n    components:\n${components.join('\n')}\n`;
    const now = Date.UTC(2026, 10, 20, 12);
    const report = await applyConfig(testContext(store, { now: () => now }), parseConfigText(yaml, 'bench', {}));
    const list = await store.monitors.list(report.organization.id);
    // 90 days of daily buckets and 24 hours of hourly buckets per monitor.
    const rows: CheckRow[] = [];
    for (const m of list)
      for (let h = 0; h < 90 * 24; h += h < 24 ? 1 : 24)
        rows.push({
          monitorId: m.id,
          checkedAt: now - h * HOUR_MS,
          ok: h % 17 !== 0,
          degraded: false,
          latencyMs: 20 + (h % 30),
          message: null,
          error: null,
          data: { players: h % 40 },
          source: 'edge',
          resultId: null,
        });
    // Stored as checks through the ingest's own write, which adds them to their buckets (what the snapshot reads).
    await store.checks.write(rows, []);
    const page = await store.pages.findBySlug('big');
    if (!page) throw new Error('no page');
    // A rebuild after a check result (what every result costs: the charts of the snapshot a second before are reused),
    // and a cold build (the page's first, or the first a minute after the last chart read: a week of whole buckets).
    const measure = async (cold: boolean) => {
      const times: number[] = [];
      let previous = await buildSnapshot({ store }, { page, now, pageUrl: 'http://bench/s/big' });
      for (let i = 1; i <= 60; i++) {
        const started = performance.now();
        const snapshot = await buildSnapshot(
          { store },
          { page, now: now + i * 100, pageUrl: 'http://bench/s/big', ...(cold ? {} : { previous }) },
        );
        times.push(performance.now() - started);
        if (snapshot.components.length !== 50 || snapshot.components[0]?.days.length !== 90)
          throw new Error('bad snapshot');
        previous = snapshot;
      }
      times.sort((a, b) => a - b);
      return {
        median: times[Math.floor(times.length / 2)] as number,
        p90: times[Math.floor(times.length * 0.9)] as number,
      };
    };
    const rebuild = await measure(false);
    const cold = await measure(true);
    await formsCost(await buildSnapshot({ store }, { page, now, pageUrl: 'http://bench/s/big' }));
    console.log(
      `snapshot rebuild of 50 components × 90 days: median ${rebuild.median.toFixed(1)} ms, p90 ${rebuild.p90.toFixed(1)} ms (target < 20 ms; ${90 * 50} daily buckets)`,
    );
    console.log(
      `snapshot cold build with 24 h / 7 d / 30 d charts: median ${cold.median.toFixed(1)} ms, p90 ${cold.p90.toFixed(1)} ms (target < 60 ms, at most once a minute per page)`,
    );
    return rebuild.median < 20 && cold.median < 60;
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
