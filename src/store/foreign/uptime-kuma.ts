// Reads an Uptime Kuma SQLite database (1.23 or 2.x), read-only, as plain rows for `warden import uptime-kuma`.
// Kuma adds columns release by release (db/patch-*.sql up to 1.23, db/knex_migrations/ in 2.x): each table's columns are
// read from the file, a column it lacks reads as null, and every cell is typed as the rows below declare, whatever the
// file stored. The file is read as one nobody vouches for (foreign-sqlite.ts).
import SqliteDatabase from 'better-sqlite3';
import { type CellKind, ForeignFileError, type ForeignReadLimits, openForeignSqlite } from './foreign-sqlite.js';

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

/** The file cannot be imported: not an Uptime Kuma database, or one this reader refuses to read (the message says). */
export class NotKumaDatabaseError extends Error {}

/**
 * What one import reads at most. A real Kuma database holds a few hundred monitors and as many links; the heartbeats,
 * streamed by `--history`, are not counted (their table is as large as the file, and a real table is all they are read
 * from).
 */
export const KUMA_READ_LIMITS: ForeignReadLimits = {
  rowsPerTable: 100_000,
  readMs: 30_000,
};

/**
 * Opens `file` read-only as a file nobody vouches for (foreign-sqlite.ts: real tables and stored columns only, trusted
 * schema off, rows per table capped, a deadline from here to the end of `read()`); throws NotKumaDatabaseError when it
 * is not an Uptime Kuma database, and `read()` and `heartbeats()` throw it when the file breaks a limit or is malformed.
 */
export function openUptimeKumaDatabase(file: string, limits: ForeignReadLimits = KUMA_READ_LIMITS): KumaDatabase {
  const database = kumaError(file, () => openForeignSqlite(file, limits));
  const heartbeat = database.columns('heartbeat');
  const refused = KUMA_TABLES.flatMap((name) => {
    const what = database.notTable(name);
    return what === undefined ? [] : [`${name} is ${what}`];
  });
  if (refused.length > 0) {
    database.close();
    throw new NotKumaDatabaseError(`${file}: ${refused.join(', ')}; Uptime Kuma's are tables, and only tables are read`);
  }
  if (!database.columns('monitor').has('type') || !heartbeat.has('monitor_id')) {
    database.close();
    throw new NotKumaDatabaseError(`${file}: not an Uptime Kuma database (no monitor and heartbeat tables)`);
  }
  const links = (table: string, left: string, right: string): KumaLink[] =>
    database.rows(table, { [left]: 'id', [right]: 'id' }, { order: ['id'] }).map((r) => ({ left: r[left] as number, right: r[right] as number }));
  const cell = (column: string) => (heartbeat.has(column) ? `"${column}"` : 'null');
  const heartbeatQuery = heartbeat.has('time')
    ? kumaError(file, () => database.prepare(`select ${cell('time')} as time, ${cell('status')} as status, ${cell('ping')} as ping from main.heartbeat where monitor_id = ? and time >= ? order by time`))
    : undefined;

  return {
    read: () =>
      kumaError(file, () => {
        const monitors = database.rows('monitor', MONITOR, { order: ['id'] }) as unknown as KumaMonitorRow[];
        const tagNames = new Map(database.rows('tag', { id: 'id', name: 'text!' }).map((t) => [t.id, t.name as string]));
        const tags = database.rows('monitor_tag', { monitor_id: 'id', tag_id: 'id', value: 'text' }, { order: ['id'] }).flatMap((t) => {
          const name = tagNames.get(t.tag_id as number);
          return name === undefined ? [] : [{ monitor_id: t.monitor_id as number, name, value: t.value as string | null }];
        });
        return {
          schema: database.has('knex_migrations') ? '2.x' : '1.23',
          monitors,
          tags,
          statusPages: database.rows('status_page', STATUS_PAGE, { rename: { analytics_id: 'google_analytics_tag_id' }, order: ['id'] }) as unknown as KumaStatusPageRow[],
          pageGroups: database.rows('group', PAGE_GROUP, { order: ['weight', 'id'] }) as unknown as KumaPageGroupRow[],
          pageGroupMonitors: database.rows('monitor_group', PAGE_GROUP_MONITOR, { order: ['weight', 'id'] }) as unknown as KumaPageGroupMonitorRow[],
          customDomains: database.rows('status_page_cname', CUSTOM_DOMAIN, { order: ['id'] }) as unknown as KumaCustomDomainRow[],
          incidents: database.rows('incident', INCIDENT, { order: ['id'] }) as unknown as KumaIncidentRow[],
          maintenance: database.rows('maintenance', MAINTENANCE, { order: ['id'] }) as unknown as KumaMaintenanceRow[],
          maintenanceMonitors: links('monitor_maintenance', 'maintenance_id', 'monitor_id'),
          maintenancePages: links('maintenance_status_page', 'maintenance_id', 'status_page_id'),
          notifications: database.rows('notification', NOTIFICATION, { order: ['id'] }) as unknown as KumaNotificationRow[],
          monitorNotifications: links('monitor_notification', 'monitor_id', 'notification_id'),
        };
      }),
    *heartbeats(monitorId, since) {
      if (heartbeatQuery === undefined) return;
      const rows = kumaError(file, () => heartbeatQuery.iterate(monitorId, kumaTime(since)) as IterableIterator<{ time: unknown; status: unknown; ping: unknown }>);
      try {
        for (let next = kumaError(file, () => rows.next()); next.done !== true; next = kumaError(file, () => rows.next())) {
          const at = parseKumaTime(next.value.time);
          if (at === null) continue;
          yield { at, status: Number(next.value.status), ping: typeof next.value.ping === 'number' ? next.value.ping : null };
        }
      } finally {
        rows.return?.();
      }
    },
    close() {
      database.close();
    },
  };
}

/** Runs a read, telling a file that cannot be read as a NotKumaDatabaseError (SQLite's own errors included). */
function kumaError<T>(file: string, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof ForeignFileError) throw new NotKumaDatabaseError(error.message);
    if (error instanceof SqliteDatabase.SqliteError) throw new NotKumaDatabaseError(`${file}: cannot be read as SQLite (${error.message})`);
    throw error;
  }
}

/** Kuma writes times as UTC text, "YYYY-MM-DD HH:mm:ss.SSS" (older rows without milliseconds); null when unreadable. */
export function parseKumaTime(text: unknown): number | null {
  if (typeof text !== 'string') return null;
  const iso = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text) ? `${text.replace(' ', 'T')}Z` : text;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : null;
}

/** A time as Kuma's text, so `time >= ?` compares in its own format (and uses its monitor/time index). */
function kumaTime(ms: number): string {
  return new Date(Math.max(0, ms)).toISOString().replace('T', ' ').replace('Z', '');
}


/** Every table this reader reads. */
const KUMA_TABLES = [
  'monitor',
  'heartbeat',
  'tag',
  'monitor_tag',
  'status_page',
  'group',
  'monitor_group',
  'status_page_cname',
  'incident',
  'maintenance',
  'monitor_maintenance',
  'maintenance_status_page',
  'notification',
  'monitor_notification',
  'knex_migrations',
] as const;

type Kinds<Row> = { readonly [K in keyof Row]-?: CellKind };

const MONITOR: Kinds<KumaMonitorRow> = {
  id: 'id',
  name: 'text!',
  type: 'text!',
  active: 'bool',
  parent: 'number',
  weight: 'number',
  description: 'text',
  url: 'text',
  hostname: 'text',
  port: 'number',
  interval: 'number',
  timeout: 'number',
  maxretries: 'number',
  retry_interval: 'number',
  resend_interval: 'number',
  accepted_statuscodes_json: 'text',
  ignore_tls: 'bool',
  upside_down: 'bool',
  maxredirects: 'number',
  method: 'text',
  body: 'text',
  headers: 'text',
  http_body_encoding: 'text',
  auth_method: 'text',
  basic_auth_user: 'text',
  basic_auth_pass: 'text',
  bearer_token: 'text',
  oauth_client_id: 'text',
  tls_cert: 'text',
  proxy_id: 'number',
  cache_bust: 'bool',
  expiry_notification: 'bool?',
  keyword: 'text',
  invert_keyword: 'bool',
  json_path: 'text',
  json_path_operator: 'text',
  expected_value: 'text',
  dns_resolve_type: 'text',
  dns_resolve_server: 'text',
  conditions: 'text',
  game: 'text',
  gamedig_given_port_only: 'bool?',
  gamedig_token: 'text',
  push_token: 'text',
  smtp_security: 'text',
  expected_tls_alert: 'text',
};

const STATUS_PAGE: Kinds<KumaStatusPageRow> = {
  id: 'id',
  slug: 'text!',
  title: 'text!',
  description: 'text',
  footer_text: 'text',
  custom_css: 'text',
  published: 'bool',
  password: 'text',
  icon: 'text',
  analytics_id: 'text',
};

const PAGE_GROUP: Kinds<KumaPageGroupRow> = { id: 'id', status_page_id: 'id', name: 'text!', public: 'bool', weight: 'number!' };

const PAGE_GROUP_MONITOR: Kinds<KumaPageGroupMonitorRow> = { group_id: 'id', monitor_id: 'id', weight: 'number!' };

const CUSTOM_DOMAIN: Kinds<KumaCustomDomainRow> = { status_page_id: 'id', domain: 'text!' };

const INCIDENT: Kinds<KumaIncidentRow> = {
  id: 'id',
  status_page_id: 'number',
  title: 'text!',
  content: 'text!',
  style: 'text',
  created_date: 'text',
  last_updated_date: 'text',
  pin: 'bool',
  active: 'bool',
};

const MAINTENANCE: Kinds<KumaMaintenanceRow> = {
  id: 'id',
  title: 'text!',
  description: 'text',
  active: 'bool',
  strategy: 'text!',
  start_date: 'text',
  end_date: 'text',
  timezone: 'text',
  cron: 'text',
  duration: 'number',
};

const NOTIFICATION: Kinds<KumaNotificationRow> = { id: 'id', name: 'text', active: 'bool', is_default: 'bool', config: 'text' };
