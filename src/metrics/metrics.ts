// Prometheus metrics (prom-client) of one Warden process: a registry of its own, and what the running parts record in it.
// Loaded only when metrics are on (WARDEN_METRICS_TOKEN or WARDEN_METRICS_PORT): otherwise nothing records anything.
import { Counter, collectDefaultMetrics, Gauge, Histogram, type Metric, Registry } from 'prom-client';
import type { DatabasePoolUse } from '../store/index.js';
import { precountedHttpRoutes } from './http-routes.js';
import type {
  CheckOutcome,
  DeliveryOutcome,
  HttpRoute,
  PushOutcome,
  RelayResultOutcome,
  WardenMetrics,
} from './recorder.js';

/** Histogram buckets, in seconds (or results per commit), chosen for what each measures. */
export const METRIC_BUCKETS = {
  checkDuration: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  checkLateness: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60],
  commitDuration: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  batchSize: [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2000],
  httpDuration: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
} as const;

/**
 * A registry of its own (tests build many servers in one process; the global default registry would mix them), with
 * the process metrics of prom-client (`process_*`, `nodejs_*`) and Warden's own (`warden_*`, docs/operations.md).
 */
export function createMetrics(): WardenMetrics {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });

  const checks = new Counter({
    name: 'warden_checks_total',
    help: 'Edge checks run, by monitor type and outcome (up, degraded, down).',
    labelNames: ['type', 'outcome'],
    registers,
  });
  const checkDuration = new Histogram({
    name: 'warden_check_duration_seconds',
    help: 'How long an edge check took, from its start to its result, by monitor type.',
    labelNames: ['type'],
    buckets: [...METRIC_BUCKETS.checkDuration],
    registers,
  });
  const checkLateness = new Histogram({
    name: 'warden_check_lateness_seconds',
    help: 'How long after its due time an edge check started (waiting for a free slot of WARDEN_CONCURRENCY, or a busy event loop).',
    buckets: [...METRIC_BUCKETS.checkLateness],
    registers,
  });
  const commitDuration = new Histogram({
    name: 'warden_ingest_commit_duration_seconds',
    help: 'How long one ingest transaction (a batch of results stored, states derived, notifications enqueued) took.',
    buckets: [...METRIC_BUCKETS.commitDuration],
    registers,
  });
  const batchSize = new Histogram({
    name: 'warden_ingest_batch_size',
    help: 'Results and silences committed in one ingest transaction.',
    buckets: [...METRIC_BUCKETS.batchSize],
    registers,
  });
  const pushes = new Counter({
    name: 'warden_pushes_total',
    help: 'Heartbeats received, by outcome: accepted, or why they were refused.',
    labelNames: ['outcome'],
    registers,
  });
  const relayResults = new Counter({
    name: 'warden_relay_results_total',
    help: 'Results sent by relays, by outcome: accepted, duplicate, or why they were refused.',
    labelNames: ['outcome'],
    registers,
  });
  const deliveries = new Counter({
    name: 'warden_notification_deliveries_total',
    help: 'Notification delivery attempts, by channel type and outcome (sent, retry, dead, skipped).',
    labelNames: ['channel', 'outcome'],
    registers,
  });

  const { sources, poolGauges } = watchedGauges(registers);

  const http = precountedHttpRoutes(METRIC_BUCKETS.httpDuration);
  for (const collector of http.collectors) registry.registerMetric(collector as unknown as Metric);

  const checkOf = memoized((key) => {
    const [type, outcome] = key.split('\u0000') as [string, string];
    return checks.labels(type, outcome);
  });
  const durationOf = memoized((type) => checkDuration.labels(type));
  const pushOf = memoized((outcome) => pushes.labels(outcome));
  const relayOf = memoized((outcome) => relayResults.labels(outcome));
  const deliveryOf = memoized((key) => {
    const [channel, outcome] = key.split('\u0000') as [string, string];
    return deliveries.labels(channel, outcome);
  });

  return {
    contentType: registry.contentType,
    scrape: () => registry.metrics(),
    checkRan(type: string, outcome: CheckOutcome, durationMs: number, latenessMs: number) {
      checkOf(`${type}\u0000${outcome}`).inc();
      durationOf(type).observe(durationMs / 1000);
      checkLateness.observe(Math.max(0, latenessMs) / 1000);
    },
    ingestCommitted(results: number, durationMs: number) {
      batchSize.observe(results);
      commitDuration.observe(durationMs / 1000);
    },
    push(outcome: PushOutcome) {
      pushOf(outcome).inc();
    },
    relayResults(outcome: RelayResultOutcome, count: number) {
      if (count > 0) relayOf(outcome).inc(count);
    },
    delivery(channelType: string, outcome: DeliveryOutcome) {
      deliveryOf(`${channelType}\u0000${outcome}`).inc();
    },
    httpRoute: (route: string): HttpRoute => http.route(route),
    watchIngestQueue(depth) {
      sources.ingestQueue = depth;
    },
    watchLiveClients(count) {
      sources.liveClients = count;
    },
    watchPageCache(bytes) {
      sources.pageCache = bytes;
    },
    watchDatabasePool(use) {
      if (use() === null) return;
      sources.databasePool = use;
      for (const gauge of poolGauges) registry.registerMetric(gauge);
    },
  };
}

type Sources = {
  ingestQueue?: () => number;
  liveClients?: () => number;
  pageCache?: () => number;
  databasePool?: () => DatabasePoolUse | null;
};

/**
 * The gauges read at scrape time from what the parts say to watch (`sources`, set by the watch… calls); the pool's are
 * registered only once a PostgreSQL pool is watched.
 */
function watchedGauges(registers: Registry[]): { sources: Sources; poolGauges: Gauge[] } {
  const sources: Sources = {};
  new Gauge({
    name: 'warden_ingest_queue_depth',
    help: 'Results waiting to be committed by the ingest path.',
    registers,
    collect() {
      this.set(sources.ingestQueue?.() ?? 0);
    },
  });
  new Gauge({
    name: 'warden_live_clients',
    help: 'Open live-stream WebSocket connections (page streams and the dashboard’s).',
    registers,
    collect() {
      this.set(sources.liveClients?.() ?? 0);
    },
  });
  new Gauge({
    name: 'warden_page_cache_bytes',
    help: 'Bytes held by the rendered forms of the status pages in memory (bodies and their compressed variants), bounded by WARDEN_PAGE_CACHE_MB.',
    registers,
    collect() {
      this.set(sources.pageCache?.() ?? 0);
    },
  });
  // PostgreSQL only: SQLite is one connection in the process, with nothing to wait for but its own write lock.
  const pool = (name: string, help: string, read: (use: DatabasePoolUse) => number) =>
    new Gauge({
      name,
      help,
      registers: [],
      collect() {
        const use = sources.databasePool?.();
        if (use) this.set(read(use));
      },
    });
  const poolGauges = [
    pool('warden_database_pool_connections', 'PostgreSQL connections open in the pool.', (u) => u.total),
    pool('warden_database_pool_idle', 'PostgreSQL connections open and idle.', (u) => u.idle),
    pool('warden_database_pool_waiting', 'Queries waiting for a PostgreSQL connection.', (u) => u.waiting),
    pool('warden_database_pool_max', 'The most PostgreSQL connections the pool opens.', (u) => u.max),
  ];
  return { sources, poolGauges };
}

/** Each label combination's child, made once: a check or a push builds no label object. */
function memoized<T>(make: (key: string) => T): (key: string) => T {
  const made = new Map<string, T>();
  return (key: string): T => {
    let child = made.get(key);
    if (child === undefined) {
      child = make(key);
      made.set(key, child);
    }
    return child;
  };
}
