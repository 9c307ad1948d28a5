// Reads an Uptime Kuma SQLite database (1.23 or 2.x), read-only, as plain rows for `warden import uptime-kuma`.
// Kuma adds columns release by release (db/patch-*.sql up to 1.23, db/knex_migrations/ in 2.x): each table's columns are
// read from the file, a column it lacks reads as null, and every cell is typed as the rows below declare, whatever the
// file stored. The file is read as one nobody vouches for (foreign-sqlite.ts).
import SqliteDatabase from 'better-sqlite3';
import { ForeignFileError, type ForeignReadLimits, openForeignSqlite } from './foreign-sqlite.js';
import {
  CUSTOM_DOMAIN,
  DOCKER_HOST,
  INCIDENT,
  KUMA_TABLES,
  MAINTENANCE,
  MONITOR,
  NOTIFICATION,
  PAGE_GROUP,
  PAGE_GROUP_MONITOR,
  STATUS_PAGE,
} from './kuma-columns.js';
import type {
  KumaCustomDomainRow,
  KumaDatabase,
  KumaDockerHostRow,
  KumaIncidentRow,
  KumaLink,
  KumaMaintenanceRow,
  KumaMonitorRow,
  KumaNotificationRow,
  KumaPageGroupMonitorRow,
  KumaPageGroupRow,
  KumaStatusPageRow,
} from './kuma-rows.js';

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
    throw new NotKumaDatabaseError(
      `${file}: ${refused.join(', ')}; Uptime Kuma's are tables, and only tables are read`,
    );
  }
  if (!database.columns('monitor').has('type') || !heartbeat.has('monitor_id')) {
    database.close();
    throw new NotKumaDatabaseError(`${file}: not an Uptime Kuma database (no monitor and heartbeat tables)`);
  }
  const links = (table: string, left: string, right: string): KumaLink[] =>
    database
      .rows(table, { [left]: 'id', [right]: 'id' }, { order: ['id'] })
      .map((r) => ({ left: r[left] as number, right: r[right] as number }));
  const cell = (column: string) => (heartbeat.has(column) ? `"${column}"` : 'null');
  const heartbeatQuery = heartbeat.has('time')
    ? kumaError(file, () =>
        database.prepare(
          `select ${cell('time')} as time, ${cell('status')} as status, ${cell('ping')} as ping from main.heartbeat where monitor_id = ? and time >= ? order by time`,
        ),
      )
    : undefined;

  return {
    read: () =>
      kumaError(file, () => {
        const monitors = database.rows('monitor', MONITOR, { order: ['id'] }) as unknown as KumaMonitorRow[];
        const tagNames = new Map(
          database.rows('tag', { id: 'id', name: 'text!' }).map((t) => [t.id, t.name as string]),
        );
        const tags = database
          .rows('monitor_tag', { monitor_id: 'id', tag_id: 'id', value: 'text' }, { order: ['id'] })
          .flatMap((t) => {
            const name = tagNames.get(t.tag_id as number);
            return name === undefined
              ? []
              : [{ monitor_id: t.monitor_id as number, name, value: t.value as string | null }];
          });
        return {
          schema: database.has('knex_migrations') ? '2.x' : '1.23',
          monitors,
          tags,
          statusPages: database.rows('status_page', STATUS_PAGE, {
            rename: { analytics_id: 'google_analytics_tag_id' },
            order: ['id'],
          }) as unknown as KumaStatusPageRow[],
          pageGroups: database.rows('group', PAGE_GROUP, { order: ['weight', 'id'] }) as unknown as KumaPageGroupRow[],
          pageGroupMonitors: database.rows('monitor_group', PAGE_GROUP_MONITOR, {
            order: ['weight', 'id'],
          }) as unknown as KumaPageGroupMonitorRow[],
          customDomains: database.rows('status_page_cname', CUSTOM_DOMAIN, {
            order: ['id'],
          }) as unknown as KumaCustomDomainRow[],
          incidents: (database.rows('incident', INCIDENT, { order: ['id'] }) as unknown as KumaIncidentText[]).map(
            incidentTimes,
          ),
          maintenance: database.rows('maintenance', MAINTENANCE, { order: ['id'] }) as unknown as KumaMaintenanceRow[],
          maintenanceMonitors: links('monitor_maintenance', 'maintenance_id', 'monitor_id'),
          maintenancePages: links('maintenance_status_page', 'maintenance_id', 'status_page_id'),
          notifications: database.rows('notification', NOTIFICATION, {
            order: ['id'],
          }) as unknown as KumaNotificationRow[],
          monitorNotifications: links('monitor_notification', 'monitor_id', 'notification_id'),
          dockerHosts: database.rows('docker_host', DOCKER_HOST, { order: ['id'] }) as unknown as KumaDockerHostRow[],
        };
      }),
    *heartbeats(monitorId, since) {
      if (heartbeatQuery === undefined) return;
      const rows = kumaError(
        file,
        () =>
          heartbeatQuery.iterate(monitorId, kumaTime(since)) as IterableIterator<{
            time: unknown;
            status: unknown;
            ping: unknown;
          }>,
      );
      try {
        for (
          let next = kumaError(file, () => rows.next());
          next.done !== true;
          next = kumaError(file, () => rows.next())
        ) {
          const at = parseKumaTime(next.value.time);
          if (at === null) continue;
          yield {
            at,
            status: Number(next.value.status),
            ping: typeof next.value.ping === 'number' ? next.value.ping : null,
          };
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
    if (error instanceof SqliteDatabase.SqliteError)
      throw new NotKumaDatabaseError(`${file}: cannot be read as SQLite (${error.message})`);
    throw error;
  }
}

type KumaIncidentText = Omit<KumaIncidentRow, 'created_date' | 'last_updated_date'> & {
  created_date: string | null;
  last_updated_date: string | null;
};

/** An incident with its times read from Kuma's text. */
function incidentTimes(row: KumaIncidentText): KumaIncidentRow {
  return {
    ...row,
    created_date: parseKumaTime(row.created_date),
    last_updated_date: parseKumaTime(row.last_updated_date),
  };
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
