// Notices silence: monitors whose results stopped coming become unknown, heartbeats past their grace go down.
import { sql } from 'kysely';
import type { Bus } from '../bus/bus.js';
import type { Clock } from '../domain/clock.js';
import { STALE_AFTER_INTERVALS } from '../domain/states.js';
import type { Logger } from '../logger.js';
import { heartbeatConfig } from '../probes/heartbeat.js';
import type { Db } from '../store/connect.js';
import type { Ingest } from './ingest.js';

export const WATCHDOG_EVERY_MS = 5_000;

export interface Watchdog {
  /** One pass; returns how many monitors it moved. Exposed for tests with an injected clock. */
  sweep(): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

export function createWatchdog(deps: { db: Db; ingest: Ingest; bus: Bus; clock: Clock; logger: Logger; everyMs?: number }): Watchdog {
  let timer: NodeJS.Timeout | null = null;
  let sweeping: Promise<number> | null = null;

  async function markStale(now: number): Promise<number> {
    const stale = await deps.db
      .selectFrom('monitors')
      .leftJoin('relays', 'relays.id', 'monitors.relay_id')
      .select([
        'monitors.id',
        'monitors.organization_id',
        'monitors.state',
        'monitors.last_check_at',
        'monitors.run_on',
        'relays.last_seen_at as relay_seen',
        'monitors.interval_sec',
      ])
      .where('monitors.enabled', '=', 1)
      .where('monitors.run_on', 'in', ['edge', 'relay'])
      .where('monitors.state', '!=', 'unknown')
      .where(sql<number>`monitors.last_check_at + monitors.interval_sec * ${STALE_AFTER_INTERVALS * 1000}`, '<', now)
      .execute();
    let moved = 0;
    for (const m of stale) {
      // Conditional on last_check_at: a result that arrived meanwhile wins.
      const result = await deps.db
        .updateTable('monitors')
        .set({ state: 'unknown', state_since: now, failure_streak: 0 })
        .where('id', '=', m.id)
        .where('state', '!=', 'unknown')
        .where('last_check_at', '=', m.last_check_at as number)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) continue;
      moved++;
      const relaySilent = m.run_on === 'relay' && (m.relay_seen === null || m.relay_seen < (m.last_check_at as number) + m.interval_sec * 1000);
      deps.bus.publish({
        type: 'monitor.state',
        at: now,
        monitorId: m.id,
        organizationId: m.organization_id,
        previous: m.state,
        state: 'unknown',
        reason: relaySilent ? 'relay offline' : `no result for ${STALE_AFTER_INTERVALS} intervals`,
      });
    }
    return moved;
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
      return (await markStale(now)) + (await expireHeartbeats(now));
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
