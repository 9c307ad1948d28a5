// What the running parts tell the metrics (metrics.ts): a type only, so a server without metrics never loads prom-client.
import type { DatabasePoolUse } from '../store/index.js';

/** An edge check's outcome: passed, passed but degraded, or failed. */
export type CheckOutcome = 'up' | 'degraded' | 'down';
/** A heartbeat accepted, or why it was refused. */
export type PushOutcome =
  | 'accepted'
  | 'rate_limited'
  | 'unknown_token'
  | 'invalid'
  | 'too_large'
  | 'overloaded'
  | 'unavailable'
  | 'error';
/** A relay's result stored (or already stored: a duplicate), or why it was refused. */
export type RelayResultOutcome = 'accepted' | 'duplicate' | 'invalid' | 'not_assigned' | 'out_of_window';
/** A notification delivery attempt: sent, to be retried, given up (dead), or skipped by the channel's rules. */
export type DeliveryOutcome = 'sent' | 'retry' | 'dead' | 'skipped';

/** One route label's counts: made once per label, so an answered request records without allocating. */
export interface HttpRoute {
  record(status: number, seconds: number): void;
}

export interface WardenMetrics {
  /** The Content-Type of the scrape (Prometheus text format 0.0.4). */
  readonly contentType: string;
  /** Every metric of this process, in the Prometheus text format. */
  scrape(): Promise<string>;
  checkRan(type: string, outcome: CheckOutcome, durationMs: number, latenessMs: number): void;
  ingestCommitted(results: number, durationMs: number): void;
  push(outcome: PushOutcome): void;
  relayResults(outcome: RelayResultOutcome, count: number): void;
  delivery(channelType: string, outcome: DeliveryOutcome): void;
  /**
   * The counts of one bounded route label (a route template such as `/api/v1/status/:slug`, or `fast:page-json`):
   * never a raw URL, whose every variant would be a series of its own.
   */
  httpRoute(route: string): HttpRoute;
  /** Gauges read when scraped: nothing is counted in between. */
  watchIngestQueue(depth: () => number): void;
  watchLiveClients(count: () => number): void;
  /** The bytes the rendered forms of every page hold (bodies and compressed variants), within WARDEN_PAGE_CACHE_MB. */
  watchPageCache(bytes: () => number): void;
  /** PostgreSQL's pool; a store without a pool (SQLite, `use()` null) adds no gauge. */
  watchDatabasePool(use: () => DatabasePoolUse | null): void;
}
