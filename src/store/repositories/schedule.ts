// The schedule: which enabled monitors run where, as the runners read it — the edge scheduler, the relays (what each
// runs, and may report on) and the watchdog (who went silent). Contract: test/contracts/store-schedule.contract.test.ts.
import { type Selectable, sql } from 'kysely';
import type { Monitor, ScheduledMonitor } from '../../domain/monitor.js';
import type { MonitorState, RunOn } from '../../domain/monitor-type.js';
import { EDGE_LOCATION } from '../../domain/vantage.js';
import type { Db, MonitorsTable } from '../tables.js';
import { inChunks } from './in-chunks.js';
import { toMonitor } from './monitor-rows.js';

/**
 * What the scheduler needs of an enabled monitor, with the version it was read at, and its last check when read (where
 * a monitor handed over from another instance of a cluster resumes).
 */
export type ScheduledMonitorRow = ScheduledMonitor & {
  organizationId: string;
  updatedAt: number;
  lastCheckAt: number | null;
};

/** What the watchdog needs to move a silent monitor to unknown. */
export interface WatchedMonitor {
  id: string;
  organizationId: string;
  state: MonitorState;
  lastCheckAt: number | null;
}

export interface ScheduleRepository {
  /** Ids and versions of the enabled monitors that run at this place. */
  listVersions(runOn: RunOn): Promise<{ id: string; updatedAt: number }[]>;
  /** The enabled monitors among these ids that run at this place, as the scheduler needs them. */
  listScheduled(runOn: RunOn, ids: readonly string[]): Promise<ScheduledMonitorRow[]>;
  /** The enabled relay monitors of a relay, by id (a stable order, so the relay config's ETag only changes with its content). */
  listRunningOnRelay(relayId: string): Promise<Monitor[]>;
  /** Ids of the same: the only monitors a relay may submit results for. */
  idsRunningOnRelay(relayId: string): Promise<Set<string>>;
  /** Enabled edge and relay monitors, not unknown yet, without a result for `intervals` of their interval. */
  listSilent(now: number, intervals: number): Promise<WatchedMonitor[]>;
  /** Enabled monitors of a relay that are not unknown yet. */
  listKnownOnRelay(relayId: string): Promise<WatchedMonitor[]>;
  /**
   * Enabled push monitors: their config (for the grace period), last ping (null: none yet) and when they were created.
   * The watchdog's deadline counts from the latest of those and their last resume.
   */
  listPushed(): Promise<PushedMonitor[]>;
  /** When each of these monitors was last resumed (its latest change out of `paused`); absent: never. */
  lastResumedAt(ids: readonly string[]): Promise<Map<string, number>>;
}

/** A push monitor as the watchdog reads it. */
export interface PushedMonitor {
  id: string;
  config: Record<string, unknown>;
  lastCheckAt: number | null;
  createdAt: number;
}

const WATCHED = ['id', 'organization_id', 'state', 'last_check_at'] as const;
const toWatched = (r: Pick<Selectable<MonitorsTable>, (typeof WATCHED)[number]>): WatchedMonitor => ({
  id: r.id,
  organizationId: r.organization_id,
  state: r.state,
  lastCheckAt: r.last_check_at,
});

export function scheduleRepository(db: Db): ScheduleRepository {
  const enabled = (runOn: RunOn) => db.selectFrom('monitors').where('enabled', '=', 1).where('run_on', '=', runOn);
  // A monitor also runs where its `locations` name (a JSON array of 'edge' and relay ids, quoted, so one id cannot match
  // inside another; LIKE's "_" wildcard in "rly_…" matches the "_" itself and ids differ in their random part): the
  // edge runs the monitors that list it, a relay those that list its id.
  const listing = (location: string) => sql<boolean>`locations like ${`%${JSON.stringify(location)}%`}`;
  const runningAt = (runOn: RunOn) =>
    runOn === 'edge'
      ? db
          .selectFrom('monitors')
          .where('enabled', '=', 1)
          .where((eb) => eb.or([eb('run_on', '=', 'edge'), listing(EDGE_LOCATION)]))
      : enabled(runOn);
  const enabledOnRelay = (relayId: string) =>
    db
      .selectFrom('monitors')
      .where('enabled', '=', 1)
      .where((eb) => eb.or([eb.and([eb('run_on', '=', 'relay'), eb('relay_id', '=', relayId)]), listing(relayId)]));
  /** The relay's own monitors alone (not those that list it as another location): the watchdog's. */
  const ownOnRelay = (relayId: string) => enabled('relay').where('relay_id', '=', relayId);
  return {
    async listVersions(runOn) {
      const rows = await runningAt(runOn).select(['id', 'updated_at']).execute();
      return rows.map((r) => ({ id: r.id, updatedAt: r.updated_at }));
    },
    listScheduled: (runOn, ids) =>
      inChunks(ids, async (chunk) => {
        const rows = await runningAt(runOn)
          .select([
            'id',
            'organization_id',
            'key',
            'type',
            'config',
            'interval_sec',
            'timeout_ms',
            'updated_at',
            'last_check_at',
          ])
          .where('id', 'in', chunk)
          .execute();
        return rows.map((r) => ({
          id: r.id,
          organizationId: r.organization_id,
          key: r.key,
          type: r.type,
          config: JSON.parse(r.config) as unknown,
          intervalSec: r.interval_sec,
          timeoutMs: r.timeout_ms,
          updatedAt: r.updated_at,
          lastCheckAt: r.last_check_at,
        }));
      }),
    async listRunningOnRelay(relayId) {
      return (await enabledOnRelay(relayId).selectAll().orderBy('id').execute()).map(toMonitor);
    },
    async idsRunningOnRelay(relayId) {
      return new Set((await enabledOnRelay(relayId).select('id').execute()).map((r) => r.id));
    },
    async listSilent(now, intervals) {
      const rows = await db
        .selectFrom('monitors')
        .select(WATCHED)
        .where('enabled', '=', 1)
        .where('run_on', 'in', ['edge', 'relay'])
        .where('state', '!=', 'unknown')
        // In floating point: PostgreSQL would multiply two integers as int4, which a daily monitor's silence
        // overflows (86 400 s × 30 intervals × 1000 > 2^31), and `intervals` need not be whole.
        .where(sql<number>`last_check_at + interval_sec * cast(${intervals * 1000} as double precision)`, '<', now)
        .execute();
      return rows.map(toWatched);
    },
    async listKnownOnRelay(relayId) {
      // A monitor with other locations is not unknown while they report: its state leaves this relay's silence out.
      return (
        await ownOnRelay(relayId)
          .select(WATCHED)
          .where('state', '!=', 'unknown')
          .where('locations', 'is', null)
          .execute()
      ).map(toWatched);
    },
    async listPushed() {
      const rows = await enabled('push').select(['id', 'config', 'last_check_at', 'created_at']).execute();
      return rows.map((r) => ({
        id: r.id,
        config: JSON.parse(r.config) as Record<string, unknown>,
        lastCheckAt: r.last_check_at,
        createdAt: r.created_at,
      }));
    },
    async lastResumedAt(ids) {
      const rows = await inChunks(ids, (chunk) =>
        db
          .selectFrom('monitor_state_changes')
          .select(['monitor_id', (eb) => eb.fn.max('at').as('at')])
          .where('monitor_id', 'in', chunk)
          .where('from_state', '=', 'paused')
          .groupBy('monitor_id')
          .execute(),
      );
      return new Map(rows.map((r) => [r.monitor_id, Number(r.at)]));
    },
  };
}
