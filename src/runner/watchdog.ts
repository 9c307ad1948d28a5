// Notices silence: offline relays and monitors whose results stopped coming become unknown, heartbeats past their grace go down.
import { sql } from 'kysely';
import type { Bus } from '../bus/bus.js';
import type { Clock } from '../domain/clock.js';
import type { MonitorState } from '../domain/monitor-type.js';
import { STALE_AFTER_INTERVALS } from '../domain/states.js';
import type { Logger } from '../logger.js';
import { heartbeatConfig } from '../probes/heartbeat.js';
import type { Db } from '../store/connect.js';
import type { Ingest } from './ingest.js';

export const WATCHDOG_EVERY_MS = 5_000;
/** A relay not heard from for this many of its shortest monitor intervals is offline. */
export const RELAY_OFFLINE_AFTER_INTERVALS = 3;

interface StaleCandidate {
  id: string;
  organization_id: string;
  state: MonitorState;
  last_check_at: number | null;
}

export interface Watchdog {
  /** One pass; returns how many monitors it moved. Exposed for tests with an injected clock. */
  sweep(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

export function createWatchdog(deps: { db: Db; ingest: Ingest; bus: Bus; clock: Clock; logger: Logger; everyMs?: number }): Watchdog {
  let timer: NodeJS.Timeout | null = null;
  let sweeping: Promise<number> | null = null;

  /** Monitors moved to unknown, one conditional update each: a result that arrived meanwhile (newer last_check_at) wins. */
  async function markUnknown(monitors: StaleCandidate[], now: number, reason: string): Promise<number> {
    let moved = 0;
    for (const m of monitors) {
      let update = deps.db
        .updateTable('monitors')
        .set({ state: 'unknown', state_since: now, failure_streak: 0 })
        .where('id', '=', m.id)
        .where('state', '!=', 'unknown');
      update = m.last_check_at === null ? update.where('last_check_at', 'is', null) : update.where('last_check_at', '=', m.last_check_at);
      const result = await update.executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) continue;
      moved++;
      deps.bus.publish({ type: 'monitor.state', at: now, monitorId: m.id, organizationId: m.organization_id, previous: m.state, state: 'unknown', reason });
    }
    return moved;
  }

  /** A relay silent for three of its shortest intervals takes all its monitors to unknown ("relay offline"). */
  async function markOfflineRelays(now: number): Promise<number> {
    const relays = await deps.db
      .selectFrom('relays')
      .innerJoin('monitors', 'monitors.relay_id', 'relays.id')
      .select(['relays.id', 'relays.last_seen_at', (eb) => eb.fn.min<number>('monitors.interval_sec').as('shortest')])
      .where('monitors.enabled', '=', 1)
      .where('monitors.run_on', '=', 'relay')
      .groupBy(['relays.id', 'relays.last_seen_at'])
      .execute();
    let moved = 0;
    for (const relay of relays) {
      const silentSince = relay.last_seen_at ?? Number.NEGATIVE_INFINITY;
      if (silentSince + Number(relay.shortest) * RELAY_OFFLINE_AFTER_INTERVALS * 1000 >= now) continue;
      const monitors = await deps.db
        .selectFrom('monitors')
        .select(['id', 'organization_id', 'state', 'last_check_at'])
        .where('relay_id', '=', relay.id)
        .where('run_on', '=', 'relay')
        .where('enabled', '=', 1)
        .where('state', '!=', 'unknown')
        .execute();
      moved += await markUnknown(monitors, now, 'relay offline');
    }
    return moved;
  }

  /** An edge or relay monitor with no result for three of its intervals is unknown: its checks stopped. */
  async function markStale(now: number): Promise<number> {
    const stale = await deps.db
      .selectFrom('monitors')
      .select(['id', 'organization_id', 'state', 'last_check_at'])
      .where('enabled', '=', 1)
      .where('run_on', 'in', ['edge', 'relay'])
      .where('state', '!=', 'unknown')
      .where(sql<number>`last_check_at + interval_sec * ${STALE_AFTER_INTERVALS * 1000}`, '<', now)
      .execute();
    return markUnknown(stale, now, `no result for ${STALE_AFTER_INTERVALS} intervals`);
  }

  /** A heartbeat monitor with no ping within graceSec of the last one gets a failed check (and goes down). */
  async function expireHeartbeats(now: number): Promise<number> {
    const candidates = await deps.db
      .selectFrom('monitors')
      .select(['id', 'config', 'last_check_at'])
      .where('enabled', '=', 1)
      .where('run_on', '=', 'push')
      .where('last_check_at', 'is not', null)
      .execute();
    let moved = 0;
    for (const m of candidates) {
      const parsed = heartbeatConfig.safeParse(JSON.parse(m.config));
      const graceMs = (parsed.success ? parsed.data.graceSec : 90) * 1000;
      const deadline = (m.last_check_at as number) + graceMs;
      if (deadline >= now) continue;
      // Recorded at the deadline, once per grace period of silence, so uptime reflects how long pings were missing.
      await deps.ingest.record({
        monitorId: m.id,
        ok: false,
        error: `no heartbeat within ${graceMs / 1000} s`,
        source: 'push',
        checkedAt: deadline,
      });
      moved++;
    }
    return moved;
  }

  async function sweep(): Promise<number> {
    if (sweeping) return sweeping;
    sweeping = (async () => {
      const now = deps.clock.now();
      return (await markOfflineRelays(now)) + (await markStale(now)) + (await expireHeartbeats(now));
    })();
    try {
      return await sweeping;
    } finally {
      sweeping = null;
    }
  }

  return {
    sweep,
    start() {
      timer = setInterval(() => {
        sweep().catch((error) => deps.logger.error({ err: error }, 'watchdog sweep failed'));
      }, deps.everyMs ?? WATCHDOG_EVERY_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await sweeping;
    },
  };
}
