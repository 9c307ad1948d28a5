// The rules a channel applies when an event is enqueued for it: quiet under maintenance (recorded as skipped), flap
// damping (one monitor.flapping instead of the change that makes a monitor flap, then skipped changes until it is
// stable), and the hold (a state change waits before it is due; the send-time gate checks it still holds).
import { type NewDelivery, type NotificationChannel, stableEventId } from '../../domain/notification.js';
import { flapRule, holdMs, quietDuringMaintenance, STATE_CHANGE_KINDS } from '../../domain/notification-rules.js';
import type { Store } from '../../store/index.js';
import type { NotificationEvent } from '../channels/channel.js';

export const SKIP_REASONS = {
  maintenance: 'under maintenance',
  flapping: 'flapping',
} as const;

/** Per (channel, monitor), what this publish call has added so far: its rows are not in the database yet. */
export type FlapBatch = Map<string, { open: boolean; changes: number; sinceAt: number }>;

export interface EnqueueRulesContext {
  tx: Store;
  now: number;
  /** A new delivery id (time-ordered within the process). */
  newId: () => string;
  batch: FlapBatch;
}

/**
 * The deliveries one event calls for at one channel: none (a reminder under maintenance), a skipped one (with why), a
 * pending one (due after the hold), or a skipped change and the monitor.flapping notice that stands for it.
 */
export async function deliveriesFor(
  ctx: EnqueueRulesContext,
  channel: NotificationChannel,
  event: NotificationEvent,
  json: string,
  delivery: Omit<NewDelivery, 'id' | 'channelId' | 'event' | 'nextAttemptAt'>,
  coveredByMaintenance: boolean,
): Promise<NewDelivery[]> {
  const row = (overrides: Partial<NewDelivery> = {}): NewDelivery => ({
    ...delivery,
    id: ctx.newId(),
    channelId: channel.id,
    event: json,
    nextAttemptAt: ctx.now,
    ...overrides,
  });
  const skipped = (reason: string) => row({ status: 'skipped', lastError: reason });
  const { monitorId } = delivery;
  if (monitorId !== null && coveredByMaintenance && quietDuringMaintenance(channel.rules)) {
    // A reminder is about a state already told: under maintenance it is not even recorded.
    return event.kind === 'monitor.reminder' ? [] : [skipped(SKIP_REASONS.maintenance)];
  }
  const flap = flapRule(channel.rules);
  if (monitorId !== null && flap && STATE_CHANGE_KINDS.includes(event.kind)) {
    const key = `${channel.id}\u0000${monitorId}`;
    let state = ctx.batch.get(key);
    if (!state) {
      const query = { channelId: channel.id, monitorId };
      const [last, stats] = await Promise.all([
        ctx.tx.deliveries.last({ ...query, kinds: ['monitor.flapping'] }),
        ctx.tx.deliveries.stats({ ...query, kinds: STATE_CHANGE_KINDS, since: ctx.now - flap.windowMs }),
      ]);
      state = {
        open: last !== undefined && flapOf(last.event)?.ended === false,
        changes: stats.count,
        sinceAt: stats.first ?? ctx.now,
      };
      ctx.batch.set(key, state);
    }
    state.changes++;
    if (state.open) return [skipped(SKIP_REASONS.flapping)];
    if (state.changes >= flap.changes) {
      state.open = true;
      const flapping: NotificationEvent = {
        ...event,
        id: stableEventId(event.id, channel.id, 'monitor.flapping'),
        kind: 'monitor.flapping',
        severity: 'warning',
        title: `${event.monitor?.name ?? 'A monitor'} is flapping: ${state.changes} changes in ${flap.windowMin} min`,
        reason: null,
        flap: { changes: state.changes, sinceAt: state.sinceAt, ended: false },
      };
      return [
        skipped(SKIP_REASONS.flapping),
        row({ eventId: flapping.id, kind: flapping.kind, event: JSON.stringify(flapping) }),
      ];
    }
  }
  const hold = holdMs(channel.rules, event.kind);
  return [row({ nextAttemptAt: hold > 0 ? event.at + hold : ctx.now })];
}

/** A monitor.flapping delivery's `flap`, from its stored event. */
export function flapOf(eventJson: string): NotificationEvent['flap'] | undefined {
  try {
    return (JSON.parse(eventJson) as NotificationEvent).flap;
  } catch {
    return undefined;
  }
}
