// Notices silence: offline relays and monitors whose results stopped coming become unknown, heartbeats past their grace go down.
// A relay that goes offline is also marked so, with its `relay.offline` notice, once per outage.
import type { Clock } from '../domain/clock.js';
import { STALE_AFTER_INTERVALS } from '../domain/states.js';
import type { NotificationPublisher } from '../notify/outbox/outbox.js';
import { relayWentOffline } from '../notify/outbox/relays.js';
import { heartbeatConfig } from '../probes/heartbeat.js';
import type { Store, WatchedMonitor } from '../store/index.js';
import type { Ingest } from './ingest.js';
import { createTimer, type PeriodicSweep, type TimerDeps } from './periodic.js';

export const WATCHDOG_EVERY_MS = 5_000;
/** A relay not heard from for this many of its shortest monitor intervals is offline. */
export const RELAY_OFFLINE_AFTER_INTERVALS = 3;

/** sweep() is one pass; it returns how many monitors it moved. */
export type Watchdog = PeriodicSweep<number>;

/** What it finds goes through ingest like any result: one write path for monitor state, and its events. */
export function createWatchdog(
  deps: TimerDeps & {
    store: Store;
    ingest: Ingest;
    clock: Clock;
    notify?: NotificationPublisher | undefined;
    /**
     * Cluster mode: how much longer than its intervals an edge monitor may stay silent before it is unknown. A process
     * that dies takes its monitors' checks with it until its shard leases lapse and another process takes them over; in
     * that gap the monitors are not stale, only moving (and calling them unknown would re-send "down" for one already down).
     */
    staleGraceMs?: number | undefined;
  },
): Watchdog {
  /** Monitors moved to unknown; a result that arrived meanwhile (a newer last check) wins. */
  async function markUnknown(monitors: WatchedMonitor[], reason: string): Promise<number> {
    if (monitors.length === 0) return 0;
    const outcomes = await deps.ingest.recordMany(
      monitors.map((m) => ({ kind: 'silence' as const, monitorId: m.id, lastCheckAt: m.lastCheckAt, reason })),
    );
    return outcomes.filter((o) => o.stored).length;
  }

  /** A relay silent for three of its shortest intervals takes all its monitors to unknown ("relay offline"). */
  async function markOfflineRelays(now: number): Promise<number> {
    let moved = 0;
    for (const relay of await deps.store.relays.listActivity()) {
      const silentSince = relay.lastSeenAt ?? Number.NEGATIVE_INFINITY;
      if (silentSince + relay.shortestIntervalSec * RELAY_OFFLINE_AFTER_INTERVALS * 1000 >= now) continue;
      // A relay never heard from was never online: nothing to tell.
      if (relay.offlineSince === null && relay.lastSeenAt !== null)
        await markRelayOffline(relay.id, relay.lastSeenAt, now);
      moved += await markUnknown(await deps.store.schedule.listKnownOnRelay(relay.id), 'relay offline');
    }
    return moved;
  }

  async function markRelayOffline(relayId: string, lastSeenAt: number, now: number): Promise<void> {
    const enqueued = await deps.store.transaction((tx) => relayWentOffline(tx, deps.notify, relayId, lastSeenAt, now));
    if (enqueued > 0) deps.notify?.committed();
  }

  /** An edge or relay monitor with no result for three of its intervals is unknown: its checks stopped. */
  async function markStale(now: number): Promise<number> {
    return markUnknown(
      await deps.store.schedule.listSilent(now - (deps.staleGraceMs ?? 0), STALE_AFTER_INTERVALS),
      `no result for ${STALE_AFTER_INTERVALS} intervals`,
    );
  }

  /**
   * A heartbeat monitor with no ping within graceSec gets a failed check (and goes down). The grace counts from its
   * last ping, or from when it was created or last resumed if that is later: a job that never pings is reported too,
   * and a monitor resumed after a long pause gets its grace before it is judged.
   */
  async function expireHeartbeats(now: number): Promise<number> {
    const late: { id: string; graceMs: number; lastCheckAt: number | null; since: number }[] = [];
    for (const m of await deps.store.schedule.listPushed()) {
      const parsed = heartbeatConfig.safeParse(m.config);
      const graceMs = (parsed.success ? parsed.data.graceSec : 90) * 1000;
      const since = Math.max(m.lastCheckAt ?? m.createdAt, m.createdAt);
      if (since + graceMs < now) late.push({ id: m.id, graceMs, lastCheckAt: m.lastCheckAt, since });
    }
    if (late.length === 0) return 0;
    // Resumes are read only for the few past their grace: most monitors ping in time.
    const resumed = await deps.store.schedule.lastResumedAt(late.map((m) => m.id));
    let moved = 0;
    for (const m of late) {
      const deadline = Math.max(m.since, resumed.get(m.id) ?? m.since) + m.graceMs;
      if (deadline >= now) continue;
      const error =
        m.lastCheckAt === null
          ? `no first heartbeat within ${m.graceMs / 1000} s`
          : `no heartbeat within ${m.graceMs / 1000} s`;
      // Recorded at the deadline, once per grace period of silence, so uptime reflects how long pings were missing.
      await deps.ingest.record({ monitorId: m.id, ok: false, error, source: 'push', checkedAt: deadline });
      moved++;
    }
    return moved;
  }

  async function pass(): Promise<number> {
    const now = deps.clock.now();
    return (await markOfflineRelays(now)) + (await markStale(now)) + (await expireHeartbeats(now));
  }

  return createTimer(pass, deps, { everyMs: WATCHDOG_EVERY_MS, failure: 'watchdog sweep failed' });
}
