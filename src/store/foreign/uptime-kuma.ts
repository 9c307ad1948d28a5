// Reads an Uptime Kuma SQLite database (1.23 or 2.x), read-only, as plain rows for `warden import uptime-kuma`.
// Kuma adds columns release by release (db/patch-*.sql up to 1.23, db/knex_migrations/ in 2.x): each table's columns are
// read from PRAGMA table_info, and a column this file lacks reads as null.
import SqliteDatabase from 'better-sqlite3';

/** A cell as SQLite returns it. */
export type KumaValue = string | number | null;

/** One monitor; every column Warden's mapping reads, null when absent from this version's schema. */
export interface KumaMonitorRow {
  id: number;
  name: string;
  type: string;
  active: boolean;
  parent: number | null;
  weight: number | null;
  description: string | null;
  url: string | null;
  hostname: string | null;
  port: number | null;
  /** Seconds between checks. */
  interval: number | null;
  /** Seconds; 0 (or absent) means 80 % of the interval. */
  timeout: number | null;
  maxretries: number | null;
  /** Seconds between checks while a monitor is pending. */
  retry_interval: number | null;
  /** Down beats between repeated notifications (0: never). */
  resend_interval: number | null;
  accepted_statuscodes_json: string | null;
  ignore_tls: boolean;
  upside_down: boolean;
  maxredirects: number | null;
  method: string | null;
  body: string | null;
  headers: string | null;
  http_body_encoding: string | null;
  auth_method: string | null;
  basic_auth_user: string | null;
  basic_auth_pass: string | null;
  bearer_token: string | null;
  oauth_client_id: string | null;
  tls_cert: string | null;
  proxy_id: number | null;
  cache_bust: boolean;
  expiry_notification: boolean | null;
  keyword: string | null;
  invert_keyword: boolean;
  json_path: string | null;
  /** 2.x; 1.23 compares with "==". */
  json_path_operator: string | null;
  expected_value: string | null;
  dns_resolve_type: string | null;
  dns_resolve_server: string | null;
  /** 2.x: a JSON array of condition expressions (DNS and others). */
  conditions: string | null;
  game: string | null;
  gamedig_given_port_only: boolean | null;
  gamedig_token: string | null;
  push_token: string | null;
  smtp_security: string | null;
  expected_tls_alert: string | null;
}

export interface KumaTagRow {
  monitor_id: number;
  name: string;
  value: string | null;
}

export interface KumaStatusPageRow {
  id: number;
  slug: string;
  title: string;
  description: string | null;
  footer_text: string | null;
  custom_css: string | null;
  published: boolean;
  password: string | null;
  icon: string | null;
  /** 1.23: google_analytics_tag_id; 2.x: analytics_id. */
  analytics_id: string | null;
}

/** A section of a status page (Kuma's `group` table), in page order. */
export interface KumaPageGroupRow {
  id: number;
  status_page_id: number;
  name: string;
  public: boolean;
  weight: number;
}

/** A monitor listed in a section of a status page (`monitor_group`). */
export interface KumaPageGroupMonitorRow {
  group_id: number;
  monitor_id: number;
  weight: number;
}

export interface KumaCustomDomainRow {
  status_page_id: number;
  domain: string;
}

export interface KumaIncidentRow {
  id: number;
  status_page_id: number | null;
  title: string;
  content: string;
  style: string | null;
  created_date: string | null;
  last_updated_date: string | null;
  pin: boolean;
  active: boolean;
}

export interface KumaMaintenanceRow {
  id: number;
  title: string;
  description: string | null;
  active: boolean;
  /** manual, single, recurring-interval, recurring-weekday, recurring-day-of-month, cron. */
  strategy: string;
  /** Local time of `timezone` ("YYYY-MM-DD HH:mm[:ss]"). */
  start_date: string | null;
  end_date: string | null;
  /** An IANA zone, "UTC", "SAME_AS_SERVER" or null (UTC). */
  timezone: string | null;
  cron: string | null;
  /** Seconds (cron strategy). */
  duration: number | null;
}

export interface KumaNotificationRow {
  id: number;
  name: string | null;
  active: boolean;
  is_default: boolean;
  /** JSON: { type, …provider fields }. */
  config: string | null;
}

export interface KumaLink {
  left: number;
  right: number;
}

/** Everything `warden import uptime-kuma` maps, except heartbeats (read per monitor, streamed). */
export interface KumaData {
  /** 2.x databases carry knex's migration table; 1.23 ones do not. */
  schema: '1.23' | '2.x';
  monitors: KumaMonitorRow[];
  tags: KumaTagRow[];
  statusPages: KumaStatusPageRow[];
  pageGroups: KumaPageGroupRow[];
  pageGroupMonitors: KumaPageGroupMonitorRow[];
  customDomains: KumaCustomDomainRow[];
  incidents: KumaIncidentRow[];
  maintenance: KumaMaintenanceRow[];
  /** maintenance id → monitor id. */
  maintenanceMonitors: KumaLink[];
  /** maintenance id → status page id. */
  maintenancePages: KumaLink[];
  notifications: KumaNotificationRow[];
  /** monitor id → notification id. */
  monitorNotifications: KumaLink[];
}

/** One heartbeat: 0 down, 1 up, 2 pending, 3 maintenance; `ping` in milliseconds. */
export interface KumaHeartbeat {
  at: number;
  status: number;
  ping: number | null;
}

export interface KumaDatabase {
  read(): KumaData;
  /** A monitor's heartbeats at or after `since` (epoch ms), oldest first, one at a time (a database holds millions). */
  heartbeats(monitorId: number, since: number): IterableIterator<KumaHeartbeat>;
  close(): void;
}

export class NotKumaDatabaseError extends Error {}

/** Opens `file` read-only; throws NotKumaDatabaseError when it is not an Uptime Kuma database. */
export function openUptimeKumaDatabase(file: string): KumaDatabase {
  let database: SqliteDatabase.Database;
  try {
    database = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
    database.pragma('query_only = ON');
  } catch (error) {
    throw new NotKumaDatabaseError(`${file}: cannot be opened as SQLite (${(error as Error).message})`);
  }
  const columnsOf = (table: string): Set<string> => {
    try {
      return new Set((database.prepare(`select name from pragma_table_info(?)`).all(table) as { name: string }[]).map((c) => c.name));
    } catch (error) {
      throw new NotKumaDatabaseError(`${file}: cannot be read as SQLite (${(error as Error).message})`);
    }
  };
  if (!columnsOf('monitor').has('type') || !columnsOf('heartbeat').has('monitor_id')) {
    database.close();
    throw new NotKumaDatabaseError(`${file}: not an Uptime Kuma database (no monitor and heartbeat tables)`);
  }
  /** Rows of `table` with exactly `wanted` keys; a column the table lacks (or a missing table) reads as null. */
  const select = (table: string, wanted: readonly string[], rename: Record<string, string> = {}, order = 'id'): Record<string, KumaValue>[] => {
    const have = columnsOf(table);
    if (have.size === 0) return [];
    const list = wanted.map((name) => {
      const source = have.has(name) ? name : rename[name] !== undefined && have.has(rename[name]) ? rename[name] : undefined;
      return source === undefined ? `null as "${name}"` : `"${source}" as "${name}"`;
    });
    return database.prepare(`select ${list.join(', ')} from "${table}" order by ${order}`).all() as Record<string, KumaValue>[];
  };
  const links = (table: string, left: string, right: string): KumaLink[] =>
    select(table, [left, right], {}, 'rowid').map((r) => ({ left: Number(r[left]), right: Number(r[right]) }));
  const heartbeatQuery = database.prepare('select time, status, ping from heartbeat where monitor_id = ? and time >= ? order by time');

  return {
    read() {
      return {
        schema: columnsOf('knex_migrations').size > 0 ? '2.x' : '1.23',
        monitors: select('monitor', MONITOR_COLUMNS).map((r) => typed(r, MONITOR_BOOLEANS) as unknown as KumaMonitorRow),
        tags:
          columnsOf('monitor_tag').size > 0 && columnsOf('tag').size > 0
            ? (database
                .prepare('select monitor_tag.monitor_id as monitor_id, tag.name as name, monitor_tag.value as value from monitor_tag join tag on tag.id = monitor_tag.tag_id order by monitor_tag.id')
                .all() as KumaTagRow[])
            : [],
        statusPages: select('status_page', PAGE_COLUMNS, { analytics_id: 'google_analytics_tag_id' }).map(
          (r) => typed(r, ['published']) as unknown as KumaStatusPageRow,
        ),
        pageGroups: select('group', ['id', 'status_page_id', 'name', 'public', 'weight'], {}, 'weight, id').map(
          (r) => typed(r, ['public']) as unknown as KumaPageGroupRow,
        ),
        pageGroupMonitors: select('monitor_group', ['group_id', 'monitor_id', 'weight'], {}, 'weight, id') as unknown as KumaPageGroupMonitorRow[],
        customDomains: select('status_page_cname', ['status_page_id', 'domain']) as unknown as KumaCustomDomainRow[],
        incidents: select('incident', INCIDENT_COLUMNS).map((r) => typed(r, ['pin', 'active']) as unknown as KumaIncidentRow),
        maintenance: select('maintenance', MAINTENANCE_COLUMNS).map((r) => typed(r, ['active']) as unknown as KumaMaintenanceRow),
        maintenanceMonitors: links('monitor_maintenance', 'maintenance_id', 'monitor_id'),
        maintenancePages: links('maintenance_status_page', 'maintenance_id', 'status_page_id'),
        notifications: select('notification', ['id', 'name', 'active', 'is_default', 'config']).map(
          (r) => typed(r, ['active', 'is_default']) as unknown as KumaNotificationRow,
        ),
        monitorNotifications: links('monitor_notification', 'monitor_id', 'notification_id'),
      };
    },
    *heartbeats(monitorId, since) {
      for (const row of heartbeatQuery.iterate(monitorId, kumaTime(since)) as Iterable<{ time: string; status: number; ping: number | null }>) {
        const at = parseKumaTime(row.time);
        if (at === null) continue;
        yield { at, status: Number(row.status), ping: row.ping === null ? null : Number(row.ping) };
      }
    },
    close() {
      database.close();
    },
  };
}

/** Kuma writes times as UTC text, "YYYY-MM-DD HH:mm:ss.SSS" (older rows without milliseconds); null when unreadable. */
export function parseKumaTime(text: string | null): number | null {
  if (text === null) return null;
  const iso = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text) ? `${text.replace(' ', 'T')}Z` : text;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : null;
}

/** A time as Kuma's text, so `time >= ?` compares in its own format (and uses its monitor/time index). */
function kumaTime(ms: number): string {
  return new Date(Math.max(0, ms)).toISOString().replace('T', ' ').replace('Z', '');
}

function typed(row: Record<string, KumaValue>, booleans: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...row };
  for (const name of booleans) {
    const value = row[name];
    // SQLite keeps booleans as 0/1 (knex on some versions as "true"/"false" text).
    out[name] = value === null ? (NULLABLE_BOOLEANS.has(name) ? null : false) : value === 1 || value === '1' || value === 'true';
  }
  return out;
}

const NULLABLE_BOOLEANS = new Set(['expiry_notification', 'gamedig_given_port_only']);

const MONITOR_BOOLEANS = [
  'active',
  'ignore_tls',
  'upside_down',
  'cache_bust',
  'expiry_notification',
  'invert_keyword',
  'gamedig_given_port_only',
] as const;

const MONITOR_COLUMNS = [
  'id',
  'name',
  'type',
  'active',
  'parent',
  'weight',
  'description',
  'url',
  'hostname',
  'port',
  'interval',
  'timeout',
  'maxretries',
  'retry_interval',
  'resend_interval',
  'accepted_statuscodes_json',
  'ignore_tls',
  'upside_down',
  'maxredirects',
  'method',
  'body',
  'headers',
  'http_body_encoding',
  'auth_method',
  'basic_auth_user',
  'basic_auth_pass',
  'bearer_token',
  'oauth_client_id',
  'tls_cert',
  'proxy_id',
  'cache_bust',
  'expiry_notification',
  'keyword',
  'invert_keyword',
  'json_path',
  'json_path_operator',
  'expected_value',
  'dns_resolve_type',
  'dns_resolve_server',
  'conditions',
  'game',
  'gamedig_given_port_only',
  'gamedig_token',
  'push_token',
  'smtp_security',
  'expected_tls_alert',
] as const satisfies readonly (keyof KumaMonitorRow)[];

const PAGE_COLUMNS = [
  'id',
  'slug',
  'title',
  'description',
  'footer_text',
  'custom_css',
  'published',
  'password',
  'icon',
  'analytics_id',
] as const satisfies readonly (keyof KumaStatusPageRow)[];

const INCIDENT_COLUMNS = [
  'id',
  'status_page_id',
  'title',
  'content',
  'style',
  'created_date',
  'last_updated_date',
  'pin',
  'active',
] as const satisfies readonly (keyof KumaIncidentRow)[];

const MAINTENANCE_COLUMNS = [
  'id',
  'title',
  'description',
  'active',
  'strategy',
  'start_date',
  'end_date',
  'timezone',
  'cron',
  'duration',
] as const satisfies readonly (keyof KumaMaintenanceRow)[];
