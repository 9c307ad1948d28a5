// HTTP requests by route label and status class, and their durations: counted in plain arrays, read by prom-client at scrape.
//
// Why not prom-client's own Counter and Histogram here: their `labels(…)` children re-hash the label values on every
// inc()/observe() (about 0.7 µs a request, measured), and the cached-read fast path answers in a few microseconds.
// One route's counts are a few fixed arrays made with the label; recording is two array increments and an addition.

/** The collectors Registry.registerMetric takes: a name, and values in prom-client's shape when asked. */
export interface PrecountedCollector {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  get(): Promise<{
    name: string;
    help: string;
    type: 'counter' | 'histogram';
    aggregator: 'sum';
    values: PrecountedValue[];
  }>;
  reset(): void;
}

interface PrecountedValue {
  metricName?: string;
  labels: Record<string, string | number>;
  value: number;
}

const STATUS_CLASSES = ['other', '1xx', '2xx', '3xx', '4xx', '5xx'] as const;

class RouteCounts {
  /** Answers by status class, indexed by the status's first digit (0: anything outside 100–599). */
  readonly byClass = new Float64Array(STATUS_CLASSES.length);
  /** Durations per bucket (not cumulative): index i counts those ≤ bounds[i] and > bounds[i-1]; the last, the rest. */
  readonly buckets: Float64Array;
  sum = 0;

  constructor(
    readonly route: string,
    private readonly bounds: readonly number[],
  ) {
    this.buckets = new Float64Array(bounds.length + 1);
  }

  record(status: number, seconds: number): void {
    const kind = (status / 100) | 0;
    this.byClass[kind >= 1 && kind <= 5 ? kind : 0]! += 1;
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && seconds > (bounds[i] as number)) i++;
    this.buckets[i]! += 1;
    this.sum += seconds;
  }

  reset(): void {
    this.byClass.fill(0);
    this.buckets.fill(0);
    this.sum = 0;
  }
}

export function precountedHttpRoutes(bounds: readonly number[]): {
  route(label: string): RouteCounts;
  collectors: PrecountedCollector[];
} {
  const routes = new Map<string, RouteCounts>();
  const collector = (
    name: string,
    help: string,
    type: 'counter' | 'histogram',
    values: () => PrecountedValue[],
  ): PrecountedCollector => ({
    name,
    help,
    type,
    aggregator: 'sum',
    get: async () => ({ name, help, type, aggregator: 'sum', values: values() }),
    // Zeroed in place: the fast path holds its routes' counts from start-up.
    reset: () => {
      for (const counts of routes.values()) counts.reset();
    },
  });
  const requests = collector(
    'warden_http_requests_total',
    'HTTP requests answered, by route (its template, or fast:… for the pre-router) and status class.',
    'counter',
    () => {
      const values: PrecountedValue[] = [];
      for (const counts of routes.values())
        counts.byClass.forEach((value, kind) => {
          if (value > 0)
            values.push({ labels: { route: counts.route, status: STATUS_CLASSES[kind] as string }, value });
        });
      return values;
    },
  );
  const durations = collector(
    'warden_http_request_duration_seconds',
    'How long answering an HTTP request took, by route.',
    'histogram',
    () => {
      const values: PrecountedValue[] = [];
      for (const counts of routes.values()) {
        if (counts.byClass.every((n) => n === 0)) continue; // a fast path made at start-up that answered nothing yet
        let cumulative = 0;
        bounds.forEach((bound, i) => {
          cumulative += counts.buckets[i] as number;
          values.push({
            metricName: 'warden_http_request_duration_seconds_bucket',
            labels: { route: counts.route, le: bound },
            value: cumulative,
          });
        });
        cumulative += counts.buckets[bounds.length] as number;
        values.push({
          metricName: 'warden_http_request_duration_seconds_bucket',
          labels: { route: counts.route, le: '+Inf' },
          value: cumulative,
        });
        values.push({
          metricName: 'warden_http_request_duration_seconds_sum',
          labels: { route: counts.route },
          value: counts.sum,
        });
        values.push({
          metricName: 'warden_http_request_duration_seconds_count',
          labels: { route: counts.route },
          value: cumulative,
        });
      }
      return values;
    },
  );
  return {
    route(label) {
      let counts = routes.get(label);
      if (!counts) {
        counts = new RouteCounts(label, bounds);
        routes.set(label, counts);
      }
      return counts;
    },
    collectors: [requests, durations],
  };
}
