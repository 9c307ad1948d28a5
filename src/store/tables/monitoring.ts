// Row types: organizations, their keys and relays, monitors and what their checks wrote.
// Times are epoch milliseconds; booleans are 0/1 integers; JSON is stored as text.
import type { ColumnType, Generated } from 'kysely';
import type { ManagedBy } from '../../domain/ownership.js';

export interface OrganizationsTable {
  id: string;
  key: string;
  name: string;
  /** null: the global WARDEN_PROBE_PRIVATE_TARGETS policy decides. */
  probe_private_targets: 'allow' | 'deny' | null;
  created_at: number;
  updated_at: number;
  /** 'config' once warden.yaml declares the organization; 'api' (the default) for one made through the API or sign-up. */
  managed_by: ColumnType<ManagedBy, ManagedBy | undefined, ManagedBy>;
  /** 1: its owners are mailed the monthly uptime report (docs/reports.md). */
  monthly_report: ColumnType<number, number | undefined, number>;
  /** The last month (YYYY-MM) whose report was mailed; null before the first. */
  monthly_report_month: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ApiKeysTable {
  id: string;
  organization_id: string;
  name: string;
  prefix: string;
  hash: string;
  scope: 'read' | 'write';
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  /** The user whose authority made it (no foreign key: kept after the user); null: the CLI, or made before 0010. */
  created_by: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface RelaysTable {
  id: string;
  organization_id: string;
  key: string;
  name: string;
  token_hash: string | null;
  token_prefix: string | null;
  last_seen_at: number | null;
  /** Set when the token was rotated through the API: the relay config withholds secrets set before then. */
  secrets_withheld_before: number | null;
  /** Since when the relay is known offline (its notice published); null while online. */
  offline_since: number | null;
  /** Key of the monitor the relay's monitors depend on unless they name their own (0023); null: none. */
  depends_on: ColumnType<string | null, string | null | undefined, string | null>;
  managed_by: ManagedBy;
  created_at: number;
  updated_at: number;
}

export interface MonitorsTable {
  id: string;
  organization_id: string;
  key: string;
  name: string;
  type: string;
  /** JSON, validated by the type's schema before it is written. */
  config: string;
  interval_sec: number;
  timeout_ms: number;
  run_on: 'edge' | 'relay' | 'push';
  relay_id: string | null;
  push_token_hash: string | null;
  push_token_prefix: string | null;
  enabled: number;
  /** When the monitor was last paused (enabled went to 0); null while it is enabled. */
  paused_at: ColumnType<number | null, number | null | undefined, number | null>;
  retries: number;
  degraded_latency_ms: number | null;
  state: 'up' | 'degraded' | 'down' | 'unknown';
  state_since: number;
  /** JSON array of the keys of the notification channels this monitor names; null: none. */
  notify: string | null;
  /** Consecutive failed checks, to apply `retries` before going down. */
  failure_streak: number;
  last_check_at: number | null;
  /** JSON of the latest result: { checkedAt, ok, latencyMs, message, error, data, source }. */
  last_result: string | null;
  /** When the secrets in `config` were last written in full (not kept from "[redacted]"). */
  secrets_set_at: number | null;
  managed_by: ManagedBy;
  created_at: number;
  updated_at: number;
  /** JSON array of short strings; '[]' when none. */
  tags: ColumnType<string, string | undefined, string>;
  /** JSON of the monitor's player alerts (domain/player-alerts.ts); null: none. */
  player_alerts: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON of their conditions' state, written by ingest with the monitor's state. */
  player_alerts_state: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON of the monitor's expected restart slots (domain/expected-restart.ts); null: none. */
  expected_restart: ColumnType<string | null, string | null | undefined, string | null>;
  /** Key of the monitor this one depends on (0023); null: none (or the relay's). */
  depends_on: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON array of the monitor's other locations ('edge', relay ids) (0028); null: its own place only. */
  locations: ColumnType<string | null, string | null | undefined, string | null>;
  /** Locations that must fail for the monitor to be down (0028); null: a majority of those heard from. */
  quorum: ColumnType<number | null, number | null | undefined, number | null>;
  /** JSON of each location's latest result (domain/vantage.ts), written by ingest with the state; null: none. */
  location_results: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ChecksTable {
  id: Generated<number>;
  monitor_id: string;
  checked_at: number;
  ok: number;
  latency_ms: number | null;
  message: string | null;
  error: string | null;
  /** JSON object or null. */
  data: string | null;
  source: 'edge' | 'relay' | 'push';
  /** Id a relay gives a result so a replayed batch is stored once. */
  result_id: string | null;
  /** Where it ran ('edge' or a relay id) for a monitor with several locations (0028); null: the monitor's own place. */
  location: ColumnType<string | null, string | null | undefined, string | null>;
}

/**
 * Checks committed but not yet folded into `checks` and the buckets (SQLite only: dialects/sqlite/check-journal.ts);
 * never a relay result with an id, which is stored in `checks` at once so a replay is seen.
 */
export interface CheckJournalTable {
  id: Generated<number>;
  monitor_id: string;
  checked_at: number;
  ok: number;
  /** The monitor showed as degraded with this result: its buckets count it. */
  degraded: number;
  latency_ms: number | null;
  message: string | null;
  error: string | null;
  data: string | null;
  source: 'edge' | 'relay' | 'push';
  /** A relay result's id (PostgreSQL journals relay results; SQLite stores them in `checks` at once). */
  result_id: string | null;
}

/** Hourly and daily rollups share this shape; `bucket_start` is the period's first millisecond (UTC). */
export interface CheckBucketsTable {
  monitor_id: string;
  bucket_start: number;
  count: number;
  up_count: number;
  degraded_count: number;
  latency_count: number;
  latency_sum: number;
  latency_min: number | null;
  latency_max: number | null;
  players_count: number;
  players_sum: number;
  players_max: number | null;
  players_min: ColumnType<number | null, number | null | undefined, number | null>;
  /** Latency histogram bins (domain/check.ts LATENCY_BIN_UPPER_MS); 0 by default. */
  latency_hist_0: ColumnType<number, number | undefined, number>;
  latency_hist_1: ColumnType<number, number | undefined, number>;
  latency_hist_2: ColumnType<number, number | undefined, number>;
  latency_hist_3: ColumnType<number, number | undefined, number>;
  latency_hist_4: ColumnType<number, number | undefined, number>;
  latency_hist_5: ColumnType<number, number | undefined, number>;
  latency_hist_6: ColumnType<number, number | undefined, number>;
  latency_hist_7: ColumnType<number, number | undefined, number>;
  latency_hist_8: ColumnType<number, number | undefined, number>;
  latency_hist_9: ColumnType<number, number | undefined, number>;
  latency_hist_10: ColumnType<number, number | undefined, number>;
  latency_hist_11: ColumnType<number, number | undefined, number>;
  latency_hist_12: ColumnType<number, number | undefined, number>;
  latency_hist_13: ColumnType<number, number | undefined, number>;
  latency_hist_14: ColumnType<number, number | undefined, number>;
  latency_hist_15: ColumnType<number, number | undefined, number>;
}

/** One location's checks of a multi-location monitor summed per hour (0029). */
export interface CheckLocationBucketsTable {
  monitor_id: string;
  location: string;
  bucket_start: number;
  count: number;
  up_count: number;
  latency_count: number;
  latency_sum: number;
  latency_min: number | null;
  latency_max: number | null;
}

/** A monitor's recent change of version, map or wipe (migration 0021); the id is the game.changed event's. */
export interface GameChangesTable {
  id: string;
  organization_id: string;
  monitor_id: string;
  field: string;
  from_value: string;
  to_value: string;
  at: number;
}

export interface MonitorStateChangesTable {
  id: string;
  monitor_id: string;
  at: number;
  from_state: string;
  to_state: string;
  message: string | null;
}
