// `npm run bench notifications`: 1,000 heartbeat monitors go down within one second through ingest (ten commits of 100),
// one webhook channel to a receiver in its own process. Checks that each commit enqueued its deliveries (rows counted
// right after it), and measures commit→arrival latency while the burst comes in; then, with 1,000 "recovered" deliveries
// waiting, how fast a dispatcher started on them drains them. On SQLite and PostgreSQL, against the receiver's raw rate
// from a plain HTTP client (fetch, as many at once as the channel sends) in the same run.

import { composeWarden } from '../src/compose.js';
import { systemClock } from '../src/domain/clock.js';
import { createLogger } from '../src/logger.js';
import { webhookBody } from '../src/notify/channels/webhook.js';
import { seed } from '../test/seed.js';
import { type DialectCase, dialects } from '../test/store-dialects.js';
import type { Benchmark } from './run.js';
import { startRecordingReceiver } from './webhook-receiver.js';

const MONITORS = 1000;
const COMMITS = 10;
const TARGET_PER_SEC = 500;
const TARGET_P99_MS = 1000;
/** The webhook channel's maxInFlight: the baseline client sends as many at once. */
const IN_FLIGHT = 8;
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

function percentile(sorted: number[], share: number): number {
  return sorted.length === 0 ? 0 : (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] as number);
}

interface Figures {
  dialect: string;
  enqueuedAfterCommits: number[];
  delivered: number;
  duplicates: number;
  /** During the burst: deliveries over first commit → last arrival. */
  burstRatePerSec: number;
  /** 1,000 waiting, a dispatcher started: deliveries over start → last arrival. */
  drainRatePerSec: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  burstMs: number;
}

export const benchmark: Benchmark = {
  name: 'notifications',
  description: `${MONITORS} monitors down within a second → webhook deliveries: enqueued in the commits, dispatch rate and commit→send p99, SQLite and PostgreSQL, vs a plain HTTP client`,
  async run() {
    const receiver = await startRecordingReceiver();
    try {
      const baseline = await rawRate(`${receiver.url}/hook`);
      await receiver.reset();
      console.log(
        `baseline: a plain fetch loop (${IN_FLIGHT} at once) to the same receiver: ${Math.round(baseline)} requests/s`,
      );
      let met = true;
      for (const dialect of dialects) {
        if (!dialect.available) {
          console.log(`${dialect.name}: not reachable, skipped`);
          continue;
        }
        const f = await burst(dialect, receiver);
        await receiver.reset();
        const enqueuedRight = f.enqueuedAfterCommits.every((count, i) => count === ((i + 1) * MONITORS) / COMMITS);
        console.log(
          `${f.dialect}: ${MONITORS} down in ${Math.round(f.burstMs)} ms over ${COMMITS} commits; deliveries counted right after each commit: ${f.enqueuedAfterCommits.join(', ')}`,
        );
        console.log(
          `${f.dialect}: ${f.delivered} delivered (${f.duplicates} duplicates), ${Math.round(f.burstRatePerSec)}/s from the first commit to the last arrival; commit→arrival p50 ${Math.round(f.p50Ms)} ms, p99 ${Math.round(f.p99Ms)} ms (target < ${TARGET_P99_MS}), max ${Math.round(f.maxMs)} ms`,
        );
        console.log(
          `${f.dialect}: ${MONITORS} waiting drained at ${Math.round(f.drainRatePerSec)}/s (target ≥ ${TARGET_PER_SEC}), ratio ${(f.drainRatePerSec / baseline).toFixed(2)} of the plain client`,
        );
        met &&=
          enqueuedRight &&
          f.delivered === MONITORS &&
          f.duplicates === 0 &&
          f.drainRatePerSec >= TARGET_PER_SEC &&
          f.p99Ms < TARGET_P99_MS;
      }
      return met;
    } finally {
      await receiver.stop();
    }
  },
};

/** The receiver's rate from a plain client: fetch POSTs of a delivery's size, IN_FLIGHT at once. */
async function rawRate(url: string): Promise<number> {
  const body = webhookBody({
    id: 'evt_baseline',
    kind: 'monitor.down',
    at: Date.now(),
    severity: 'critical',
    title: 'Heartbeat 0 is down',
    reason: 'no heartbeat',
    organization: { key: 'bench', name: 'Bench' },
    monitor: {
      id: 'mon_0',
      key: 'hb0',
      name: 'Heartbeat 0',
      type: 'heartbeat',
      state: 'down',
      previousState: 'up',
      downtimeMs: null,
      players: null,
    },
    pages: [],
  });
  const post = async (count: number) => {
    let next = 0;
    const worker = async () => {
      while (next++ < count) {
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'webhook-id': `evt_${next}` },
          body,
        });
        await res.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  };
  await post(500);
  const started = now();
  await post(MONITORS * 2);
  return (MONITORS * 2) / ((now() - started) / 1000);
}

async function burst(
  dialect: DialectCase,
  receiver: Awaited<ReturnType<typeof startRecordingReceiver>>,
): Promise<Figures> {
  const opened = await dialect.open();
  const store = opened.store;
  const yaml = [
    'organization: { key: bench, name: Bench }',
    'monitors:',
    ...Array.from(
      { length: MONITORS },
      (_, i) => `  - { key: hb${i}, name: Heartbeat ${i}, type: heartbeat, config: { graceSec: 3600 } }`,
    ),
    'notifications:',
    `  - { key: bench-hook, name: Bench hook, type: webhook, config: { url: "${receiver.url}/hook", secret: "${SECRET}" } }`,
  ].join('\n');
  const { report, monitors } = await seed(store, yaml, Date.now());
  const ids = Object.values(monitors).map((m) => m.id);
  const channel = await store.channels.findByKey(report.organization.id, 'bench-hook');
  if (!channel) throw new Error('the bench channel was not created');
  const parts = composeWarden({
    store,
    clock: systemClock,
    logger: createLogger('silent'),
    baseUrl: () => 'http://127.0.0.1:8080',
  });
  try {
    // Up first, so the burst is a change for each (unknown → up is not news: nothing enqueued).
    await parts.ingest.recordMany(ids.map((monitorId) => ({ monitorId, ok: true, source: 'push' as const })));
    parts.dispatcher.start();
    const committedAt = new Map<string, number>();
    const enqueuedAfterCommits: number[] = [];
    const per = MONITORS / COMMITS;
    const started = now();
    for (let c = 0; c < COMMITS; c++) {
      const slice = ids.slice(c * per, (c + 1) * per);
      // Pushes answered after their commit, all in one tick: one commit for the slice.
      await Promise.all(
        slice.map((monitorId) => parts.ingest.record({ monitorId, ok: false, error: 'no heartbeat', source: 'push' })),
      );
      const at = now();
      for (const id of slice) committedAt.set(id, at);
      enqueuedAfterCommits.push((await store.deliveries.listByChannel(channel.id, MONITORS + 1)).length);
      await sleep(started + ((c + 1) * 1000) / COMMITS - now());
    }
    const burstMs = now() - started;
    let arrivals = await receiver.arrivals();
    for (let waited = 0; arrivals.length < MONITORS && waited < 60_000; waited += 100) {
      await sleep(100);
      arrivals = await receiver.arrivals();
    }
    const latencies = arrivals
      .map((a) => a.at - (committedAt.get(a.monitor ?? '') ?? Number.NaN))
      .sort((a, b) => a - b);
    const spanMs = Math.max(...arrivals.map((a) => a.at)) - Math.min(...committedAt.values());
    const unique = new Set(arrivals.map((a) => a.id)).size;

    // Capacity: 1,000 "recovered" enqueued while nothing sends, then a dispatcher (as the server builds it) starts on them.
    await parts.dispatcher.stop();
    await receiver.reset();
    await parts.ingest.recordMany(ids.map((monitorId) => ({ monitorId, ok: true, source: 'push' as const })));
    // Built as the server builds it (rules gate, subscriber targets): a second composition over the same store.
    const second = composeWarden({
      store,
      clock: systemClock,
      logger: createLogger('silent'),
      baseUrl: () => 'http://127.0.0.1:8080',
    });
    const drainStart = now();
    second.dispatcher.start();
    let drained = await receiver.arrivals();
    for (let waited = 0; drained.length < MONITORS && waited < 60_000; waited += 50) {
      await sleep(50);
      drained = await receiver.arrivals();
    }
    await second.dispatcher.stop();
    second.outbox.close();
    await second.bus.close();
    const drainMs = Math.max(...drained.map((a) => a.at)) - drainStart;
    return {
      dialect: dialect.name,
      enqueuedAfterCommits,
      delivered: unique,
      duplicates: arrivals.length - unique,
      burstRatePerSec: arrivals.length / (spanMs / 1000),
      drainRatePerSec: drained.length >= MONITORS ? drained.length / (drainMs / 1000) : 0,
      p50Ms: percentile(latencies, 0.5),
      p99Ms: percentile(latencies, 0.99),
      maxMs: latencies.at(-1) ?? Number.NaN,
      burstMs,
    };
  } finally {
    await parts.dispatcher.stop();
    await parts.ingest.close();
    parts.outbox.close();
    await parts.bus.close();
    await opened.cleanup();
  }
}
