// Row types of every table. Times are epoch milliseconds; booleans are 0/1 integers; JSON is stored as text.
import type { ColumnType, Generated, Kysely } from 'kysely';
import type { AccountTokenPurpose, EmailLinkPurpose, Role } from '../domain/account.js';
import type { ManagedBy } from '../domain/ownership.js';

/** The database a store runs on. */
export type Dialect = 'sqlite' | 'postgres';

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

export interface PagesTable {
  id: string;
  organization_id: string;
  slug: string;
  title: string;
  description: string | null;
  custom_domain: string | null;
  /** The token `_warden.<domain>` must hold as a TXT record; null for domains from config. */
  custom_domain_token: string | null;
  /** When the domain was last found verified; null until then (config's domains are verified when written). */
  custom_domain_verified_at: number | null;
  /** When the TXT record was last looked up (the daily re-check). */
  custom_domain_checked_at: number | null;
  password_hash: string | null;
  ai_policy: 'allow' | 'disallow';
  /** JSON array of the keys of the notification channels this page names; null: none. */
  notify: string | null;
  /** 1: visitors may subscribe to the page's incidents and maintenance. */
  subscriptions: ColumnType<number, number | undefined, number>;
  /** null: each reader's language. */
  language: string | null;
  time_zone: ColumnType<string, string | undefined, string>;
  /** JSON PageBranding. */
  branding: ColumnType<string, string | undefined, string>;
  custom_css: string | null;
  managed_by: ManagedBy;
  created_at: number;
  updated_at: number;
}

export interface PageAssetsTable {
  page_id: string;
  name: string;
  content_type: string;
  /** Base64 of the bytes. */
  body: string;
  /** SHA-256 hex of the bytes. */
  digest: string;
  size: number;
  updated_at: number;
}

export interface ComponentsTable {
  id: string;
  page_id: string;
  /** Stable key within the page (the config's `key`, else its name). */
  key: string;
  name: string;
  description: string | null;
  group_name: string | null;
  sort_order: number;
  monitor_id: string | null;
  managed_by: ManagedBy;
  created_at: number;
  updated_at: number;
}

export interface IncidentsTable {
  id: string;
  page_id: string;
  key: string | null;
  title: string;
  status: 'investigating' | 'identified' | 'monitoring' | 'resolved';
  impact: 'none' | 'minor' | 'major' | 'critical';
  started_at: number;
  resolved_at: number | null;
  managed_by: ManagedBy;
  created_at: number;
  updated_at: number;
}

export interface IncidentUpdatesTable {
  id: string;
  incident_id: string;
  status: 'investigating' | 'identified' | 'monitoring' | 'resolved';
  message: string;
  created_at: number;
}

export interface IncidentComponentsTable {
  incident_id: string;
  component_id: string;
}

export interface MaintenanceTable {
  id: string;
  page_id: string;
  key: string | null;
  title: string;
  description: string | null;
  starts_at: number;
  ends_at: number;
  /** When the "started" / "ended" notices were published; null until then. */
  started_notice_at: number | null;
  ended_notice_at: number | null;
  managed_by: ManagedBy;
  created_at: number;
  updated_at: number;
}

export interface MaintenanceComponentsTable {
  maintenance_id: string;
  component_id: string;
}

export interface NotificationChannelsTable {
  id: string;
  organization_id: string;
  key: string;
  name: string;
  type: string;
  /** JSON, checked by the channel type's schema before it is written. */
  config: string;
  /** JSON: { events?: kinds[], monitors?: keys[] } (all when absent). */
  rules: string;
  enabled: number;
  managed_by: ManagedBy;
  created_at: number;
  updated_at: number;
}

export interface NotificationDeliveriesTable {
  id: string;
  /** The event's stable id (the receiver's dedupe key); one delivery per event and channel. */
  event_id: string;
  /** The channel it goes to, or null for a page subscriber's (exactly one of the two is set). */
  channel_id: string | null;
  subscriber_id: string | null;
  organization_id: string;
  monitor_id: string | null;
  kind: string;
  /** JSON of the NotificationEvent as it is sent. */
  event: string;
  status: 'pending' | 'sending' | 'sent' | 'dead' | 'skipped';
  attempts: number;
  next_attempt_at: number;
  /** While sending: when the claim lapses and another sender may take it (a crashed sender's). */
  claimed_until: number | null;
  last_error: string | null;
  last_status: number | null;
  last_answer: string | null;
  created_at: number;
  sent_at: number | null;
}

/** A connection or a transaction: what every repository runs its queries on. */
export type Db = Kysely<Database>;

export interface ChangeCounterTable {
  id: number;
  version: number;
}

export interface Database {
  change_counter: ChangeCounterTable;
  organizations: OrganizationsTable;
  api_keys: ApiKeysTable;
  relays: RelaysTable;
  monitors: MonitorsTable;
  checks: ChecksTable;
  check_journal: CheckJournalTable;
  check_buckets_hourly: CheckBucketsTable;
  check_buckets_daily: CheckBucketsTable;
  pages: PagesTable;
  page_assets: PageAssetsTable;
  components: ComponentsTable;
  incidents: IncidentsTable;
  incident_updates: IncidentUpdatesTable;
  incident_components: IncidentComponentsTable;
  maintenance: MaintenanceTable;
  maintenance_components: MaintenanceComponentsTable;
  notification_channels: NotificationChannelsTable;
  notification_deliveries: NotificationDeliveriesTable;
  page_subscribers: PageSubscribersTable;
  channel_recipients: ChannelRecipientsTable;
  cluster_instances: ClusterInstancesTable;
  cluster_leases: ClusterLeasesTable;
  users: UsersTable;
  user_sessions: UserSessionsTable;
  user_recovery_codes: UserRecoveryCodesTable;
  user_identities: UserIdentitiesTable;
  memberships: MembershipsTable;
  invitations: InvitationsTable;
  account_tokens: AccountTokensTable;
  email_links: EmailLinksTable;
  server_secrets: ServerSecretsTable;
  audit_log: AuditLogTable;
  monitor_state_changes: MonitorStateChangesTable;
}

export interface ClusterInstancesTable {
  id: string;
  started_at: number;
  seen_at: number;
  /** JSON: version, address, what the instance runs. */
  info: string;
}

/** A shard of the edge monitors (`shard:000`…) or a singleton (`singleton:watchdog`), held by one instance until it lapses. */
export interface ClusterLeasesTable {
  name: string;
  holder: string | null;
  expires_at: number;
  acquired_at: number | null;
}

export interface PageSubscribersTable {
  id: string;
  organization_id: string;
  page_id: string;
  kind: 'email' | 'webhook';
  /** The email address (lower-cased) or the webhook URL. */
  address: string;
  /** A webhook subscriber's signing secret (whsec_…). */
  secret: string | null;
  /** SHA-256 (hex) of the double opt-in token; null once confirmed. */
  confirm_token_hash: string | null;
  unsubscribe_token: string;
  confirmed_at: number | null;
  /** An unconfirmed subscription is deleted after this; null once confirmed. */
  expires_at: number | null;
  requested_by: string | null;
  created_at: number;
}

/** An address of an organization's channels on the system SMTP server: its double opt-in, or its unsubscribe. */
export interface ChannelRecipientsTable {
  id: string;
  organization_id: string;
  /** Lower-cased. */
  address: string;
  /** SHA-256 (hex) of the last confirmation link's token; null when none is live. */
  confirm_token_hash: string | null;
  unsubscribe_token: string;
  confirmed_at: number | null;
  unsubscribed_at: number | null;
  asked_at: number | null;
  expires_at: number | null;
  created_at: number;
}

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  password_hash: string | null;
  totp_secret: string | null;
  totp_enabled_at: number | null;
  /** The TOTP time step last accepted (replay protection); null before the first. */
  totp_last_step: number | null;
  email_verified_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface UserSessionsTable {
  id: string;
  user_id: string;
  hash: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  user_agent: string | null;
  address: string | null;
  proven_at: number | null;
}

export interface UserRecoveryCodesTable {
  user_id: string;
  hash: string;
  used_at: number | null;
}

export interface UserIdentitiesTable {
  issuer: string;
  subject: string;
  user_id: string;
  email: string;
  created_at: number;
}

export interface MembershipsTable {
  organization_id: string;
  user_id: string;
  role: Role;
  created_at: number;
}

export interface InvitationsTable {
  id: string;
  organization_id: string;
  email: string | null;
  role: Role;
  hash: string;
  created_by: string | null;
  created_at: number;
  expires_at: number;
  accepted_at: number | null;
  accepted_by: string | null;
  revoked_at: number | null;
}

export interface AccountTokensTable {
  hash: string;
  purpose: AccountTokenPurpose;
  user_id: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface EmailLinksTable {
  hash: string;
  purpose: EmailLinkPurpose;
  user_id: string | null;
  email: string;
  name: string | null;
  password_hash: string | null;
  invitation_hash: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
  created_at: number;
}

export interface AuditLogTable {
  id: string;
  organization_id: string;
  at: number;
  actor_kind: 'user' | 'apiKey' | 'system';
  actor_id: string;
  actor_name: string;
  action: string;
  object_type: string;
  object_id: string | null;
  object_label: string | null;
  detail: string | null;
}

export interface MonitorStateChangesTable {
  id: string;
  monitor_id: string;
  at: number;
  from_state: string;
  to_state: string;
  message: string | null;
}
