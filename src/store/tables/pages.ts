// Row types: status pages and what they show: components, incidents, maintenance, assets, subscribers.
// Times are epoch milliseconds; booleans are 0/1 integers; JSON is stored as text.
import type { ColumnType } from 'kysely';
import type { ManagedBy } from '../../domain/ownership.js';

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
  /** 1: the page shows the names of the players online (README.md, "Who is online"). */
  show_player_names: ColumnType<number, number | undefined, number>;
  /** 1: the page, its feed and its subscribers carry its monitors' game changes (migration 0021). */
  announce_game_changes: ColumnType<number, number | undefined, number>;
  /** 1: the page publishes its uptime history (docs/reports.md). */
  publish_uptime_history: ColumnType<number, number | undefined, number>;
  show_unreachable: ColumnType<number, number | undefined, number>;
  /** JSON DraftIncidentSetting (migration 0026); null: the page drafts no incidents. */
  draft_incidents: ColumnType<string | null, string | null | undefined, string | null>;
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
  /** The join button: null derives it from the monitor, 'hidden', or JSON { address?, url? } (0016). */
  join_button: string | null;
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
  /** A recurring window's slots, JSON (domain/recurrence.ts); null for a one-off window. */
  recurrence: string | null;
  /** Start of the latest occurrence whose "started" / "ended" notice was published (recurring windows). */
  started_occurrence: number | null;
  ended_occurrence: number | null;
  /** 1: the window's start and end are announced to channels and subscribers; 0: quiet (panel restarts). */
  announce: ColumnType<number, number | undefined, number>;
  managed_by: ManagedBy;
  created_at: number;
  updated_at: number;
}

export interface MaintenanceComponentsTable {
  maintenance_id: string;
  component_id: string;
}

/** Monitors a window covers directly, wherever they are shown. */
export interface MaintenanceMonitorsTable {
  maintenance_id: string;
  monitor_id: string;
}

export interface PageSubscribersTable {
  id: string;
  organization_id: string;
  page_id: string;
  kind: 'email' | 'webhook';
  /** What a webhook gets: Warden's signed JSON, or a Discord or Slack message (0019); `warden` for email. */
  format: 'warden' | 'discord' | 'slack';
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

/** Draft incidents of a page's components (migration 0026): one per component and spell. */
export interface IncidentDraftsTable {
  id: string;
  organization_id: string;
  page_id: string;
  component_id: string;
  down_since: number;
  title: string;
  message: string;
  status: 'draft' | 'published' | 'discarded';
  discarded_reason: 'recovered' | 'operator' | null;
  incident_id: string | null;
  created_at: number;
  updated_at: number;
}
