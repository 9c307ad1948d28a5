// HTTP load generation for benchmarks (autocannon), reporting throughput and latency percentiles.
import autocannon from 'autocannon';

export interface LoadOptions {
  url: string;
  connections?: number;
  durationSec?: number;
  /** Requests to send, then stop (instead of a duration). */
  amount?: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Builds each request, for bodies or paths that vary. */
  setupRequest?: (request: {
    method?: string;
    path?: string;
    body?: string | Buffer;
    headers?: Record<string, string>;
  }) => typeof request;
}

export interface LoadResult {
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  errors: number;
  non2xx: number;
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    url: options.url,
    connections: options.connections ?? 50,
    ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.durationSec ?? 10 }),
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    ...(options.setupRequest ? { requests: [{ setupRequest: options.setupRequest }] } : {}),
  } as autocannon.Options);
  return {
    requestsPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

export function formatLoad(label: string, r: LoadResult): string {
  return `${label.padEnd(34)} ${Math.round(r.requestsPerSec).toString().padStart(7)} req/s  p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms  (${r.total} requests, ${r.errors} errors, ${r.non2xx} non-2xx)`;
}

/** The middle value (the mean of the two middle ones for an even count). */
export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};
